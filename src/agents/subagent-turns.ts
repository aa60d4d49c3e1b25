import { systemMessage, userMessage } from '../messages/messages.js';
import { runLoop } from '../loop/agent-loop.js';
import { contextLabel } from '../loop/hook-text.js';
import type { LoopEnd, LoopOptions } from '../loop/loop-types.js';
import { appendMessage, fireHook, type RunContext } from '../loop/run-context.js';
import { reportSubagentEnd, reportSubagentStart } from './subagent-events.js';

/**
 * A new subagent's run, as the Agent tool's and an agent hook's open and close it alike: the
 * parent's observers hear it start (before SubagentStart, so its hooks, turns and calls belong to
 * it: its lane, its invoke_agent span); SubagentStart fires with its `agent_type` as the matcher
 * value, and its `additionalContext` follows `prompt` as system text; the loop runs its turns; the
 * parent's observers hear how it ended. `run.state.agent` must be set (the subagent's identity);
 * `from` is the parent's Agent call or the agent hook's span. Never throws.
 */
export async function runSubagentTurns(
  parent: RunContext,
  run: RunContext,
  loop: LoopOptions,
  prompt: string,
  from: { readonly toolUseId?: string | undefined; readonly traceparent?: string | undefined },
): Promise<LoopEnd> {
  const agent = run.state.agent!;
  reportSubagentStart(parent, agent, prompt, from);
  const start = await fireHook(run, 'SubagentStart', {});
  appendMessage(run, userMessage(prompt));
  if (start.contexts.length > 0)
    appendMessage(
      run,
      systemMessage(
        start.contexts.map((text) => contextLabel('SubagentStart', undefined, text)).join('\n\n'),
      ),
    );
  const end = await runLoop(run, loop);
  reportSubagentEnd(parent, agent, end);
  return end;
}
