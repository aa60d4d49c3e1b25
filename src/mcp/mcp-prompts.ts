import { mcpToolName } from './mcp-names.js';
import type { McpClient } from './mcp-client.js';

/** An MCP prompt offered as a slash command: `/mcp__<server>__<prompt>`, with its declared arguments in order. */
export interface McpPromptCommand {
  /** The command name without the slash (`mcp__github__review_pr`), normalised as tool names are. */
  readonly name: string;
  readonly server: string;
  readonly prompt: string;
  readonly description: string;
  readonly arguments: readonly {
    readonly name: string;
    readonly required: boolean;
    readonly description?: string;
  }[];
}

/** What a prompt command expands to, as Claude Code 2.1.328 sends it: the command markup, then each prompt message's text as its own block. */
export interface McpPromptExpansion {
  /** `<command-message>NAME</command-message>\n<command-name>/NAME</command-name>\n<command-args>ARGS</command-args>\n` (the last line left out without arguments). */
  readonly commandText: string;
  /** The text of each message the server's `prompts/get` returned, in order. */
  readonly blocks: readonly string[];
}

/**
 * The prompts of every connected server (every page) as slash commands. A server whose list fails
 * offers none (the others still do). For the slash-command expansion: `/name args` in a prompt is
 * one of these when `name` matches.
 */
export async function mcpPromptCommands(
  clients: readonly McpClient[],
  signal?: AbortSignal,
): Promise<McpPromptCommand[]> {
  const lists = await Promise.all(
    clients
      .filter((client) => client.state === 'connected')
      .map(async (client) => {
        const prompts = await client.listPrompts(signal).catch(() => []);
        return prompts.map((prompt) => ({
          name: mcpToolName(client.name, prompt.name),
          server: client.name,
          prompt: prompt.name,
          description: prompt.description ?? prompt.title ?? prompt.name,
          arguments: (prompt.arguments ?? []).map((argument) => ({
            name: argument.name,
            required: argument.required === true,
            ...(argument.description !== undefined ? { description: argument.description } : {}),
          })),
        }));
      }),
  );
  return lists.flat();
}

/**
 * Expands `/<command.name> <argsText>`: the words of `argsText` (split on whitespace) fill the
 * declared arguments in order, as Claude Code fills them (`/mcp__probe__greet bob` → `{ who: "bob" }`);
 * `prompts/get` is asked with them. A message's text content is its text; an embedded text resource
 * is its text; an image or a blob is described (`[image: image/png]`).
 * @throws Error when the server is gone or answers an error (a required argument missing, say): the
 * caller reports it to the person instead of sending the prompt.
 */
export async function expandMcpPrompt(
  clients: readonly McpClient[],
  command: McpPromptCommand,
  argsText: string,
  signal?: AbortSignal,
): Promise<McpPromptExpansion> {
  const client = clients.find((candidate) => candidate.name === command.server);
  if (!client) throw new Error(`MCP server "${command.server}" is not in this session`);
  const words = argsText.trim() === '' ? [] : argsText.trim().split(/\s+/);
  const args: Record<string, string> = {};
  command.arguments.forEach((argument, index) => {
    if (words[index] !== undefined) args[argument.name] = words[index];
  });
  const result = await client.getPrompt(command.prompt, args, signal);
  const blocks = result.messages.map((message) => {
    const content = message.content as {
      type: string;
      text?: string;
      mimeType?: string;
      resource?: { uri: string; text?: string; mimeType?: string };
    };
    if (content.type === 'text') return content.text ?? '';
    if (content.type === 'resource')
      return content.resource?.text ?? `[resource: ${content.resource?.uri ?? ''}]`;
    return `[${content.type}${content.mimeType ? `: ${content.mimeType}` : ''}]`;
  });
  // The markup is the one every slash command gets: without arguments, no <command-args>.
  const commandText = `<command-message>${command.name}</command-message>\n<command-name>/${command.name}</command-name>\n${argsText === '' ? '' : `<command-args>${argsText}</command-args>\n`}`;
  return { commandText, blocks };
}
