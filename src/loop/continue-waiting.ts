import { toolResultMessage, type ToolCall } from '../messages/messages.js';
import { ConfigError } from '../errors.js';
import { waitingCallId, type PendingCall, type PendingDecisions } from '../session/pending-calls.js';
import { finishCall } from './agent-loop.js';
import { callContext, runHandler } from './call-execution.js';
import type { CallOutcome } from './loop-types.js';
import type { RunContext } from './run-context.js';

/**
 * Continues, on resume, a call of the run's conversation whose handler stopped with calls of its
 * own waiting (an Agent call whose subagent's calls wait: `calls`, each naming `call` as
 * `parentToolUseId`). The call is not run again and its PreToolUse and permission are not asked
 * again: it was allowed and started before it waited, and nothing about its input changed (the
 * model's call is the same line of the same conversation). Its own calls are the ones decided:
 * `Tool.continueWaiting` hands them `decisions` (only theirs), and they go through PreToolUse and
 * the policy again inside (agents/waiting-subagent.ts). Then the call ends as a live one does:
 * PostToolUse (or PostToolUseFailure) and its one paired result, or it waits again.
 * Never throws: a call that cannot be continued (its tool is gone, or no longer continues calls)
 * fails with an error result.
 */
export async function continueWaitingCall(
  run: RunContext,
  call: ToolCall,
  calls: readonly PendingCall[],
  decisions: PendingDecisions,
): Promise<CallOutcome> {
  const tool = run.tools.get(call.name);
  const checked = tool !== undefined ? run.tools.check(tool, call.input, run.state) : undefined;
  const own = new Set(calls.map((inner) => inner.id));
  const theirs = Object.fromEntries(Object.entries(decisions).filter(([id]) => own.has(id)));
  if (tool === undefined || checked === undefined || !checked.ok || tool.continueWaiting === undefined) {
    // resumeAgent and AgentSession.resume refuse such a session before anything runs (checkContinuable); this is the last guard.
    const result = toolResultMessage(
      call.id,
      call.name,
      `Error: the call was waiting and cannot be continued: ${tool === undefined ? `no tool ${call.name} in this session` : 'its tool cannot continue it'}`,
      true,
    );
    run.emit({ type: 'tool_result', toolName: call.name, toolUseId: call.id, result, ran: false });
    return {
      result,
      contexts: [],
      batchEntry: () => ({
        tool_name: call.name,
        tool_input: call.input,
        tool_use_id: call.id,
        tool_response: result.content,
      }),
    };
  }
  const { input } = checked;
  const continueWaiting = tool.continueWaiting.bind(tool);
  // Observers see the call start again, as a decided top-level call does (runToolCall), then run on.
  run.emit({ type: 'tool_started', toolName: tool.name, toolUseId: call.id, input });
  run.emit({ type: 'tool_executing', toolName: tool.name, toolUseId: call.id });
  const context = callContext(run, call, tool, input, []);
  const ran = await runHandler(run, call, tool, input, context, false, () =>
    continueWaiting(input, calls, theirs, context),
  );
  return finishCall(run, call, tool, input, ran, []);
}

/**
 * Checks, before anything runs, that each call waiting on calls of its own can be continued here:
 * its tool is in the session and continues calls (an Agent call needs the session's agents).
 * @throws ConfigError naming the first call that cannot.
 */
export function checkContinuable(run: RunContext, pending: readonly PendingCall[]): void {
  for (const call of pending) {
    if (call.parentToolUseId === undefined) continue;
    const parent = run.messages.findLast(
      (message) =>
        message.role === 'assistant' &&
        message.toolCalls.some((candidate) => candidate.id === waitingCallId(call)),
    );
    const name =
      parent?.role === 'assistant'
        ? parent.toolCalls.find((candidate) => candidate.id === call.parentToolUseId)?.name
        : undefined;
    if (name === undefined || run.tools.get(name)?.continueWaiting === undefined) {
      throw new ConfigError(
        `cannot continue ${call.parentToolUseId}: its ${name ?? 'call'} waits for ${call.id} inside agent ${call.agentId ?? '?'}, and this session has no ${name ?? 'such'} tool that continues it (pass the same agents)`,
        { field: call.id },
      );
    }
  }
}
