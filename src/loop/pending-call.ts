import { isDeepStrictEqual } from 'node:util';
import type { PreToolUseMerge } from '../hooks/merge/decisions.js';
import type { ToolCall } from '../messages/messages.js';
import { normalizeJson, type CallsWaiting, type PendingCall } from '../session/pending-calls.js';
import type { AnyTool } from '../tools/define-tool.js';
import { batchEntry } from './call-execution.js';
import type { BatchEnd, CallOutcome } from './loop-types.js';
import type { RunContext } from './run-context.js';

/*
 * The loop's side of approval that survives a restart (the resume side is
 * deferred-approval.ts): a call that waits for a decision (a PreToolUse `defer`, a PermissionRequest
 * `defer`, the approver's `later`, or any call after one of them in the same message) gets no
 * result; the batch ends `tool_deferred` with every waiting call in `pending`, and the transcript
 * saves them (a `calls_pending` event) for `--resume ID --approve … --deny …`.
 */

/**
 * The waiting call after PreToolUse: its input is the one an approval will cover — the model's,
 * or the hooks' `updatedInput` validated with the tool's schema and normalized as the permission
 * check would see it. `error` when the rewrite is not a valid input (the call is refused instead).
 */
export function waitingAfterPreToolUse(
  run: RunContext,
  call: ToolCall,
  tool: AnyTool,
  input: Readonly<Record<string, unknown>>,
  pre: PreToolUseMerge,
): { ok: true; pending: PendingCall } | { ok: false; error: string } {
  const normalized =
    pre.updatedInput === undefined
      ? ({ ok: true, input } as const)
      : run.tools.check(tool, pre.updatedInput, run.state);
  if (!normalized.ok) return { ok: false, error: `updatedInput rejected: ${normalized.error}` };
  const deferred = pre.decision === 'defer';
  return {
    ok: true,
    pending: {
      id: call.id,
      name: tool.name,
      input: normalized.input,
      reason: deferred ? 'defer' : 'batch',
      ...(deferred && pre.reason !== undefined ? { message: pre.reason } : {}),
    },
  };
}

/**
 * A call's outcome while it waits: no result (none is owed yet: the call is pending, saved in the
 * transcript); `deferred` when a PreToolUse hook deferred it (the run reports it as Claude Code
 * does). PostToolBatch never sees it: a batch with a waiting call ends the run.
 */
export function waitingOutcome(
  run: RunContext,
  call: ToolCall,
  pending: PendingCall,
  contexts: readonly string[],
): CallOutcome {
  return {
    contexts,
    pending: [pending],
    ...(pending.reason === 'defer'
      ? { deferred: { id: call.id, name: pending.name, input: call.input } }
      : {}),
    batchEntry: batchEntry(run, call, ''),
  };
}

/**
 * The outcome of a call whose handler is waiting (an Agent call whose subagent stopped with calls
 * pending, agents/waiting-subagent.ts): no result and no PostToolUse yet (the call has not
 * finished); its subagent's calls are pending, each naming this call as `parentToolUseId`.
 */
export function waitingInsideOutcome(
  run: RunContext,
  call: ToolCall,
  waiting: CallsWaiting,
  contexts: readonly string[],
): CallOutcome {
  return {
    contexts,
    pending: waiting.calls.map((inner) => ({ ...inner, parentToolUseId: call.id })),
    ...(waiting.deferred !== undefined ? { deferred: waiting.deferred } : {}),
    batchEntry: batchEntry(run, call, ''),
  };
}

/**
 * The batch's end once `outcome` (a waiting call) is in `pending`: `tool_deferred`, reporting the
 * last call a hook deferred, as the reference does (pre-json-defer-batch), or the first waiting
 * call when no hook deferred one. A waiting call wins over a later stop: the calls stay decidable.
 */
export function waitingEnd(
  end: BatchEnd,
  outcome: CallOutcome & { pending: readonly PendingCall[] },
  pending: readonly PendingCall[],
): BatchEnd {
  const { id, name, input } = outcome.pending[0]!;
  const reported = outcome.deferred ?? (end.kind === 'tool_deferred' ? end.deferred : { id, name, input });
  return { kind: 'tool_deferred', deferred: reported, pending };
}

/** True when an approval of `approved` (the pending input) covers `input`, the input about to run. */
export function approvalCovers(approved: unknown, input: unknown): boolean {
  return isDeepStrictEqual(normalizeJson(input), normalizeJson(approved));
}
