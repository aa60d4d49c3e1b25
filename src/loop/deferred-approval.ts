import {
  systemMessage,
  toolResultMessage,
  userMessage,
  type AssistantMessage,
  type ToolResultMessage,
} from '../messages/messages.js';
import {
  checkDecisions,
  DENIED_WHILE_PENDING,
  UNDECIDED_PENDING,
  waitingCallId,
  type PendingCall,
  type PendingDecisions,
} from '../session/pending-calls.js';
import { runToolCall } from './agent-loop.js';
import { continueWaitingCall } from './continue-waiting.js';
import { contextLabel, INTERRUPTED_RESULT } from './hook-text.js';
import type { BatchEnd, CallOutcome, LoopEnd } from './loop-types.js';
import { waitingEnd } from './pending-call.js';
import { appendMessage, fireHook, type RunContext } from './run-context.js';

/**
 * Approval that survives a restart: the calls a run left waiting (RunResult.pending,
 * saved in the transcript) are decided, in a later process or the same one, and the batch they
 * belong to ends as it would have ended live.
 *
 * - An approved call runs as if a person approved it now (runToolCall's `approval`): PreToolUse
 *   runs again first, as Claude Code does when a deferred session resumes; a deny from it or from a
 *   rule still wins; the approval covers only the frozen pending input.
 * - A denied call does not run; its error result is the decision's message.
 * - A call without a decision goes through the pipeline again and may wait again.
 * - An Agent call whose subagent's calls wait (`parentToolUseId`) is continued, not run again:
 *   its subagent decides its own calls the same way and goes on (continue-waiting.ts).
 * Results go right after their call's message (and its other results), so the conversation is
 * what it would be had the calls been decided live; then PostToolBatch fires for them.
 */

/**
 * Decides `pending` (the calls of the last assistant message in `run.messages` that have no result).
 * @throws ConfigError (before anything runs) for a decision on a call that is not pending, or an
 *   approval of another input (see checkDecisions).
 */
export async function decidePending(
  run: RunContext,
  pending: readonly PendingCall[],
  decisions: PendingDecisions,
): Promise<BatchEnd> {
  checkDecisions(pending, decisions);
  const { assistant, place } = pendingPlace(run, pending);
  const waiting = new Map(
    pending.filter((call) => call.parentToolUseId === undefined).map((call) => [call.id, call]),
  );
  const outcomes: CallOutcome[] = [];
  const still: PendingCall[] = [];
  let end: BatchEnd = { kind: 'continue' };
  let stop: 'hook_stopped' | 'aborted_tools' | undefined;
  const settle = (outcome: CallOutcome) => {
    outcomes.push(outcome);
    if (outcome.result) place(outcome.result);
    if (outcome.pending) {
      still.push(...outcome.pending);
      end = waitingEnd(end, { ...outcome, pending: outcome.pending }, still);
    }
    stop ??= outcome.stop;
  };
  for (const call of assistant.toolCalls) {
    const entry = waiting.get(call.id);
    const inside = pending.filter((inner) => inner.parentToolUseId === call.id);
    if (entry === undefined && inside.length === 0) continue;
    if (entry === undefined) {
      // Its handler was running: it goes on even after a waiting call or an interrupt (its subagent's own loop pairs what it cannot run).
      settle(await continueWaitingCall(run, call, inside, decisions));
      continue;
    }
    const decision = decisions[call.id];
    if (decision?.behavior === 'deny') {
      run.permissionDenials.push({
        tool_name: call.name,
        tool_use_id: call.id,
        tool_input: structuredClone(entry.input),
      });
      const result = toolResultMessage(call.id, call.name, decision.message ?? DENIED_WHILE_PENDING, true);
      run.emit({ type: 'tool_result', toolName: call.name, toolUseId: call.id, result, ran: false });
      place(result);
      continue;
    }
    if (run.signal.aborted) {
      place(toolResultMessage(call.id, call.name, INTERRUPTED_RESULT, true));
      continue;
    }
    // As in a live batch: after a waiting call or an interrupt the rest only get PreToolUse (and wait); a continue:false lets them run.
    settle(
      await runToolCall(
        run,
        call,
        still.length > 0 || stop === 'aborted_tools',
        decision?.behavior === 'allow' ? { input: entry.input } : undefined,
      ),
    );
  }
  const notes = outcomes.flatMap((outcome) => outcome.notes ?? []);
  if (notes.length > 0) appendMessage(run, userMessage(notes.join('\n\n')));
  const contexts = outcomes.flatMap((outcome) => outcome.contexts);
  if (end.kind === 'continue' && stop !== undefined) end = { kind: stop };
  if (end.kind === 'continue' && run.signal.aborted) end = { kind: 'aborted' };
  if (end.kind === 'continue') {
    const batch = await fireHook(run, 'PostToolBatch', {
      tool_calls: outcomes.map((outcome) => outcome.batchEntry()),
    });
    contexts.push(...batch.contexts.map((text) => contextLabel('PostToolBatch', undefined, text)));
    if (batch.blocks.length > 0 || batch.stop) end = { kind: 'hook_stopped' };
  }
  if (contexts.length > 0) appendMessage(run, systemMessage(contexts.join('\n\n')));
  if (still.length > 0) run.emit({ type: 'calls_pending', calls: still });
  return end;
}

/**
 * The session goes on without deciding (a new prompt): each pending call is paired with an error
 * result saying so, so that the conversation the model sees has every call paired. An Agent call
 * whose subagent waits gets that result too; the subagent's own transcript is the session's to
 * pair (`pairAbandonedSubagentCalls`), since the loop writes no files.
 */
export function abandonPending(run: RunContext, pending: readonly PendingCall[]): void {
  if (pending.length === 0) return;
  const { assistant, place } = pendingPlace(run, pending);
  const ids = new Set(pending.map(waitingCallId));
  for (const call of assistant.toolCalls)
    if (ids.has(call.id)) place(toolResultMessage(call.id, call.name, UNDECIDED_PENDING, true));
}

/**
 * How a resume ends when the decided batch did not continue: a hook stop, an abort, or calls still
 * pending (as runLoop reports them).
 */
export function endOfDecidedBatch(batch: Exclude<BatchEnd, { kind: 'continue' }>): LoopEnd {
  if (batch.kind === 'tool_deferred')
    return {
      result: '',
      isError: false,
      terminalReason: 'tool_deferred',
      stopReason: 'tool_deferred',
      deferredToolUse: batch.deferred,
      pending: batch.pending,
    };
  return {
    result: '',
    isError: batch.kind !== 'hook_stopped',
    terminalReason: batch.kind,
    stopReason: 'tool_use',
  };
}

/**
 * The assistant message holding the pending calls, and `place`, which puts a result among that
 * message's results in call order (the results of the calls that did not wait are there already),
 * and tells the transcript.
 */
function pendingPlace(
  run: RunContext,
  pending: readonly PendingCall[],
): { assistant: AssistantMessage; place: (result: ToolResultMessage) => void } {
  const ids = new Set(pending.map(waitingCallId));
  const index = run.messages.findLastIndex(
    (message) => message.role === 'assistant' && message.toolCalls.some((call) => ids.has(call.id)),
  );
  if (index < 0) throw new Error('the pending calls are not in the conversation');
  const assistant = run.messages[index] as AssistantMessage;
  const order = new Map(assistant.toolCalls.map((call, position) => [call.id, position]));
  const place = (result: ToolResultMessage) => {
    const position = order.get(result.toolCallId) ?? Infinity;
    let at = index + 1;
    for (
      let next = run.messages[at];
      next?.role === 'tool' && (order.get(next.toolCallId) ?? -1) < position;
      next = run.messages[at]
    )
      at++;
    run.messages.splice(at, 0, result);
    run.emit({ type: 'message', message: result });
  };
  return { assistant, place };
}
