import path from 'node:path';
import type { McpToolCaller } from '../hooks/hook-services.js';
import type { ElicitationAnswer, ElicitationRequest } from '../mcp/mcp-client.js';
import { McpServerSet, serverEntries, type McpServersOption } from '../mcp/mcp-servers.js';
import { sessionAuth } from '../mcp/mcp-auth.js';
import { OAuthStore } from '../mcp/oauth-store.js';
import { fireHook, type RunContext } from '../loop/run-context.js';
import type { RunEvent } from '../loop/run-events.js';
import { toolResultsDir } from '../loop/mcp-output.js';

/**
 * The MCP servers of a session (`RunOptions.mcpServers`), not yet connected: `startSession`
 * connects them before SessionStart (so `mcp_tool` hooks of every event reach them) and closes
 * them after SessionEnd. Warnings go to the run's observers.
 * @throws ConfigError for a bad library config (`runAgent: mcpServers.<name>…`).
 */
export function createSessionMcp(
  option: McpServersOption,
  parts: {
    readonly projectDir: string;
    /** The session's transcript: binary tool output is saved next to it, in `<session>/tool-results/`, as Claude Code does. */
    readonly transcriptPath?: string;
    readonly env: Readonly<Record<string, string>>;
    /** The config folder: remote servers' OAuth tokens are read from `<configDir>/mcp-oauth` (see `hookloop mcp login`). */
    readonly configDir: string;
    /** True for a tool the policy denies as a whole (`PermissionPolicy.hidesTool`): it is not offered. */
    readonly hides?: (toolName: string) => boolean;
    readonly tools: ConstructorParameters<typeof McpServerSet>[1];
    readonly emit: (event: RunEvent) => void;
    readonly onElicitation: (request: ElicitationRequest) => Promise<ElicitationAnswer>;
  },
): McpServerSet {
  const env = { ...process.env, ...parts.env };
  return new McpServerSet(serverEntries(option), parts.tools, {
    projectDir: parts.projectDir,
    env,
    auth: sessionAuth(new OAuthStore(path.join(parts.configDir, 'mcp-oauth')), env, (text) =>
      parts.emit({ type: 'warning', text: text.trim() }),
    ),
    warn: (text) => parts.emit({ type: 'warning', text }),
    notice: (notice) => parts.emit({ type: 'mcp_notice', ...notice }),
    onElicitation: parts.onElicitation,
    ...(parts.hides ? { hides: parts.hides } : {}),
    ...(parts.transcriptPath ? { blobDir: toolResultsDir(parts.transcriptPath) } : {}),
  });
}

/**
 * A server's `elicitation/create`, as Claude Code answers it headless (mcp-elicitation):
 * Elicitation hooks first (matcher: the server name) — an `action` (+ `content`) answers the server
 * and ends there, exit 2 declines; unanswered, `ask` puts it to a person (interactive) or, without
 * one, it is cancelled; ElicitationResult hooks see that answer and may replace it, and Notification
 * (`elicitation_response`) reports it.
 */
export async function answerElicitation(
  run: RunContext,
  request: ElicitationRequest,
  ask?: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>,
): Promise<ElicitationAnswer> {
  const server = request.serverName;
  const fields = {
    mcp_server_name: server,
    message: request.message,
    mode: request.mode,
    ...(request.requestedSchema ? { requested_schema: request.requestedSchema } : {}),
    ...(request.url !== undefined ? { url: request.url } : {}),
  };
  const byHook = (await fireHook(run, 'Elicitation', fields)).answer;
  if (byHook) return byHook;
  let given: ElicitationAnswer = { action: 'cancel' };
  if (ask) {
    try {
      given = await ask(request, run.signal);
    } catch {
      given = { action: 'cancel' };
    }
  }
  const resultFields = {
    mcp_server_name: server,
    mode: request.mode,
    action: given.action,
    ...(given.content ? { content: given.content } : {}),
  };
  const answer = (await fireHook(run, 'ElicitationResult', resultFields)).answer ?? given;
  await fireHook(run, 'Notification', {
    message: `Elicitation response for server "${server}": ${answer.action}`,
    notification_type: 'elicitation_response',
  });
  return answer;
}

/** `HookServices.callMcpTool` over a session's servers: by configured name, the text blocks joined. */
export function mcpToolCaller(servers: McpServerSet): McpToolCaller {
  return async ({ server, tool, input, signal }) => {
    const client = servers.get(server);
    if (!client) throw new Error(`no MCP server "${server}" in this session`);
    const result = await client.callTool(tool, input, signal);
    const text = result.content
      .filter((block) => block.type === 'text')
      .map((block) => (block as { text: string }).text)
      .join('\n');
    return { text, isError: result.isError === true };
  };
}
