import type { HandlerOutcome } from '../../hooks/handler.js';
import { BLOCKED_BY_HOOK } from '../../hooks/merge/rule.js';
import type { ToolCall } from '../../messages/messages.js';
import type { PermissionMode, PermissionVerdict, PolicyCause } from '../../permissions/types.js';
import type { DecidingHook, HookTaintedFiles, PermissionDecisionRecord } from './record.js';
import { fireHook, type RunContext } from '../run-context.js';

export type { DecidingHook, HookTaintedFiles, PermissionDecisionRecord } from './record.js';

/** The handler whose answer is the event's merged decision `decision` (the first in merge order), if a handler made it. */
export function decidingHook(
  event: 'PreToolUse' | 'PermissionRequest',
  outcomes: readonly HandlerOutcome[],
  decision: string | undefined,
): DecidingHook | undefined {
  if (decision === undefined) return undefined;
  const found = outcomes.find((outcome) => ownDecision(event, outcome) === decision);
  if (found === undefined) return undefined;
  const { origin } = found;
  return {
    event,
    type: origin.transport,
    name: origin.text,
    source: origin.source,
    ...(origin.location !== undefined ? { location: origin.location } : {}),
  };
}

/**
 * The PreToolUse handler whose `updatedInput` is the merged rewrite `input` (the one that applied,
 * see mergePreToolUseAnswers), for the timeline and the log; undefined when none can be named.
 */
export function rewritingHook(outcomes: readonly HandlerOutcome[], input: unknown): DecidingHook | undefined {
  const wanted = JSON.stringify(input);
  const found = [...outcomes].reverse().find((outcome) => {
    const rewrite = (outcome.output as { hookSpecificOutput?: { updatedInput?: unknown } }).hookSpecificOutput
      ?.updatedInput;
    return rewrite !== undefined && (rewrite === input || JSON.stringify(rewrite) === wanted);
  });
  if (found === undefined) return undefined;
  const { origin } = found;
  return {
    event: 'PreToolUse',
    type: origin.transport,
    name: origin.text,
    source: origin.source,
    ...(origin.location !== undefined ? { location: origin.location } : {}),
  };
}

/** One handler's own answer, read from its (already validated) output the way merge.ts weighs it. */
function ownDecision(event: 'PreToolUse' | 'PermissionRequest', outcome: HandlerOutcome): string | undefined {
  if (outcome.status === 'blocked' || outcome.failClosed) return 'deny';
  const output = outcome.output as {
    decision?: string;
    hookSpecificOutput?: { permissionDecision?: string; decision?: { behavior?: string } };
  };
  if (event === 'PermissionRequest') return output.hookSpecificOutput?.decision?.behavior;
  if (output.hookSpecificOutput?.permissionDecision !== undefined)
    return output.hookSpecificOutput.permissionDecision;
  return output.decision === 'block' ? 'deny' : output.decision === 'approve' ? 'allow' : undefined;
}

/** The record for a call the policy settled by itself (`hook` names the PreToolUse hook when its recommendation decided). */
export function policyDecision(
  verdict: PermissionVerdict,
  mode: PermissionMode,
  decision: 'allow' | 'deny',
  hook?: DecidingHook,
): PermissionDecisionRecord {
  const reason = verdict.behavior === 'allow' ? undefined : verdict.message;
  return {
    decision,
    mode,
    policySource: verdict.source,
    ...causeFields(verdict.cause, hook),
    ...(reason !== undefined ? { reason } : {}),
    ...taintedFilesOf(verdict),
  };
}

function taintedFilesOf(verdict: PermissionVerdict): Pick<PermissionDecisionRecord, 'taintedFiles'> {
  return verdict.behavior === 'ask' && verdict.taint ? { taintedFiles: verdict.taint.files } : {};
}

/**
 * The command hooks among `outcomes` whose command (with `$CLAUDE_PROJECT_DIR` put in, run from
 * the project directory as hooks are) runs a file this session wrote, by the table Bash calls
 * are judged with. For the record only: a hook is the user's own code and is never blocked for
 * what it runs. Never throws.
 */
export async function taintedHookFiles(
  run: RunContext,
  outcomes: readonly HandlerOutcome[],
): Promise<HookTaintedFiles[]> {
  const found: HookTaintedFiles[] = [];
  const projectDir = run.state.projectDir;
  for (const outcome of outcomes) {
    if (outcome.origin.transport !== 'command') continue;
    const command = outcome.origin.text.replace(/\$\{?CLAUDE_PROJECT_DIR\}?/g, projectDir);
    const files = await run.policy.taintedFilesRunBy(command, projectDir);
    if (files.length > 0) found.push({ hook: outcome.origin.text, files });
  }
  return found;
}

function causeFields(
  cause: PolicyCause | undefined,
  hook: DecidingHook | undefined,
): Pick<PermissionDecisionRecord, 'decidedBy' | 'rule' | 'boundary' | 'hook'> {
  switch (cause?.kind) {
    case 'rule':
      return {
        decidedBy: 'rule',
        rule: {
          list: cause.list,
          text: cause.rule,
          ...(cause.file !== undefined ? { file: cause.file } : {}),
        },
      };
    case 'boundary':
      return { decidedBy: 'boundary', boundary: cause.boundary };
    case 'hook':
      return { decidedBy: 'hook', ...(hook ? { hook } : {}) };
    case 'read_only':
    case 'sandbox':
      return { decidedBy: cause.kind };
    case 'mode':
    case undefined:
      return { decidedBy: 'mode' };
  }
}

/** A person (or the configured approver) answered an ask; the policy's cause says what made it ask. */
export function approverDecision(
  verdict: PermissionVerdict,
  mode: PermissionMode,
  decision: 'allow' | 'deny',
): PermissionDecisionRecord {
  const { decidedBy: _asked, ...asked } = causeFields(verdict.cause, undefined);
  return {
    decision,
    decidedBy: 'approver',
    mode,
    policySource: verdict.source,
    ...asked,
    ...(decision === 'deny' && verdict.behavior !== 'allow' ? { reason: verdict.message } : {}),
    ...taintedFilesOf(verdict),
  };
}

/**
 * Tells observers how a call was settled (`permission_decision`) and fires the PermissionDecision
 * hooks (a hookloop extension event, observer-only: nothing they answer changes the call). The loop
 * calls it once per call, where the call is settled: a PreToolUse deny, a rejected rewrite, or the
 * permission steps (policyVerdict → askPermissionHooks → askApprover, each of which records who
 * decided). `input` is the input the decision was about; `durationMs` the time the decision took,
 * PreToolUse excluded (0 when PreToolUse decided). Never throws.
 */
export async function reportDecision(
  run: RunContext,
  call: ToolCall,
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  record: PermissionDecisionRecord,
  durationMs = 0,
): Promise<void> {
  if (run.observed !== false)
    run.emit({ type: 'permission_decision', toolName, toolUseId: call.id, record, durationMs });
  // Checked here as well as in fireHook: the payload's decision fields are built only for a listener.
  if (!run.hooks.has('PermissionDecision')) return;
  await fireHook(run, 'PermissionDecision', {
    tool_name: toolName,
    tool_input: input as Record<string, unknown>,
    tool_use_id: call.id,
    ...decisionPayload(record),
  });
}

/** The record of a call PreToolUse hooks refused: `hook` names the first deny in merge order (exit 2, deny, block, fail-closed). */
export function preToolUseDenial(
  run: RunContext,
  pre: { readonly outcomes: readonly HandlerOutcome[]; readonly reason?: string },
): PermissionDecisionRecord {
  const by = decidingHook('PreToolUse', pre.outcomes, 'deny');
  return {
    decision: 'deny',
    decidedBy: 'hook',
    mode: run.policy.mode,
    reason: pre.reason ?? BLOCKED_BY_HOOK,
    ...(by ? { hook: by } : {}),
  };
}

/** The record of a call whose PreToolUse `updatedInput` failed the tool's schema: refused by validation. */
export function rewriteRejected(run: RunContext, error: string): PermissionDecisionRecord {
  return { decision: 'deny', decidedBy: 'validation', mode: run.policy.mode, reason: error };
}

/** The wire fields of PermissionDecision (snake_case, as Claude Code's payloads), also the `permission_decision` stream-json line's. */
export function decisionPayload(record: PermissionDecisionRecord) {
  return {
    decision: record.decision,
    decided_by: record.decidedBy,
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
    ...(record.rule
      ? {
          rule: {
            list: record.rule.list,
            text: record.rule.text,
            ...(record.rule.file !== undefined ? { file: record.rule.file } : {}),
          },
        }
      : {}),
    ...(record.boundary ? { boundary: record.boundary } : {}),
    ...(record.hook
      ? {
          hook: {
            event: record.hook.event,
            type: record.hook.type,
            name: record.hook.name,
            source: record.hook.source,
            ...(record.hook.location !== undefined ? { location: record.hook.location } : {}),
          },
        }
      : {}),
    ...(record.policySource !== undefined ? { policy_source: record.policySource } : {}),
    ...(record.taintedFiles ? { tainted_files: [...record.taintedFiles] } : {}),
    ...(record.hookTaintedFiles
      ? {
          hook_tainted_files: record.hookTaintedFiles.map(({ hook, files }) => ({ hook, files: [...files] })),
        }
      : {}),
  };
}
