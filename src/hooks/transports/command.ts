import type { HookEventName } from '../event-names.js';
import type { HandlerOutcome, HandlerOrigin } from '../handler.js';
import { bracketLabel } from '../handler.js';
import { readExternalOutput } from '../read-external-output.js';
import type { CommandProcessResult } from './command-process.js';

/**
 * Applies Claude Code's command-hook protocol (spec §4) to a finished process:
 * - exit 0: stdout is JSON when its first non-blank character is `{`, read leniently
 *   (`readExternalOutput`: unknown fields are a `warning`, the known ones count; invalid JSON or a
 *   malformed answer is a non-blocking failure), otherwise plain text;
 * - exit 2: a blocking error whose message is `[<cmd>]: <stderr>`; JSON on stdout still counts
 *   for `additionalContext` (the reference delivers it with an exit-2 PreToolUse block);
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
  const base = { origin, durationMs: result.durationMs, raw: { exitCode: result.exitCode, signal: result.signal, stdout: result.stdout, stderr: result.stderr } };
  const failClosed = onFailure === 'block';
  if (result.timedOut) return { ...base, status: 'timeout', output: {}, error: 'timed out', failClosed };
  if (result.aborted) return { ...base, status: 'failed', output: {}, error: 'aborted', failClosed: false };
  if (result.spawnError !== undefined) return { ...base, status: 'failed', output: {}, error: `failed to start: ${result.spawnError}`, failClosed };
  if (result.exitCode === 2) {
    const json = parseJsonStdout(event, result.stdout);
    const context = json.ok ? pickAdditionalContext(json.output) : undefined;
    return {
      ...base,
      status: 'blocked',
      output: context === undefined ? {} : { hookSpecificOutput: { hookEventName: event, additionalContext: context } },
      blockMessage: `${bracketLabel(origin)}: ${result.stderr}`,
      failClosed: false,
    };
  }
  if (result.exitCode !== 0) {
    const how = result.exitCode === null ? `killed by ${result.signal ?? 'a signal'}` : `exit code ${result.exitCode}`;
    const error = `${how}${result.stderr ? `: ${result.stderr.trim()}` : ''}`;
    const json = result.exitCode === null ? ({ ok: false } as const) : parseJsonStdout(event, result.stdout);
    if (json.ok) return { ...base, status: 'failed', output: json.output, error, failClosed, ...(json.warning ? { warning: json.warning } : {}) };
    return { ...base, status: 'failed', output: {}, error, failClosed };
  }
  const json = parseJsonStdout(event, result.stdout);
  if (json.ok) return { ...base, status: 'ok', output: json.output, failClosed: false, ...(json.warning ? { warning: json.warning } : {}) };
  if (json.error !== undefined) return { ...base, status: 'failed', output: {}, error: json.error, failClosed: false };
  const text = result.stdout.trim();
  return { ...base, status: 'ok', output: {}, ...(text ? { plainText: text } : {}), failClosed: false };
}

type JsonStdout = { ok: true; output: Record<string, unknown>; warning?: string } | { ok: false; error?: string };

function parseJsonStdout(event: HookEventName, stdout: string): JsonStdout {
  if (!stdout.trimStart().startsWith('{')) return { ok: false };
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch (error) {
    return { ok: false, error: `invalid JSON on stdout: ${(error as Error).message}` };
  }
  const read = readExternalOutput(event, value);
  if (!read.ok) return { ok: false, error: read.error };
  return { ok: true, output: read.output as Record<string, unknown>, ...(read.warning ? { warning: read.warning } : {}) };
}

function pickAdditionalContext(output: Record<string, unknown>): string | undefined {
  const specific = output['hookSpecificOutput'] as { additionalContext?: unknown } | undefined;
  return typeof specific?.additionalContext === 'string' ? specific.additionalContext : undefined;
}
