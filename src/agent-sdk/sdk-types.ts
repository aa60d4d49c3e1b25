import type { HookEventName } from '../hooks/event-names.js';
import type { HookInput as EventInput } from '../hooks/event-schemas.js';
import type { InProcessMcpServer } from '../mcp/server-config.js';

/*
 * The Claude Agent SDK's option and callback types, by its names and shapes, as hookloop's
 * `query()` takes them. They are written here (the SDK is never loaded): a program typed against
 * the SDK's own `Options` type-checks against these (test/types/agent-sdk-options.test-d.ts).
 * Callback types are declared as methods so that a callback written for the SDK's slightly wider
 * input types is accepted as it stands.
 */

/** A permission mode, as the Agent SDK names them (`auto` runs as `dontAsk`: hookloop has no classifier). */
export type PermissionMode = 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan' | 'dontAsk' | 'auto';

/** The settings files `settingSources` selects: `~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`. */
export type SettingSource = 'user' | 'project' | 'local';

/** hookloop's own events (PreModelRequest, …), which the Agent SDK does not know: the `hooks` option takes Claude Code's. */
type ExtensionEvent = 'PermissionDecision' | 'PreModelRequest' | 'PreToolSelection' | 'PostModelResponse';
type ClaudeCodeEvent = Exclude<HookEventName, ExtensionEvent>;

/**
 * The event payload a hook callback receives: Claude Code's stdin JSON of that event (snake_case
 * fields), typed per event once narrowed by `hook_event_name`. The last member is the common
 * shape, so that a callback typed with the SDK's own (slightly different) input types fits too.
 */
export type HookInput =
  | { [E in ClaudeCodeEvent]: EventInput<E> }[ClaudeCodeEvent]
  | {
      readonly hook_event_name: string;
      readonly session_id: string;
      readonly transcript_path: string;
      readonly cwd: string;
      readonly [field: string]: unknown;
    };

/** A hook's answer that it runs on in the background: hookloop does not wait and reads nothing of it. */
export interface AsyncHookJSONOutput {
  readonly async: true;
  readonly asyncTimeout?: number;
}

/**
 * A hook's answer, Claude Code's output JSON: `continue` (false ends the run with `stopReason`),
 * `suppressOutput`, `systemMessage` (shown to the user), `decision: "block"` with `reason`, and
 * `hookSpecificOutput` (`{ hookEventName, permissionDecision, permissionDecisionReason,
 * updatedInput, additionalContext, … }`). Fields it does not know are dropped, as Claude Code
 * reads a command hook's JSON.
 */
export interface SyncHookJSONOutput {
  readonly continue?: boolean;
  readonly suppressOutput?: boolean;
  readonly stopReason?: string;
  readonly decision?: 'approve' | 'block';
  readonly systemMessage?: string;
  readonly reason?: string;
  readonly hookSpecificOutput?: { readonly hookEventName: string; readonly [field: string]: unknown };
  readonly [field: string]: unknown;
}

/** What a hook callback resolves to. */
export type HookJSONOutput = AsyncHookJSONOutput | SyncHookJSONOutput;

/**
 * A hook callback: the event payload, the call's `tool_use_id` (tool events; else undefined) and an
 * AbortSignal that fires when the run is aborted or the matcher's `timeout` passes.
 */
export type HookCallback = {
  callback(
    input: HookInput,
    toolUseID: string | undefined,
    options: { signal: AbortSignal },
  ): Promise<HookJSONOutput>;
}['callback'];

/** Hooks of one matcher: `matcher` in Claude Code's syntax (omitted: all), `timeout` in seconds (default 600). */
export interface HookCallbackMatcher {
  matcher?: string;
  hooks: HookCallback[];
  timeout?: number;
  /** `block`: a hook that throws refuses, which hookloop's gate events do anyway; see docs/agent-sdk.md. */
  onFailure?: 'continue' | 'block';
}

/** A hook event name (the Agent SDK's); those hookloop does not fire are refused by `query()` (ConfigError naming them). */
export type HookEvent = string;

/** `canUseTool`'s answer: allow (optionally with a new input, checked like any rewrite) or deny with the message the model reads. */
export type PermissionResult =
  | {
      behavior: 'allow';
      updatedInput?: Record<string, unknown>;
      updatedPermissions?: unknown[];
      toolUseID?: string;
      [field: string]: unknown;
    }
  | { behavior: 'deny'; message: string; interrupt?: boolean; toolUseID?: string; [field: string]: unknown };

/**
 * The approver: asked only about calls the permission policy asks about (a tool in `allowedTools`
 * never reaches it; a deny rule refuses before it). `interrupt: true` on a deny ends the run.
 * A callback that throws or answers `null` denies.
 */
export type CanUseTool = {
  callback(
    toolName: string,
    input: Record<string, unknown>,
    options: {
      signal: AbortSignal;
      suggestions?: unknown[];
      decisionReason?: string;
      toolUseID: string;
      agentID?: string;
    },
  ): Promise<PermissionResult | null>;
}['callback'];

/** A subagent type (`agents` option), by its `subagent_type` name. */
export interface AgentDefinition {
  description: string;
  prompt: string;
  tools?: string[];
  disallowedTools?: string[];
  /** `inherit`, or a model the session's provider serves (see `hookloop.agentModel`). */
  model?: string;
  maxTurns?: number;
  permissionMode?: PermissionMode;
}

/** A stdio MCP server. */
export interface McpStdioServerConfig {
  type?: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/** A legacy SSE MCP server. */
export interface McpSSEServerConfig {
  type: 'sse';
  url: string;
  headers?: Record<string, string>;
}

/** A streamable HTTP MCP server. */
export interface McpHttpServerConfig {
  type: 'http';
  url: string;
  headers?: Record<string, string>;
}

/** An in-process MCP server, as `createSdkMcpServer` returns it. */
export interface McpSdkServerConfigWithInstance {
  type: 'sdk';
  name: string;
  instance: InProcessMcpServer;
}

/** One entry of `mcpServers`. */
export type McpServerConfig =
  McpStdioServerConfig | McpSSEServerConfig | McpHttpServerConfig | McpSdkServerConfigWithInstance;

/** `systemPrompt` as Claude Code's own prompt (hookloop's, src/prompt/system-prompt.ts) with `append` after it. */
export interface SystemPromptPreset {
  type: 'preset';
  preset: 'claude_code';
  append?: string;
}
