import { z } from 'zod';
import type { ToolResultBlock } from '../messages/messages.js';
import { defineTool, ToolFailure, type AnyTool, type ToolContext } from '../tools/define-tool.js';
import type { AgentDefinition } from './agent-definition.js';
import type { PendingCall, PendingDecisions } from '../session/pending-calls.js';
import type { ToolStats } from './tool-stats.js';

/** The Agent tool's input, Claude Code's names: `subagent_type` defaults to `general-purpose`. */
export const agentInputSchema = z.strictObject({
  description: z.string(),
  prompt: z.string(),
  subagent_type: z.string().optional(),
  model: z.string().optional(),
  run_in_background: z.boolean().optional(),
});

/** The Agent tool's input. */
export type AgentInput = z.infer<typeof agentInputSchema>;

/**
 * The `tool_response` PostToolUse hooks see for a finished subagent: Claude Code's fields
 * (subagent-start-stop) that hookloop can fill. `content` is what the model gets as the tool result.
 */
export interface AgentOutput {
  readonly status: 'completed';
  readonly prompt: string;
  readonly agentId: string;
  readonly agentType: string;
  readonly toolsUsed: readonly string[];
  readonly content: readonly { readonly type: 'text'; readonly text: string }[];
  readonly resolvedModel: string;
  readonly totalDurationMs: number;
  readonly totalTokens: number;
  readonly totalToolUseCount: number;
  readonly usage: {
    readonly input_tokens: number;
    readonly cache_creation_input_tokens: number;
    readonly cache_read_input_tokens: number;
    readonly output_tokens: number;
  };
  readonly toolStats: ToolStats;
}

/**
 * The `tool_response` of an Agent call with `run_in_background: true` (Claude Code's fields): the
 * subagent was started and the call returned at once; its result reaches the model later, as a
 * `<task-notification>`. `content` is what the model gets now.
 */
export interface AgentLaunch {
  readonly isAsync: true;
  readonly status: 'async_launched';
  readonly agentId: string;
  readonly description: string;
  readonly prompt: string;
  readonly content: readonly { readonly type: 'text'; readonly text: string }[];
}

/**
 * Runs one subagent for an Agent call and resolves with its output (or, for `run_in_background`, its launch), or rejects with a ToolFailure
 * whose message the model sees (an unknown agent type, a subagent that failed or was stopped).
 */
export type SubagentStarter = (
  input: AgentInput,
  definition: AgentDefinition,
  context: ToolContext,
) => Promise<AgentOutput | AgentLaunch>;

/**
 * Continues an Agent call whose subagent stopped with `calls` waiting (see Tool.continueWaiting),
 * with the definition of the type it ran as (undefined: the session no longer has it): resolves
 * with its output once it finishes, or rejects as a SubagentStarter does (CallsWaiting: it waits again).
 */
export type SubagentContinuer = (
  input: AgentInput,
  definition: AgentDefinition | undefined,
  calls: readonly PendingCall[],
  decisions: PendingDecisions,
  context: ToolContext,
) => Promise<AgentOutput>;

/** The built-in types' listing in the tool description, as Claude Code lists them: `- name: description (Tools: …)`. */
function listing(agents: readonly AgentDefinition[]): string {
  return agents
    .map(
      (agent) =>
        `- ${agent.name}: ${agent.description} (Tools: ${agent.tools ? agent.tools.join(', ') : '*'})`,
    )
    .join('\n');
}

/**
 * The Agent tool (`name` "Agent", or "Task", Claude Code's legacy name): starts a subagent of type
 * `subagent_type` with `prompt` as its task and returns its final answer. Consecutive Agent calls
 * of one answer run side by side (`concurrent`). It changes nothing by itself — every call the
 * subagent makes goes through the whole policy — so it is `readOnly` (plan mode lets it start a
 * subagent, which stays in plan mode). With `resume`, a call whose subagent's calls wait for a
 * decision can be continued (`continueWaiting`) with the definition of the type it ran as.
 */
export function agentTool(
  agents: readonly AgentDefinition[],
  start: SubagentStarter,
  name: 'Agent' | 'Task' = 'Agent',
  resume?: SubagentContinuer,
): AnyTool {
  const byName = new Map(agents.map((agent) => [agent.name, agent]));
  return {
    ...defineTool({
      name,
      description: [
        'Launch a new agent to handle a complex, multi-step task on its own. The agent works in its own conversation with its own tools and returns one final report, which only you see.',
        'Available agent types and the tools they have access to:',
        listing(agents),
        'Give a short `description` (3-5 words) and a `prompt` with everything the agent needs to know; it does not see this conversation. Several Agent calls in one message run concurrently.',
      ].join('\n\n'),
      inputSchema: agentInputSchema,
      kind: 'other',
      readOnly: true,
      concurrent: true,
      validateInput: async (input) => {
        const type = input.subagent_type ?? 'general-purpose';
        return byName.has(type)
          ? undefined
          : `Agent type '${type}' not found. Available agents: ${[...byName.keys()].join(', ')}`;
      },
      handler: (input, context) => {
        const definition = byName.get(input.subagent_type ?? 'general-purpose');
        if (definition === undefined) throw new ToolFailure(`Agent type '${input.subagent_type}' not found`);
        return start(input, definition, context);
      },
      render: (output: AgentOutput | AgentLaunch) => output.content.map((block) => block.text).join('\n'),
    }),
    renderBlocks: (output: AgentOutput | AgentLaunch): readonly ToolResultBlock[] =>
      output.content.map((block) => ({ type: 'text', text: block.text })),
    ...(resume !== undefined
      ? {
          continueWaiting: (
            input: AgentInput,
            calls: readonly PendingCall[],
            decisions: PendingDecisions,
            context: ToolContext,
          ) => {
            const type = calls[0]?.agentType;
            return resume(
              input,
              type !== undefined ? byName.get(type) : undefined,
              calls,
              decisions,
              context,
            );
          },
        }
      : {}),
  };
}
