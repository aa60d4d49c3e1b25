import type { HookEventName } from '../event-names.js';
import type { HandlerOutcome, HandlerOrigin } from '../handler.js';
import { bracketLabel } from '../handler.js';
import { readExternalOutput, withoutByteOrderMark } from '../read-external-output.js';
import type { CommandProcessResult } from './command-process.js';

/**
 * Applies Claude Code's command-hook protocol to a finished process:
 * - exit 0: stdout is JSON when its first non-blank character (after a UTF-8 byte order mark,
 *   which Windows editors and PowerShell's `Out-File` write) is `{`, read leniently
 *   (`readExternalOutput`: unknown fields are a `warning`, the known ones count; invalid JSON or a
 *   malformed answer is a non-blocking failure), otherwise plain text;
 * - exit 2: Claude Code reads a JSON answer on stdout first, as on exit 0. When that answer refuses
 *   by itself (`decision: "block"`, `permissionDecision: "deny"`, a PermissionRequest deny), it is
 *   the refusal and its reason is the message; otherwise the exit code blocks with the message
 *   `[<cmd>]: <stderr>` (`No stderr output` when stderr is empty) and the answer's other fields
 *   (`additionalContext`, `continue: false`) still count, its `allow` does not;
 * - any other exit code: Claude Code reads a JSON answer on stdout before it looks at the exit code,
 *   so a valid JSON answer decides as on exit 0 (a `deny` printed before `exit 1` denies); the
 *   outcome is still `failed` (the exit code is reported), and `onFailure: "block"` still fails closed;
 *   without JSON it is a non-blocking failure (`failClosed` with `onFailure: "block"`);
 * - a signal, a failed start or a timeout: a non-blocking failure, unless `onFailure: "block"`.
 * Never throws.
 */
export function interpretCommandResult(
  event: HookEventName,
  origin: HandlerOrigin,
  result: CommandProcessResult,
  onFailure: 'block' | 'ignore' | undefined,
): HandlerOutcome {
  const base = {
    origin,
    durationMs: result.durationMs,
    raw: { exitCode: result.exitCode, signal: result.signal, stdout: result.stdout, stderr: result.stderr },
  };
  const failClosed = onFailure === 'block';
  if (result.timedOut) return { ...base, status: 'timeout', output: {}, error: 'timed out', failClosed };
  if (result.aborted) return { ...base, status: 'failed', output: {}, error: 'aborted', failClosed: false };
  if (result.spawnError !== undefined)
    return {
      ...base,
      status: 'failed',
      output: {},
      error: `failed to start: ${result.spawnError}`,
      failClosed,
    };
  if (result.exitCode === 2) {
    const json = parseJsonStdout(event, result.stdout);
    if (json.ok && refusesByItself(json.output))
      return {
        ...base,
        status: 'ok',
        output: json.output,
        failClosed: false,
        ...(json.warning ? { warning: json.warning } : {}),
      };
    return {
      ...base,
      status: 'blocked',
      output: json.ok ? withoutApproval(json.output) : {},
      blockMessage: blockingText(origin, result.stderr),
      failClosed: false,
      ...(json.ok && json.warning ? { warning: json.warning } : {}),
    };
  }
  if (result.exitCode !== 0) {
    const how =
      result.exitCode === null ? `killed by ${result.signal ?? 'a signal'}` : `exit code ${result.exitCode}`;
    const error = `${how}${result.stderr ? `: ${result.stderr.trim()}` : ''}`;
    const json = result.exitCode === null ? ({ ok: false } as const) : parseJsonStdout(event, result.stdout);
    if (json.ok)
      return {
        ...base,
        status: 'failed',
        output: json.output,
        error,
        failClosed,
        ...(json.warning ? { warning: json.warning } : {}),
      };
    return { ...base, status: 'failed', output: {}, error, failClosed };
  }
  const json = parseJsonStdout(event, result.stdout);
  if (json.ok)
    return {
      ...base,
      status: 'ok',
      output: json.output,
      failClosed: false,
      ...(json.warning ? { warning: json.warning } : {}),
    };
  if (json.error !== undefined)
    return { ...base, status: 'failed', output: {}, error: json.error, failClosed: false };
  const text = result.stdout.trim();
  return { ...base, status: 'ok', output: {}, ...(text ? { plainText: text } : {}), failClosed: false };
}

type JsonStdout =
  { ok: true; output: Record<string, unknown>; warning?: string } | { ok: false; error?: string };

function parseJsonStdout(event: HookEventName, stdout: string): JsonStdout {
  const text = withoutByteOrderMark(stdout);
  if (!text.trimStart().startsWith('{')) return { ok: false };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `invalid JSON on stdout: ${(error as Error).message}` };
  }
  const read = readExternalOutput(event, value);
  if (!read.ok) return { ok: false, error: read.error };
  return {
    ok: true,
    output: read.output as Record<string, unknown>,
    ...(read.warning ? { warning: read.warning } : {}),
  };
}

/** The answer minus what would approve (`allow`, `approve`, a PermissionRequest allow): an exit code 2 never approves. */
function withoutApproval(output: Record<string, unknown>): Record<string, unknown> {
  const { decision, hookSpecificOutput, ...rest } = output as {
    decision?: unknown;
    hookSpecificOutput?: Record<string, unknown>;
  } & Record<string, unknown>;
  const kept: Record<string, unknown> = {
    ...rest,
    ...(decision !== undefined && decision !== 'approve' ? { decision } : {}),
  };
  if (hookSpecificOutput === undefined) return kept;
  const {
    permissionDecision,
    permissionDecisionReason: _reason,
    updatedInput: _input,
    decision: requestDecision,
    ...specific
  } = hookSpecificOutput;
  const approves = (requestDecision as { behavior?: unknown } | undefined)?.behavior === 'allow';
  return {
    ...kept,
    hookSpecificOutput: {
      ...specific,
      ...(permissionDecision !== undefined && permissionDecision !== 'allow' ? { permissionDecision } : {}),
      ...(requestDecision !== undefined && !approves ? { decision: requestDecision } : {}),
    },
  };
}

/** True when the answer itself blocks or denies; then an exit code 2 adds nothing to it. */
function refusesByItself(output: Record<string, unknown>): boolean {
  const specific = output['hookSpecificOutput'] as
    { permissionDecision?: unknown; decision?: { behavior?: unknown } } | undefined;
  return (
    output['decision'] === 'block' ||
    specific?.permissionDecision === 'deny' ||
    specific?.decision?.behavior === 'deny'
  );
}

/**
 * The reason of an exit code 2: `[<cmd>]: <stderr>` (`No stderr output` when empty); a plugin's hook
 * adds `\n\nThis hook comes from the <plugin> plugin.` after its trimmed stderr, as Claude Code
 * 2.1.328 does (measured on PreToolUse with a `--plugin-dir` plugin).
 */
function blockingText(origin: HandlerOrigin, stderr: string): string {
  const text = stderr === '' ? 'No stderr output' : stderr;
  if (origin.plugin === undefined) return `${bracketLabel(origin)}: ${text}`;
  return `${bracketLabel(origin)}: ${text.trimEnd()}\n\nThis hook comes from the ${origin.plugin} plugin.`;
}
