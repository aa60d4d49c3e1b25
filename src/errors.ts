/**
 * hookloop's error tree. Errors are split by who must act: the user (ConfigError), a hook author
 * (HookContractError), the model provider (ProviderError) or the caller of a run (MaxTurnsError,
 * AbortError). Tool failures, denials and invalid tool calls are never thrown: they are tool
 * results with `isError: true` that go back to the model.
 */

/** Base class of every error hookloop throws on purpose. `name` is the subclass name. */
export class HookloopError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The user's settings, flags or files are wrong. `file` and `field` name where, when known;
 * the message is one line fit to print as is (e.g. `settings.json: hooks.PreToolUse[0].matcher: invalid regex …`).
 */
export class ConfigError extends HookloopError {
  readonly file: string | undefined;
  readonly field: string | undefined;
  constructor(message: string, options: { file?: string; field?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.file = options.file;
    this.field = options.field;
  }
}

/**
 * A hook returned something its event does not allow: a field that belongs to another event,
 * a wrong type, a `hookEventName` that names another event. `event` is the hook event,
 * `fields` the offending output paths (e.g. `["hookSpecificOutput.updatedInput"]`).
 */
export class HookContractError extends HookloopError {
  readonly event: string;
  readonly fields: readonly string[];
  constructor(event: string, fields: readonly string[], detail: string) {
    super(`${event} hook output: ${detail}`);
    this.event = event;
    this.fields = fields;
  }
}

/** The model provider failed. `status` is the HTTP status when there was one. */
export class ProviderError extends HookloopError {
  readonly provider: string;
  readonly status: number | undefined;
  readonly retryable: boolean;
  constructor(
    provider: string,
    message: string,
    options: { status?: number; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.provider = provider;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
  }
}

/** The run reached `maxTurns` model calls without the model ending its turn. */
export class MaxTurnsError extends HookloopError {
  readonly maxTurns: number;
  constructor(maxTurns: number) {
    super(`reached the limit of ${maxTurns} turns`);
    this.maxTurns = maxTurns;
  }
}

/** The run was aborted through its AbortSignal (e.g. Ctrl-C). */
export class AbortError extends HookloopError {
  constructor(message = 'the run was aborted') {
    super(message);
  }
}

/** One line describing any thrown value, for messages shown to users (never a stack trace). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
