import { userMessage } from '../messages/messages.js';
import type { McpClient } from '../mcp/mcp-client.js';
import { expandMcpPrompt, mcpPromptCommands } from '../mcp/mcp-prompts.js';
import type { SlashCall } from '../skills/slash-command.js';
import { contextLabel } from './hook-text.js';
import type { Expansion } from './loop-types.js';
import { appendMessage, fireHook, type RunContext } from './run-context.js';

/**
 * `/mcp__<server>__<prompt> args` typed as a prompt, when a connected server offers that prompt:
 * fires UserPromptExpansion (`expansion_type: "mcp_prompt"`, `command_source: "mcp"`), and unless a
 * hook blocks, asks the server for the prompt (`prompts/get`, the words of `args` filling its
 * arguments in order) and appends Claude Code's command markup, then one user text per prompt
 * message, in the prompt's place. `none` when no server offers the prompt, or when the server
 * refuses it (a required argument missing, say): then a warning says why and the prompt is sent as
 * typed, as an unknown command is.
 */
export async function expandMcpPromptCall(
  run: RunContext,
  prompt: string,
  call: SlashCall,
  clients: readonly McpClient[],
): Promise<Expansion> {
  const commands = await mcpPromptCommands(clients, run.signal);
  const command = commands.find((candidate) => candidate.name === call.name);
  if (command === undefined) return { kind: 'none' };
  const answered = await fireHook(run, 'UserPromptExpansion', {
    expansion_type: 'mcp_prompt',
    command_name: command.name,
    command_args: call.args,
    command_source: 'mcp',
    prompt,
  });
  if (answered.blocks.length > 0)
    return { kind: 'blocked', reason: answered.blocks.map((block) => block.reason).join('\n') };
  let expansion;
  try {
    expansion = await expandMcpPrompt(clients, command, call.args, run.signal);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    run.emit({ type: 'warning', text: `MCP prompt /${command.name} failed: ${reason}` });
    return { kind: 'none' };
  }
  appendMessage(run, userMessage(expansion.commandText));
  for (const block of expansion.blocks) appendMessage(run, userMessage(block));
  return {
    kind: 'expanded',
    context: answered.contexts.map((text) => contextLabel('UserPromptExpansion', undefined, text)),
  };
}
