import { mergeBlocking } from '../hooks/merge.js';
import { systemMessage, toolResultMessage, userMessage, type AssistantMessage } from '../messages/messages.js';
import { contextLabel, duplicateToolUseIdResult, HOOK_STOPPED_CONTINUATION, INTERRUPTED_RESULT, SUBAGENT_ANSWERED } from './hook-text.js';
import { appendMessage, fireHook, type RunContext } from './run-context.js';
import { runToolCall, type CallOutcome } from './tool-call.js';

/** How a batch ended: `continue` to the next model turn, or a terminal reason. */
export type BatchEnd =
  | { readonly kind: 'continue' }
  | { readonly kind: 'hook_stopped' | 'aborted_tools' | 'aborted' }
  | { readonly kind: 'tool_deferred'; readonly deferred: { readonly id: string; readonly name: string; readonly input: unknown } };

/**
 * Runs the tool calls of one assistant message in order and appends exactly one paired result per
 * call (DESIGN invariant 1), then the user notes of PermissionDenied hooks (`retry`), then one
 * system message with the hooks' context (Pre, Post, Batch order), then fires PostToolBatch. A hook's
 * `continue: false` ends the run after the batch (the other calls still run, no PostToolBatch); when
 * the run is aborted or interrupted, every call not yet run is paired with a stable error result.
 *
 * A deferred call ends the run, but the calls after it still get their PreToolUse hooks (none of
 * them runs): the run reports the last call a hook deferred, as the reference does
 * (pre-json-defer-batch). `finished` (an agent hook's subagent: it gave its verdict) ends the batch
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
  let end: BatchEnd = { kind: 'continue' };
  // A hook's continue:false lets the rest of the batch run, as Claude Code does; the run ends after it, without PostToolBatch.
  let stopped = false;
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
    appendMessage(run, outcome.result);
    if (outcome.deferred) end = { kind: 'tool_deferred', deferred: outcome.deferred };
    else if (outcome.stop === 'hook_stopped') stopped = true;
    else if (outcome.stop) end = { kind: outcome.stop };
    answered = finished();
  }
  if (run.signal.aborted && end.kind === 'continue') end = { kind: 'aborted' };
  if (stopped && end.kind === 'continue') end = { kind: 'hook_stopped' };

  const notes = outcomes.flatMap((outcome) => outcome.notes ?? []);
  if (notes.length > 0) appendMessage(run, userMessage(notes.join('\n\n')));
  const contexts = outcomes.flatMap((outcome) => outcome.contexts);
  if (end.kind === 'continue' && !answered) {
    const batch = mergeBlocking(await fireHook(run, 'PostToolBatch', { tool_calls: outcomes.map((outcome) => outcome.batchEntry) }), 'PostToolBatch');
    contexts.push(...batch.contexts.map((text) => contextLabel('PostToolBatch', undefined, text)));
    if (batch.blocks.length > 0 || batch.stop) end = { kind: 'hook_stopped' };
  }
  if (contexts.length > 0) appendMessage(run, systemMessage(contexts.join('\n\n')));
  return end;
}
