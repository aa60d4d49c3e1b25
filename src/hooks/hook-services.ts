import type { ModelClient } from '../model/model-client.js';

/**
 * What model-backed hook handlers (`type: "prompt"`, `type: "agent"`) need from the session that
 * dispatches an event. The loop supplies it with every fire (`FireOptions.services`), so
 * the hooks layer never imports the loop: a prompt hook asks `model`, an agent hook asks
 * `runSubagent`, which the loop implements as a bounded sub-run of itself.
 */
export interface HookServices {
  /** The session's model client; prompt hooks send it one request without tools. */
  readonly model?: ModelClient;
  /** Runs an agent hook's subagent. */
  readonly runSubagent?: SubagentRunner;
  /** Calls a tool of the session's MCP server `server` (by its configured name), for `mcp_tool` hooks; absent when the session has no MCP servers. */
  readonly callMcpTool?: McpToolCaller;
  /** True for the dispatches of an agent hook's own subagent: agent hooks are skipped there (they would start themselves again). */
  readonly nested?: boolean;
  /**
   * The W3C `traceparent` of this handler's span, when tracing is on: command hooks get it as
   * `TRACEPARENT`, http hooks as a `traceparent` header, so their own spans join the trace.
   */
  readonly traceparent?: string;
}

/**
 * One agent-hook sub-run. `prompt` is the first user message (the hook's prompt with `$ARGUMENTS`
 * already replaced); `input` the event payload that triggered the hook (session id, cwd, …);
 * `signal` fires on the hook's timeout or when the run is aborted.
 */
export interface SubagentRequest {
  readonly prompt: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
  /** The W3C traceparent of the agent hook's own span when the run is traced: the sub-run's spans nest under it. */
  readonly traceparent?: string;
}

/**
 * How a sub-run ended: `answered` with the verdict the subagent gave through its StructuredOutput
 * tool, or `failed` (no verdict within its turn budget, a model error, an abort) with a one-line reason.
 */
export type SubagentAnswer =
  | { readonly kind: 'answered'; readonly ok: boolean; readonly reason?: string }
  | { readonly kind: 'failed'; readonly error: string };

/** Contract: resolves once, never rejects (failures are `{ kind: "failed" }`). */
export type SubagentRunner = (request: SubagentRequest) => Promise<SubagentAnswer>;

/**
 * One `mcp_tool` hook call: the tool's text (its text blocks joined) and whether the server flagged
 * it `isError`. Rejects when the server is unknown or not connected, or the call failed.
 */
export type McpToolCaller = (request: {
  readonly server: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly signal: AbortSignal;
}) => Promise<{ readonly text: string; readonly isError: boolean }>;
