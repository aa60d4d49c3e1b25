import { mergeBlocking } from '../hooks/merge.js';
import { systemMessage, toolResultMessage, type AssistantMessage } from '../messages/messages.js';
import { contextLabel, HOOK_STOPPED_CONTINUATION, INTERRUPTED_RESULT } from './hook-text.js';
import { appendMessage, fireHook, type RunContext } from './run-context.js';
import { runToolCall, type CallOutcome } from './tool-call.js';

/** How a batch ended: `continue` to the next model turn, or a terminal reason. */
export type BatchEnd =
  | { readonly kind: 'continue' }
  | { readonly kind: 'hook_stopped' | 'aborted_tools' | 'aborted' }
  | { readonly kind: 'tool_deferred'; readonly deferred: { readonly id: string; readonly name: string; readonly input: unknown } };

/**
 * Runs the tool calls of one assistant message in order and appends exactly one paired result per
 * call (DESIGN invariant 1), then one system message with the hooks' context (Pre, Post, Batch
 * order), then fires PostToolBatch. When a hook ends the run, or the run is aborted, every call
 * not yet run is paired with a stable error result.
 */
export async function runToolBatch(run: RunContext, assistant: AssistantMessage): Promise<BatchEnd> {
  const outcomes: CallOutcome[] = [];
  let end: BatchEnd = { kind: 'continue' };
  for (const call of assistant.toolCalls) {
    if (end.kind !== 'continue' || run.signal.aborted) {
      const content = run.signal.aborted && end.kind === 'continue' ? INTERRUPTED_RESULT : HOOK_STOPPED_CONTINUATION;
      appendMessage(run, toolResultMessage(call.id, call.name, content, true));
      continue;
    }
    const outcome = await runToolCall(run, call);
    outcomes.push(outcome);
    appendMessage(run, outcome.result);
    if (outcome.deferred) end = { kind: 'tool_deferred', deferred: outcome.deferred };
    else if (outcome.stop) end = { kind: outcome.stop };
  }
  if (run.signal.aborted && end.kind === 'continue') end = { kind: 'aborted' };

  const contexts = outcomes.flatMap((outcome) => outcome.contexts);
  if (end.kind === 'continue') {
    const batch = mergeBlocking(await fireHook(run, 'PostToolBatch', { tool_calls: outcomes.map((outcome) => outcome.batchEntry) }), 'PostToolBatch');
    contexts.push(...batch.contexts.map((text) => contextLabel('PostToolBatch', undefined, text)));
    if (batch.blocks.length > 0 || batch.stop) end = { kind: 'hook_stopped' };
  }
  if (contexts.length > 0) appendMessage(run, systemMessage(contexts.join('\n\n')));
  return end;
}
