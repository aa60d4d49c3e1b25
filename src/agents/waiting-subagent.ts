import { runLoop } from '../loop/agent-loop.js';
import { decidePending, endOfDecidedBatch } from '../loop/deferred-approval.js';
import type { RunContext } from '../loop/run-context.js';
import { reportSubagentEnd, reportSubagentStart } from './subagent-events.js';
import type { PendingCall, PendingDecisions } from '../session/pending-calls.js';
import { loadWaitingSubagent, pairAbandonedSubagentCalls } from '../transcript/subagent-transcripts.js';
import { ToolFailure, type ToolContext } from '../tools/define-tool.js';
import type { AgentDefinition } from './agent-definition.js';
import type { AgentInput, AgentOutput } from './agent-tool.js';
import { openSubagent, subagentOutcome, type SubagentSetup } from './run-subagent.js';

/**
 * Continues an Agent call whose subagent stopped with calls waiting (`calls`, the parent's pending
 * entries naming this Agent call; all of one subagent): the subagent's conversation is read back
 * from its transcript (which must list exactly these calls, transcript/subagent-transcripts.ts), its
 * calls are decided as the main session's are (decidePending: an approval runs PreToolUse and the
 * policy again, a deny rule still wins, a denial is the call's error result, a call without a
 * decision may wait again), and its loop goes on to its end: SubagentStop, then its answer is the
 * Agent call's output (subagentOutcome; it may wait again). SubagentStart does not fire again: the
 * subagent started once and continues. Its `agent_id` and transcript stay the same; its usage and
 * duration count what ran in this process. `definition` is the session's agent of `agentType`
 * (undefined: gone; the Agent call fails and the subagent's calls are paired with why).
 * Rejects as runAgentSubagent does; with a ToolFailure when its transcript no longer agrees.
 */
export async function continueAgentSubagent(
  parent: RunContext,
  setup: SubagentSetup,
  input: AgentInput,
  definition: AgentDefinition | undefined,
  calls: readonly PendingCall[],
  decisions: PendingDecisions,
  context: ToolContext,
): Promise<AgentOutput> {
  const agentId = calls[0]?.agentId;
  if (agentId === undefined || calls.some((call) => call.agentId !== agentId))
    throw new ToolFailure('Error: the waiting calls of this Agent call name no single subagent');
  if (definition === undefined) {
    // The session no longer has the agent: the subagent cannot go on; its calls are paired with why, in its transcript, as the Agent call is.
    const why = `Agent type '${calls[0]?.agentType ?? '?'}' not found: the waiting subagent cannot continue`;
    pairAbandonedSubagentCalls(
      parent.state,
      calls,
      why,
      (text) => parent.emit({ type: 'warning', text }),
      parent.transcriptMirror,
    );
    throw new ToolFailure(why);
  }
  let resumed;
  try {
    resumed = loadWaitingSubagent(parent.state.transcriptPath, calls);
  } catch (error) {
    throw new ToolFailure(`Error: the subagent ${agentId} cannot be resumed: ${(error as Error).message}`);
  }
  const sub = openSubagent(parent, setup, input, definition, agentId, context.signal, resumed);
  // Its lane and span in this process: the continued part, under the Agent call, as a live subagent's.
  reportSubagentStart(parent, sub.run.state.agent!, input.prompt, { toolUseId: context.toolUseId });
  const own = resumed.pending.map(({ assistantUuid: _uuid, ...call }) => call);
  const batch = await decidePending(sub.run, own, decisions);
  const end = batch.kind === 'continue' ? await runLoop(sub.run, sub.loop) : endOfDecidedBatch(batch);
  reportSubagentEnd(parent, sub.run.state.agent!, end);
  return subagentOutcome(sub, end);
}
