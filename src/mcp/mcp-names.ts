/**
 * Claude Code's name normalisation for MCP servers and tools: every character outside
 * `[a-zA-Z0-9_-]` becomes `_` (`my server` → `my_server`, `plugin:p:s` → `plugin_p_s`).
 */
export function normalizeMcpName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** The model-facing name of a server's tool: `mcp__<server>__<tool>`, both parts normalised. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeMcpName(server)}__${normalizeMcpName(tool)}`;
}
