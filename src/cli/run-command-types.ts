import type { SettingSource } from '../hooks/settings/setting-sources.js';
import type { PendingDecisions } from '../session/pending-calls.js';
import type { CliPermissionMode } from '../run/permission-mode.js';
import type { ProviderName } from './select-model.js';

/** What `hookloop [-p] PROMPT …` was asked to do, after parsing and checking the flags. */
export interface RunCommandOptions {
  readonly command: 'run';
  readonly prompt: string | undefined;
  readonly print: boolean;
  readonly settings: string | undefined;
  /** `--setting-sources`: which of the user, project and local settings files to read (all when absent). */
  readonly settingSources?: readonly SettingSource[];
  /** `text` (answer streamed as it arrives), `json` (one result object), `stream-json` (one JSON event per line). */
  readonly outputFormat: 'text' | 'json' | 'stream-json';
  /** `--input-format stream-json`: user messages arrive as JSON lines on stdin, each starting a turn, until EOF. */
  readonly inputFormat: 'text' | 'stream-json';
  /** `--include-partial-messages`: stream-json output also carries the model's deltas as `stream_event` lines. */
  readonly includePartialMessages: boolean;
  readonly permissionMode: CliPermissionMode | undefined;
  readonly allowedTools: readonly string[];
  readonly disallowedTools: readonly string[];
  readonly addDirs: readonly string[];
  readonly maxTurns: number | undefined;
  readonly modelScript: string | undefined;
  /** `--provider`; undefined = inferred (see selectModel). */
  readonly provider: ProviderName | undefined;
  /** `--model`: the model id for the chosen provider. */
  readonly model: string | undefined;
  readonly verbose: boolean;
  readonly sessionId: string | undefined;
  /** `-c, --continue`: go on with the latest session of this directory. */
  readonly continue: boolean;
  /** `-r, --resume ID`: go on with that session. */
  readonly resume: string | undefined;
  readonly recordRequests: string | undefined;
  /**
   * `--approve ID` / `--deny ID[=reason]`, repeatable (hookloop's): decisions on the pending tool
   * calls of the `--resume`d / `--continue`d session; undefined when neither flag was given.
   */
  readonly decisions: PendingDecisions | undefined;
  /** `--plugin-dir`, repeatable: Claude Code plugin directories whose hooks join the settings' hooks. */
  readonly pluginDirs: readonly string[];
  /** `--mcp-config FILE|JSON…`, repeatable: MCP server configs (`{ "mcpServers": … }`). */
  readonly mcpConfigs: readonly string[];
  /** `--strict-mcp-config`: only the `--mcp-config` servers, no other MCP source. */
  readonly strictMcpConfig: boolean;
  /** `--agents JSON`: subagent definitions `{ "<name>": { description, prompt, tools, … } }`, above every file's. */
  readonly agents: string | undefined;
  /** The system-prompt flags as given (files not read yet): see src/cli/system-prompt-flags.ts. */
  readonly systemPrompt: SystemPromptFlags;
  /** `--fork-session`: with --resume/--continue, go on under a new session id with a copy of the transcript. */
  readonly forkSession: boolean;
  /** `--fallback-model M[,M…]`: the models to switch to when the main one stays overloaded or unavailable after its retries. */
  readonly fallbackModels: readonly string[];
  /** `--max-budget-usd N`: end the run once its estimated cost passes N dollars. */
  readonly maxBudgetUsd: number | undefined;
  /**
   * `--durable URL` (hookloop's): the Restate ingress through which a `hookloop serve` worker runs
   * the session instead of this process (see docs/durable.md).
   */
  readonly durable?: string;
  /** `--restate-admin URL` (hookloop's, with `--durable`): the admin API read to report a failing invocation. */
  readonly restateAdmin?: string;
  /** `--permission-prompt-tool mcp__<server>__<tool>`: an MCP tool decides what the policy asks about (headless approvals). */
  readonly permissionPromptTool?: string;
}

/** `--system-prompt`, `--system-prompt-file`, `--append-system-prompt`, `--append-system-prompt-file`. */
export interface SystemPromptFlags {
  readonly replace?: string;
  readonly replaceFile?: string;
  readonly append?: string;
  readonly appendFile?: string;
}
