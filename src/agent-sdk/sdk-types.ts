import type { HookEventName } from '../hooks/event-names.js';
import type { HookInput as EventInput } from '../hooks/event-schemas.js';
import type { ModelClient } from '../model/model-client.js';
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

/**
 * hookloop's extensions, under their own key: the model client or provider, and where sessions live.
 * - `model`: a ModelClient (an `OpenAICompatibleModel`, an `AnthropicModel`, a `ScriptedModel`, an
 *   AI SDK adapter); default: chosen from `provider`, `options.model` and the environment.
 * - `provider`: `anthropic` or `openai` (OpenAI-compatible), as `hookloop --provider`; default:
 *   `ANTHROPIC_API_KEY` → anthropic, `OPENAI_API_KEY`/`OPENAI_BASE_URL` → openai.
 * - `agentModel`: the client for a subagent's `model` (undefined: the session's).
 * - `configDir`: the folder playing `~/.claude` (transcripts, resume); default `$HOOKLOOP_HOME`,
 *   `$CLAUDE_CONFIG_DIR` (from `env`, then the process), `~/.claude`.
 */
export interface HookloopQueryOptions {
  model?: ModelClient;
  provider?: 'anthropic' | 'openai';
  agentModel?: (model: string) => ModelClient | undefined;
  configDir?: string;
}

/**
 * The options of `query()`, the Agent SDK's names. Every key the SDK has is here so that its
 * programs compile; those typed `unknown` are not supported and `query()` refuses them when set
 * (see docs/agent-sdk.md for the table).
 */
export interface Options {
  abortController?: AbortController;
  additionalDirectories?: string[];
  agents?: Record<string, AgentDefinition>;
  allowedTools?: string[];
  canUseTool?: CanUseTool;
  cwd?: string;
  disallowedTools?: string[];
  tools?: string[] | { type: 'preset'; preset: 'claude_code' };
  env?: { [name: string]: string | undefined };
  forkSession?: boolean;
  hooks?: Partial<Record<HookEvent, HookCallbackMatcher[]>>;
  includePartialMessages?: boolean;
  maxTurns?: number;
  maxBudgetUsd?: number;
  mcpServers?: Record<string, McpServerConfig>;
  model?: string;
  permissionMode?: PermissionMode;
  allowDangerouslySkipPermissions?: boolean;
  permissionPromptToolName?: string;
  persistSession?: boolean;
  resume?: string;
  sessionId?: string;
  settings?: string | Record<string, unknown>;
  settingSources?: SettingSource[];
  stderr?: (data: string) => void;
  strictMcpConfig?: boolean;
  systemPrompt?: string | string[] | SystemPromptPreset | { type: string; [field: string]: unknown };
  /** Not supported yet: `query()` throws naming it. */
  sessionStore?: unknown;
  /** hookloop's extensions (see HookloopQueryOptions). */
  hookloop?: HookloopQueryOptions;
  // Only meaningful for the SDK's Claude Code process; accepted and not used (docs/agent-sdk.md).
  executable?: unknown;
  executableArgs?: unknown;
  pathToClaudeCodeExecutable?: unknown;
  debug?: unknown;
  debugFile?: unknown;
  loadTimeoutMs?: unknown;
  mcpServersDelivery?: unknown;
  pluginDelivery?: unknown;
  // Not supported: refused when set (a `false` that is the SDK's default is accepted).
  projectConfigRoot?: unknown;
  agent?: unknown;
  continue?: unknown;
  toolAliases?: unknown;
  extraArgs?: unknown;
  fallbackModel?: unknown;
  enableFileCheckpointing?: unknown;
  toolConfig?: unknown;
  betas?: unknown;
  onElicitation?: unknown;
  onUserDialog?: unknown;
  supportedDialogKinds?: unknown;
  perTaskStopAffordance?: unknown;
  sessionStoreFlush?: unknown;
  includeHookEvents?: unknown;
  forwardSubagentText?: unknown;
  verbatimPrompts?: unknown;
  thinking?: unknown;
  effort?: unknown;
  maxThinkingTokens?: unknown;
  taskBudget?: unknown;
  outputFormat?: unknown;
  planModeInstructions?: unknown;
  permissionPrompts?: unknown;
  plugins?: unknown;
  promptSuggestions?: unknown;
  agentProgressSummaries?: unknown;
  resumeSessionAt?: unknown;
  resumeDropsTurn?: unknown;
  sandbox?: unknown;
  managedSettings?: unknown;
  skills?: unknown;
  title?: unknown;
  spawnClaudeCodeProcess?: unknown;
}
