import type { RunContext } from '../loop/run-context.js';
import { McpServerSet, serverEntries, type McpServersOption } from './mcp-servers.js';

/**
 * Connects a session's MCP servers and registers their tools in the run's registry, before
 * SessionStart (so that `mcp_tool` hooks of every event reach them). Warnings go to the run's
 * observers. Returns the set, which the session closes at its end.
 * @throws ConfigError for a bad library config (`runAgent mcpServers.<name>…`).
 */
export async function startSessionMcp(run: RunContext, option: McpServersOption, env: Readonly<Record<string, string>> = {}): Promise<McpServerSet> {
  const servers = new McpServerSet(serverEntries(option), run.tools, {
    projectDir: run.state.projectDir,
    env: { ...process.env, ...env },
    warn: (text) => run.emit({ type: 'warning', text }),
  });
  await servers.start();
  return servers;
}
