/**
 * What a handler answered, independent of any event list (the merge rules and the event table
 * read it; keeping it apart from `RegisteredHandler`, which names its event, avoids an import circle).
 */

/**
 * Where a handler came from, for the labels the model and the user see. Command hooks are named by
 * their settings string verbatim (Claude Code shows `[<cmd>]` and `from command: "<cmd>"`).
 */
export interface HandlerOrigin {
  readonly transport: 'callback' | 'command' | 'http' | 'prompt' | 'agent' | 'mcp_tool';
  /** The command string as written in settings (the URL of an http hook, the prompt of a prompt/agent hook), or the callback's name. */
  readonly text: string;
  /** The settings file, or `callback`. */
  readonly source: string;
  /** Where it is configured, for messages: `<file>: hooks.PreToolUse[0].hooks[1]`. */
  readonly location?: string;
  /**
   * The plugin that brought the handler, as Claude Code names it to the model: `<name>@inline` for a
   * `--plugin-dir` plugin. Absent for a settings or callback handler.
   */
  readonly plugin?: string;
}

/**
 * One handler's answer after its transport's protocol was applied (exit codes, JSON parsing,
 * schema check). `output` is already validated for the event; `{}` when the hook had no opinion.
 * - `ok`: success; `plainText` is non-JSON stdout (context for SessionStart/UserPromptSubmit only).
 * - `blocked`: a blocking error (command exit 2); `blockMessage` is `[<cmd>]: <stderr>`.
 * - `failed` / `timeout`: a non-blocking failure unless `failClosed` (onFailure "block", or an
 *   in-process gate hook that threw); `error` says what happened.
 */
export interface HandlerOutcome<O = Readonly<Record<string, unknown>>> {
  readonly origin: HandlerOrigin;
  readonly status: 'ok' | 'blocked' | 'failed' | 'timeout';
  /** Typed as event `E`'s output (`HandlerOutcome<HookOutput<E>>`) where the merge rules read it; the transports validated it. */
  readonly output: Readonly<O>;
  readonly plainText?: string;
  readonly blockMessage?: string;
  readonly error?: string;
  readonly failClosed: boolean;
  /**
   * Something the user should know about an external hook's answer that did not stop it from
   * counting, e.g. `ignored unknown fields decision.reason` (see `readExternalOutput`). Shown once
   * per answer as a run warning naming the hook.
   */
  readonly warning?: string;
  readonly durationMs: number;
  /** The transport's answer before interpretation, for tooling (`hookloop hooks test`); absent for callbacks. */
  readonly raw?: RawAnswer;
}

/**
 * A handler's unprocessed answer: for a command, its exit code (null when killed or never started),
 * the signal that ended it, and its stdout and stderr as captured; `status` and `body` for an HTTP answer.
 */
export interface RawAnswer {
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly status?: number;
  readonly body?: string;
}

/** `[<cmd>]`: how Claude Code prefixes a blocking hook's stderr in model-visible text. */
export function bracketLabel(origin: HandlerOrigin): string {
  return `[${origin.text}]`;
}

/** `from command: "<cmd>"` (or `from callback: "<name>"`), as in `PostToolUse:Bash hook blocking error from command: …`. */
export function fromLabel(origin: HandlerOrigin): string {
  return `from ${origin.transport}: "${origin.text}"`;
}
