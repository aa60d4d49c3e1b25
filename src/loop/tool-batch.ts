import { mergeBlocking } from '../hooks/merge.js';
import { systemMessage, toolResultMessage, userMessage, type AssistantMessage } from '../messages/messages.js';
import { contextLabel, duplicateToolUseIdResult, HOOK_STOPPED_CONTINUATION, INTERRUPTED_RESULT, SUBAGENT_ANSWERED } from './hook-text.js';
import { appendMessage, fireHook, type RunContext } from './run-context.js';
import type { PendingCall } from '../session/pending-calls.js';
import { runToolCall, type CallOutcome } from './tool-call.js';

/** How a batch ended: `continue` to the next model turn, or a terminal reason. */
export type BatchEnd =
  | { readonly kind: 'continue' }
  | { readonly kind: 'hook_stopped' | 'aborted_tools' | 'aborted' }
  | { readonly kind: 'tool_deferred'; readonly deferred: { readonly id: string; readonly name: string; readonly input: unknown }; readonly pending: readonly PendingCall[] };

/**
 * Runs the tool calls of one assistant message in order and appends exactly one paired result per
 * call (DESIGN invariant 1), then the user notes of PermissionDenied hooks (`retry`), then one
 * system message with the hooks' context (Pre, Post, Batch order), then fires PostToolBatch. When a
 * hook ends the run, or the run is aborted, every call not yet run is paired with a stable error result.
 *
 * A call that waits for a decision (a PreToolUse `defer`, a PermissionRequest `defer`, the
 * approver's `later`) ends the run without a result: the calls after it still get their PreToolUse
 * hooks and wait too (none of them runs); the run reports the last call a hook deferred, as the
 * reference does (pre-json-defer-batch), and every waiting call in `pending`, which a
 * `calls_pending` event hands to the transcript (see deferred-approval.ts). `finished` (an agent hook's subagent: it gave its verdict) ends the batch
 * after the current call, without PostToolBatch.
 *
 * A call in `repeated` (renamed by distinctCallIds: its id repeated an earlier call's) never runs
 * and fires no hooks: it is paired with an error result saying the id was a duplicate.
 */
export async function runToolBatch(
  run: RunContext,
  assistant: AssistantMessage,
  finished: () => boolean = () => false,
  repeated: ReadonlyMap<string, string> = new Map(),
): Promise<BatchEnd> {
  const outcomes: CallOutcome[] = [];
  const pending: PendingCall[] = [];
  let reported: { readonly id: string; readonly name: string; readonly input: unknown } | undefined;
  let end: BatchEnd = { kind: 'continue' };
  let answered = false;
  for (const call of assistant.toolCalls) {
    if ((end.kind !== 'continue' && end.kind !== 'tool_deferred') || answered || run.signal.aborted) {
      const content = answered ? SUBAGENT_ANSWERED : run.signal.aborted && end.kind === 'continue' ? INTERRUPTED_RESULT : HOOK_STOPPED_CONTINUATION;
      appendMessage(run, toolResultMessage(call.id, call.name, content, true));
      continue;
    }
    const repeatedId = repeated.get(call.id);
    if (repeatedId !== undefined) {
      appendMessage(run, toolResultMessage(call.id, call.name, duplicateToolUseIdResult(repeatedId), true));
      continue;
    }
    const outcome = await runToolCall(run, call, { deferring: end.kind === 'tool_deferred' });
    outcomes.push(outcome);
    if (outcome.result) appendMessage(run, outcome.result);
    if (outcome.pending) {
      pending.push(outcome.pending);
      // The reference reports the last call a hook deferred; the first waiting call when none was deferred.
      reported = outcome.deferred ?? reported ?? { id: call.id, name: outcome.pending.name, input: call.input };
      end = { kind: 'tool_deferred', deferred: reported, pending };
    } else if (outcome.stop) end = { kind: outcome.stop };
    answered = finished();
  }
  if (run.signal.aborted && end.kind === 'continue') end = { kind: 'aborted' };

  const notes = outcomes.flatMap((outcome) => outcome.notes ?? []);
  if (notes.length > 0) appendMessage(run, userMessage(notes.join('\n\n')));
  const contexts = outcomes.flatMap((outcome) => outcome.contexts);
  if (end.kind === 'continue' && !answered) {
    const batch = mergeBlocking(await fireHook(run, 'PostToolBatch', { tool_calls: outcomes.map((outcome) => outcome.batchEntry) }), 'PostToolBatch');
    contexts.push(...batch.contexts.map((text) => contextLabel('PostToolBatch', undefined, text)));
    if (batch.blocks.length > 0 || batch.stop) end = { kind: 'hook_stopped' };
  }
  if (contexts.length > 0) appendMessage(run, systemMessage(contexts.join('\n\n')));
  if (pending.length > 0) run.emit({ type: 'calls_pending', calls: pending });
  return end;
}
