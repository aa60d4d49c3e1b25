import type { ModelClient } from '../model/model-client.js';
import type { SessionStore } from '../session/session-store.js';
import type {
  AgentDefinition,
  CanUseTool,
  HookCallbackMatcher,
  HookEvent,
  McpServerConfig,
  PermissionMode,
  SettingSource,
  SystemPromptPreset,
} from './sdk-types.js';

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

/** The SDK's `sessionStoreFlush` values. */
export type SessionStoreFlush = 'batched' | 'eager';

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
  /**
   * Where a copy of the transcript goes (the SDK's `SessionStore` shape: an adapter written for the
   * SDK works here), and where `resume` / `continue` read a session the local folder lacks. Needs
   * the local transcript: `persistSession: false` with a store is refused.
   */
  sessionStore?: SessionStore;
  /**
   * `'batched'` (the SDK's default) or `'eager'`: accepted; hookloop hands the store each write's
   * lines as they reach the local file either way, and a prompt's result waits until it took them.
   */
  sessionStoreFlush?: SessionStoreFlush;
  /** The bound on each store read of a resume, in milliseconds (default 60 000). */
  loadTimeoutMs?: number;
  /** hookloop's extensions (see HookloopQueryOptions). */
  hookloop?: HookloopQueryOptions;
  // Only meaningful for the SDK's Claude Code process; accepted and not used (docs/agent-sdk.md).
  executable?: unknown;
  executableArgs?: unknown;
  pathToClaudeCodeExecutable?: unknown;
  debug?: unknown;
  debugFile?: unknown;
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
