/** How the MCP instructions section begins (the system text that lists what servers said in `initialize`). */
export const MCP_INSTRUCTIONS_START = '# MCP Server Instructions';

/**
 * The section that passes servers' `instructions` to the model, worded as Claude Code 2.1.328 words
 * it in its environment text: a heading, one sentence, then `## <server>` and the server's text for
 * each connected server that sent instructions, in config order. Undefined when none did.
 */
export function mcpInstructionsSection(
  servers: readonly { readonly name: string; readonly instructions?: string | undefined }[],
): string | undefined {
  const parts = servers.flatMap((server) =>
    server.instructions !== undefined && server.instructions.trim() !== ''
      ? [`## ${server.name}\n${server.instructions.trim()}`]
      : [],
  );
  if (parts.length === 0) return undefined;
  return `${MCP_INSTRUCTIONS_START}\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n${parts.join('\n\n')}`;
}
