import type { z } from 'zod';
import type { BashSandbox } from '../sandbox/bash-sandbox.js';
import type { ToolResultBlock } from '../messages/messages.js';
import type { PendingCall, PendingDecisions } from '../session/pending-calls.js';
import type { Workspace } from './workspace.js';

/**
 * What a tool handler may use. `cwd` is the session's current directory (it follows `cd` done by
 * the Bash tool); `projectDir` never changes. `env` holds extra variables for spawned processes
 * (e.g. exports collected from `CLAUDE_ENV_FILE`). `setCwd` is how Bash reports a `cd`.
 */
export interface ToolContext {
  readonly cwd: string;
  readonly projectDir: string;
  readonly workspace: Workspace;
  readonly signal: AbortSignal;
  readonly env: Readonly<Record<string, string>>;
  /** The session id, for `CLAUDE_CODE_SESSION_ID` in tool processes. */
  readonly sessionId?: string;
  /** The subagent's id when the call runs inside one (its own todo list, its own background shells); absent in the main session. */
  readonly agentId?: string;
  /** Variable names never passed to tool processes (`sandbox.credentials.envVars` with `mode: "deny"`). */
  readonly withheldEnv?: readonly string[];
  /** The id of the tool call this handler runs for (`tool_use_id`); absent when a handler runs outside the loop. */
  readonly toolUseId?: string;
  /** The W3C traceparent of this call's span when the run is traced: Bash passes it as `TRACEPARENT`. */
  readonly traceparent?: string;
  /** The run's OS sandbox for Bash, when `sandbox.enabled` and it could start. */
  readonly sandbox?: BashSandbox;
  setCwd(directory: string): void;
  /**
   * Whether this call may search and show `absolutePath` (see `PermissionPolicy.searchFilter`):
   * search tools (Grep, Glob) ask it for every file they find, before reading it. Absent when a
   * handler runs outside the loop: then only files inside the workspace are searched.
   */
  readonly mayRead?: (absolutePath: string) => Promise<boolean>;
  /**
   * The real paths (symlinks resolved) of the files the call names, as they were when its permission
   * was decided. A file tool writes to exactly these: when a path leads elsewhere by the time it
   * writes (a symlink swapped in meanwhile), it refuses. Absent when a handler runs outside the loop.
   */
  readonly approvedPaths?: readonly string[];
  /**
   * The allow rules in force when the call was decided (`WebFetch(domain:…)`…): WebFetch reaches a
   * loopback or private address only when one names its host. Absent outside the loop: none.
   */
  readonly allowRules?: readonly string[];
  /**
   * The `file_path` as the model wrote it (relative, absolute, with `..`), when the handler runs the
   * model's own input; absent for a hook's rewrite. Read, Write and Edit report it back as
   * `filePath`, as Claude Code does.
   */
  readonly spelledPath?: string;
}

/**
 * Thrown by a tool handler when the tool ran and failed (Bash exit code ≠ 0, an I/O error).
 * `message` is the model-visible error text (e.g. `Exit code 3\nout\nerr`); the loop turns it into
 * an error tool result and fires PostToolUseFailure with it as `error` (Claude Code hook protocol).
 */
export class ToolFailure extends Error {
  /**
   * Set by a tool whose failure also ends the run, as a hook's would: the Agent tool when a hook
   * inside its subagent answered `continue: false` (`hook_stopped`) or a PermissionRequest hook
   * interrupted (`aborted_tools`). The call is still paired with `message`.
   */
  readonly endsRun: 'hook_stopped' | 'aborted_tools' | undefined;
  constructor(message: string, options: { readonly endsRun?: 'hook_stopped' | 'aborted_tools' } = {}) {
    super(message);
    this.name = 'ToolFailure';
    this.endsRun = options.endsRun;
  }
}

/** How the permission policy treats a tool: `read` (Read, Glob, Grep), `edit` (Write, Edit), `bash`, or `other`; the built-in names' kinds are in builtin-tool-kinds.ts. */
export type ToolKind = 'read' | 'edit' | 'bash' | 'other';

/**
 * A tool the model can call. `I` is the validated input, `O` the structured `tool_response` that
 * PostToolUse hooks see (Claude Code's shapes for the built-ins).
 *
 * Contract:
 * - `inputSchema` validates the model's arguments; it should be strict (unknown keys rejected) like Claude Code.
 * - `normalizeInput` makes the input canonical before any hook sees it (absolute file paths,
 *   defaults such as Edit's `replace_all: false`). It must not touch the filesystem.
 * - `validateInput` runs in prepare, before hooks: a returned string is a validation error
 *   (wrapped as `<tool_use_error>…</tool_use_error>`, no hooks fire), e.g. Edit's old_string equal
 *   to new_string. It must not depend on what is on disk (that is `validateContent`'s job).
 * - `handler` performs the side effect exactly once; it throws `ToolFailure` for a failed run.
 * - `render` turns the (possibly hook-rewritten) output into the text the model sees.
 * - `outputSchema`, when given, checks a PostToolUse `updatedToolOutput` before it replaces the output.
 * - `filePaths` lists the absolute paths the call reads or writes, for the workspace boundary and path
 *   rules (`context.cwd`: the session's cwd, for a tool that reads where it stands). A `read` tool
 *   that lists none is taken to read the cwd.
 * - `validateContent`, when given, runs after the permission decision (policy, hooks, approver) and
 *   before the handler: the checks that depend on what is on disk (does the file exist, does Edit's
 *   old_string occur), so a call that is refused never learns anything about a file. A returned
 *   string is a validation error like `validateInput`'s (`<tool_use_error>`, no PostToolUse hooks).
 */
export interface Tool<I = unknown, O = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<I>;
  readonly kind: ToolKind;
  /** True when the call cannot change anything (plan mode lets it run). */
  readonly readOnly: boolean;
  normalizeInput?(input: I, context: Pick<ToolContext, 'cwd' | 'projectDir'>): I;
  validateInput?(input: I, context: ToolContext): Promise<string | undefined>;
  validateContent?(input: I, context: ToolContext): Promise<string | undefined>;
  handler(input: I, context: ToolContext): Promise<O>;
  render(output: O, input: I): string;
  readonly outputSchema?: z.ZodType<O>;
  filePaths?(input: I, context: Pick<ToolContext, 'cwd'>): readonly string[];
  /** The JSON Schema the model sees when the tool brings its own (MCP tools); default: `inputSchema` converted. */
  readonly modelSchema?: Record<string, unknown>;
  /** The output as content blocks (text, images) for providers that take them; `render` stays the text form. */
  renderBlocks?(output: O, input: I): readonly ToolResultBlock[] | undefined;
  /** Set on MCP tools: their server, reported as `mcp_server` in tool events (Claude Code's field). */
  readonly mcpServer?: { readonly name: string; readonly source: string };
  /**
   * Consecutive calls to such a tool in one answer run side by side (the Agent tool: several
   * subagents at once); every other call runs alone, in order. Results are paired in call order either way.
   */
  readonly concurrent?: boolean;
  /**
   * User text the loop sends after the batch's results when the call succeeded (the Skill tool:
   * the skill's instructions, as Claude Code sends them after `Launching skill: …`). Text only: a
   * tool, like a hook, can never add tool calls or results.
   */
  followUp?(output: O, input: I): string | undefined;
  /**
   * Set on a tool whose handler may stop with calls of its own waiting (throws CallsWaiting: the
   * Agent tool, whose subagent's calls wait for a decision): continues such a call with `decisions`
   * on `calls` (those of RunResult.pending that name it as `parentToolUseId`) and settles as
   * `handler` would, or throws CallsWaiting again. hookloop's (deferred-approval.ts).
   */
  continueWaiting?(
    input: I,
    calls: readonly PendingCall[],
    decisions: PendingDecisions,
    context: ToolContext,
  ): Promise<O>;
}

/** A tool of any input/output types, as the registry stores it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any, any>;

/**
 * Defines a tool with full type inference: the handler receives `z.infer<typeof inputSchema>`.
 * Defaults: `kind: "other"`, `readOnly: false`, `render` = the output itself when it is a string,
 * else its JSON.
 *
 * @example
 * const add = defineTool({ name: 'add', description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }),
 *   handler: async ({ a, b }) => a + b });
 */
export function defineTool<S extends z.ZodType, O>(definition: {
  name: string;
  description: string;
  inputSchema: S;
  handler: (input: z.infer<S>, context: ToolContext) => Promise<O> | O;
  render?: (output: O, input: z.infer<S>) => string;
  kind?: ToolKind;
  readOnly?: boolean;
  concurrent?: boolean;
  outputSchema?: z.ZodType<O>;
  normalizeInput?: (input: z.infer<S>, context: Pick<ToolContext, 'cwd' | 'projectDir'>) => z.infer<S>;
  validateInput?: (input: z.infer<S>, context: ToolContext) => Promise<string | undefined>;
  validateContent?: (input: z.infer<S>, context: ToolContext) => Promise<string | undefined>;
  filePaths?: (input: z.infer<S>, context: Pick<ToolContext, 'cwd'>) => readonly string[];
}): Tool<z.infer<S>, O> {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(definition.name)) {
    throw new TypeError(`defineTool: name "${definition.name}" must be 1-128 letters, digits, _ or -`);
  }
  return {
    ...definition,
    inputSchema: definition.inputSchema as unknown as z.ZodType<z.infer<S>>,
    kind: definition.kind ?? 'other',
    readOnly: definition.readOnly ?? false,
    handler: async (input, context) => definition.handler(input, context),
    render: definition.render ?? ((output) => (typeof output === 'string' ? output : JSON.stringify(output))),
  };
}
