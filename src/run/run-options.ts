import type { Tracer } from '@opentelemetry/api';
import type { AgentDefinition } from '../agents/agent-definition.js';
import type { HookEngine } from '../hooks/hook-engine.js';
import type { SkillDefinition } from '../skills/load-skills.js';
import type { ElicitationAnswer, ElicitationRequest } from '../mcp/mcp-client.js';
import type { McpServersOption } from '../mcp/mcp-servers.js';
import type { MemoryFile } from '../memory/load-memory.js';
import type { Message } from '../messages/messages.js';
import type { ModelClient, Usage } from '../model/model-client.js';
import type { Approver, PermissionMode, PermissionRules } from '../permissions/types.js';
import type { SandboxOptions } from '../sandbox/run-sandbox.js';
import type { ResumedSession } from '../session/resume.js';
import type { SessionStore } from '../session/session-store.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { CompactionOptions } from '../loop/compaction.js';
import type { LoopEnd } from '../loop/loop-types.js';
import type { Durability } from '../loop/durability.js';
import type { RunObserver } from '../loop/run-events.js';

export type { TerminalReason } from '../loop/loop-types.js';

/*
 * The options and result of a run, in a file of their own: run-agent.ts (the session) and
 * create-run.ts (its context) both need them, and neither should import the other for a type. The
 * loop needs only what it reports (LoopEnd, in loop-types.ts), which RunResult extends.
 */

/** Options of one agent run. Only `model` and `projectDir` are required. */
export interface RunOptions {
  readonly model: ModelClient;
  /** The project directory: workspace root, `CLAUDE_PROJECT_DIR`, and the starting cwd. */
  readonly projectDir: string;
  /** Tools offered to the model; default: none. Pass `builtinTools()` for Bash, Read, Write, Edit, Glob, Grep. */
  readonly tools?: ToolRegistry | readonly AnyTool[];
  readonly hooks?: HookEngine;
  /**
   * The permission policy. `autoMode`: hookloop's stand-in for Claude Code's `auto` mode (whose
   * classifier approves or refuses what would need approval): run with `mode: "dontAsk"` and the
   * refusals of that mode are the classifier's — they fire PermissionDenied, which fires nowhere
   * else, as in Claude Code. `ruleSources`: the file each rule came from, index for index with
   * `rules` (reported by the PermissionDecision event and its spans).
   */
  readonly permissions?: {
    readonly rules?: Partial<PermissionRules>;
    readonly mode?: PermissionMode;
    readonly additionalDirectories?: readonly string[];
    readonly autoMode?: boolean;
    readonly ruleSources?: Partial<PermissionRules>;
  };
  /**
   * Files and directories the run's configuration was read from — settings files (`--settings`
   * ones included), plugin directories, MCP configs: no rule, mode or hook lets the model write
   * them, only a person. Always protected besides: the project's `.claude/` and `.mcp.json`,
   * `~/.claude/`, `~/.claude.json`, the config folder (`configDir`, `$HOOKLOOP_HOME`,
   * `$CLAUDE_CONFIG_DIR`), and git's files (`.git/`, `.gitattributes`, …). Compared by real path.
   */
  readonly configurationFiles?: readonly string[];
  /** Decides calls the policy asks about; default: the headless approver, which denies. */
  readonly approver?: Approver;
  /**
   * `mcp__<server>__<tool>`: that MCP tool of the session decides what the policy asks about,
   * instead of `approver` (Claude Code's `--permission-prompt-tool`; see permission-prompt-tool.ts).
   * Its allow is an approver's allow: deny rules and the workspace boundary still refuse.
   */
  readonly permissionPromptTool?: string;
  /** The main session's system prompt (default empty; the CLI sends hookloop's, see src/prompt/system-prompt.ts). */
  readonly system?: string;
  /**
   * Memory files (CLAUDE.md and the rest, see loadMemory), in reading order: they reach the model
   * as one `<system-reminder>` user text just before the first prompt, and InstructionsLoaded fires
   * once per file after SessionStart. Ignored on a resumed session, whose conversation holds them.
   */
  readonly memory?: readonly MemoryFile[];
  /**
   * `--max-budget-usd`: the run ends `budget_exhausted` after the model answer that brings the
   * estimated cost of its requests (model/pricing.ts; models without a price count nothing) above this.
   */
  readonly maxBudgetUsd?: number;
  /** Maximum model requests in the run (default 100). */
  readonly maxTurns?: number;
  /** How many extra turns Stop hooks may force (default 8, as Claude Code). */
  readonly maxStopContinuations?: number;
  /** The session id, a UUID (default: a new random one). @throws ConfigError (from runAgent/startSession) when it is not a UUID. */
  /**
   * Where the run's steps are journaled (model requests, hook results, tool handlers, ids and
   * timestamps) so that an engine can replay it after a crash; default: in-process, today's
   * behaviour. `hookloop/restate` provides one backed by a Restate virtual object. hookloop's.
   */
  readonly durability?: Durability;
  readonly sessionId?: string;
  /**
   * The folder that plays Claude Code's `~/.claude` (transcripts go to its `projects/`); default
   * `$HOOKLOOP_HOME`, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
   */
  readonly configDir?: string;
  /** Where the transcript is written, reported as `transcript_path`; default `<configDir>/projects/<slug of projectDir>/<session>.jsonl`. */
  readonly transcriptPath?: string;
  /** Write the JSONL transcript (default true). */
  readonly transcript?: boolean;
  /**
   * Where a copy of the session's transcripts goes (the Agent SDK's `sessionStore`): every line the
   * local JSONL files get — the main transcript and each subagent's, under `subpath`
   * `subagents/agent-<id>` — is appended to the store, in file order, after it is in the file; a
   * prompt's result (and `end`) waits until the store took them. A rejected `append` is one
   * warning; the run goes on and the local files stay complete. The local transcript is still
   * written (it is what the copy is made from): `transcript: false` with a store is a ConfigError,
   * as is a FileSessionStore that would write the run's own transcript file. Default: none.
   * `loadStoredSession` reads a session back from a store for `resume`.
   */
  readonly sessionStore?: SessionStore;
  /** The `projectKey` of the run's entries in `sessionStore` (default `projectKeyFor(projectDir)`, as the Agent SDK's). hookloop's. */
  readonly sessionStoreProjectKey?: string;
  /** Continue a saved session (`loadSession`): its id, transcript and conversation; SessionStart fires with `source: "resume"`. */
  readonly resume?: ResumedSession;
  /** When to compact automatically (see CompactionOptions); `false`: never on its own. */
  readonly compaction?: CompactionOptions | false;
  readonly signal?: AbortSignal;
  readonly observers?: readonly RunObserver[];
  /** Where the run's spans go (telemetry/run-tracer.ts); default: the global tracer if an OpenTelemetry SDK is registered, else none (no spans are made). */
  readonly tracer?: Tracer;
  /** Append the events `hookloop timeline` shows to `<session>.events.ndjson` next to the transcript (the CLI does). Default false. */
  readonly timelineEvents?: boolean;
  /** Extra environment for tool processes (kept even for provider credentials, which Bash does not inherit from `process.env`). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Claude Code's OS sandbox for Bash: the `sandbox` settings (`enabled`, `autoAllowBashIfSandboxed`,
   * `filesystem`, `network`, …) plus `protectedPaths` (see SandboxOptions). Off by default.
   */
  readonly sandbox?: SandboxOptions;
  /**
   * MCP servers (Claude Code's `mcpServers` shape, `{ name: { command, args } | { type: "http", url } }`,
   * or entries from `loadMcpConfig`): connected before SessionStart, their tools offered as
   * `mcp__<server>__<tool>`, ended with the session (see docs/mcp.md).
   */
  readonly mcpServers?: McpServersOption;
  /**
   * Asks a person an MCP elicitation no Elicitation hook answered (the CLI's interactive mode asks
   * at the terminal); default: nobody is asked and it is cancelled, as in Claude Code's `-p`.
   */
  readonly elicit?: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;
  /**
   * Subagent types the Agent tool offers (`loadAgents` reads Claude Code's `.claude/agents/*.md`,
   * `~/.claude/agents/*.md`, plugin `agents/` and `--agents`, plus `general-purpose`). Given and not
   * empty: the Agent tool is offered (a call named `Task` runs it too). Default: no Agent tool.
   */
  readonly agents?: readonly AgentDefinition[];
  /** The model client for an agent's `model` (`sonnet`, an id, …); undefined or absent: the session's model. */
  readonly agentModel?: (model: string) => ModelClient | undefined;
  /**
   * Skills the Skill tool loads (`loadSkills` reads Claude Code's `.claude/skills/<name>/SKILL.md`,
   * `~/.claude/skills/`, plugin `skills/` and the command folders). Given and not empty: the Skill
   * tool is offered and the first prompt lists the skills the model may invoke.
   */
  readonly skills?: readonly SkillDefinition[];
}

/** The outcome of a run; the CLI's `--output-format json` prints it in Claude Code's field names. */
export interface RunResult extends LoopEnd {
  readonly numTurns: number;
  readonly sessionId: string;
  readonly durationMs: number;
  /** Tokens summed over every model request of the run (cache counts when the provider reported them). */
  readonly usage: Usage;
  /** The same sums per model id (as the provider reported it, else the client's name). */
  readonly modelUsage?: Readonly<Record<string, Usage>>;
  readonly permissionDenials: readonly { tool_name: string; tool_use_id: string; tool_input: unknown }[];
  /** The whole conversation, every tool call paired except the `pending` ones, which wait for a decision. */
  readonly messages: readonly Message[];
}
