import type { RunContext } from '../loop/run-context.js';
import type { ToolContext } from '../tools/define-tool.js';
import type { AgentDefinition } from './agent-definition.js';
import type { AgentInput, AgentLaunch, AgentOutput } from './agent-tool.js';
import { newAgentId, runAgentSubagent, type SubagentSetup } from './run-subagent.js';

/**
 * An Agent call with `run_in_background: true`: the subagent starts (the same subagent as in the
 * foreground: every hook and the whole policy apply inside it) and the call returns at once with
 * its id. When it finishes, its answer reaches the model before the next request as a
 * `<task-notification>` (the shape Claude Code 2.1.328 sends, measured), and a model that had
 * already stopped is woken for it. It ends with the session, or when the run is aborted.
 */
export function startBackgroundSubagent(
  parent: RunContext,
  setup: SubagentSetup,
  input: AgentInput,
  definition: AgentDefinition,
  context: ToolContext,
): AgentLaunch {
  const agentId = newAgentId();
  const description = input.description;
  parent.background.track(async (signal) => {
    const notice = (status: 'completed' | 'failed', summary: string, result: string) =>
      [
        '<task-notification>',
        `<task-id>${agentId}</task-id>`,
        ...(context.toolUseId !== undefined ? [`<tool-use-id>${context.toolUseId}</tool-use-id>`] : []),
        `<status>${status}</status>`,
        `<summary>${summary}</summary>`,
        `<result>${result}</result>`,
        '</task-notification>',
      ].join('\n');
    try {
      const output: AgentOutput = await runAgentSubagent(
        parent,
        setup,
        input,
        definition,
        { ...context, signal: AbortSignal.any([context.signal, signal]) },
        agentId,
      );
      return notice(
        'completed',
        `Agent "${description}" finished`,
        output.content.map((block) => block.text).join('\n'),
      );
    } catch (error) {
      if (signal.aborted) return undefined; // the session ended: nobody is left to tell
      return notice(
        'failed',
        `Agent "${description}" failed`,
        error instanceof Error ? error.message : String(error),
      );
    }
  });
  const text = [
    'Async agent launched successfully.',
    `agentId: ${agentId}`,
    'The agent is working in the background. You will be notified automatically when it completes. Until then you know nothing about its results: do not report, assume or predict them; continue other work or answer the user meanwhile.',
    "Do not duplicate this agent's work: avoid the files and topics it is working on.",
  ].join('\n');
  return {
    isAsync: true,
    status: 'async_launched',
    agentId,
    description,
    prompt: input.prompt,
    content: [{ type: 'text', text }],
  };
}
