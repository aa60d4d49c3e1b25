import { McpServerSet, serverEntries, type McpServersOption } from '../mcp/mcp-servers.js';
import type { McpToolCaller } from '../hooks/hook-services.js';
import type { RunEvent } from './run-events.js';

/**
 * The MCP servers of a session (`RunOptions.mcpServers`), not yet connected: `startSession`
 * connects them before SessionStart (so `mcp_tool` hooks of every event reach them) and closes
 * them after SessionEnd. Warnings go to the run's observers.
 * @throws ConfigError for a bad library config (`runAgent: mcpServers.<name>…`).
 */
export function createSessionMcp(
  option: McpServersOption,
  parts: { readonly projectDir: string; readonly env: Readonly<Record<string, string>>; readonly tools: ConstructorParameters<typeof McpServerSet>[1]; readonly emit: (event: RunEvent) => void },
): McpServerSet {
  return new McpServerSet(serverEntries(option), parts.tools, {
    projectDir: parts.projectDir,
    env: { ...process.env, ...parts.env },
    warn: (text) => parts.emit({ type: 'warning', text }),
  });
}

/** `HookServices.callMcpTool` over a session's servers: by configured name, the text blocks joined. */
export function mcpToolCaller(servers: McpServerSet): McpToolCaller {
  return async ({ server, tool, input, signal }) => {
    const client = servers.get(server);
    if (!client) throw new Error(`no MCP server "${server}" in this session`);
    const result = await client.callTool(tool, input, signal);
    const text = result.content.filter((block) => block.type === 'text').map((block) => (block as { text: string }).text).join('\n');
    return { text, isError: result.isError === true };
  };
}
