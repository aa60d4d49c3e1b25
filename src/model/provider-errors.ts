import { AbortError, ProviderError } from '../errors.js';
import { parseRetryAfter, type RetryVerdict } from './retry.js';

/**
 * How a provider request failed: `http` (the server answered with an error status or an error
 * event), `connection` (refused, reset, dropped mid-stream), `timeout` (no answer within the
 * request timeout), `stream` (the server sent something that is not the protocol: a malformed event).
 */
export type ProviderFailureKind = 'http' | 'connection' | 'timeout' | 'stream';

/**
 * A ProviderError with what the real providers know about the failure. `message` keeps Claude
 * Code's wording (`API Error: 400 <server message>`), since it becomes the run's `result` and the
 * StopFailure hook's `last_assistant_message`; `describe()` is the one-line diagnostic that also
 * names the provider, the error type and whether it was retried.
 */
export class ProviderRequestError extends ProviderError {
  /** What failed: the server's answer, the connection, the timeout, or the stream's format. */
  readonly kind: ProviderFailureKind;
  /** The provider's error type, e.g. `invalid_request_error`, `overloaded_error`, `rate_limit_exceeded`. */
  readonly errorType: string | undefined;
  /** The server's own message, when it sent one. */
  readonly serverMessage: string | undefined;
  /** How long the server asked to wait before retrying (`retry-after`), in ms. */
  readonly retryAfterMs: number | undefined;

  constructor(
    provider: string,
    message: string,
    options: {
      kind: ProviderFailureKind;
      status?: number;
      retryable: boolean;
      errorType?: string;
      serverMessage?: string;
      retryAfterMs?: number;
      cause?: unknown;
    },
  ) {
    super(provider, message, {
      ...(options.status !== undefined ? { status: options.status } : {}),
      retryable: options.retryable,
      cause: options.cause,
    });
    this.kind = options.kind;
    this.errorType = options.errorType;
    this.serverMessage = options.serverMessage;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** One line for a user: `anthropic: HTTP 401 authentication_error: invalid x-api-key (not retried)`. */
  describe(): string {
    const what =
      this.kind === 'http'
        ? `HTTP ${this.status ?? '(stream error event)'}${this.errorType ? ` ${this.errorType}` : ''}: ${this.serverMessage ?? '(no message)'}`
        : this.message.replace(/^API Error: /, '');
    return `${this.provider}: ${what}${this.retryable ? '' : ' (not retried)'}`;
  }
}

/** HTTP statuses worth retrying: request timeout, conflict/lock, too early, rate limit, and every 5xx (529 = overloaded). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
}

/** Error types a streaming provider may send in an SSE `error` event that are transient. */
const TRANSIENT_ERROR_TYPES = new Set([
  'overloaded_error',
  'api_error',
  'rate_limit_error',
  'server_error',
  'timeout_error',
]);

/** The retry verdict for any error a provider's attempt threw: ProviderErrors say so themselves; anything else is not retried. */
export function retryVerdict(error: unknown): RetryVerdict {
  if (error instanceof ProviderRequestError)
    return { retry: error.retryable, retryAfterMs: error.retryAfterMs };
  return { retry: error instanceof ProviderError && error.retryable };
}

/** What an attempt knew when it failed, to tell a timeout and a user abort apart. */
export interface FailureContext {
  readonly provider: string;
  /** The run's signal fired (Ctrl-C): the failure is an AbortError, never retried. */
  readonly aborted: boolean;
  /** The request timeout fired; its length in ms. */
  readonly timedOutAfterMs?: number | undefined;
  /** Content was already streamed to the caller: retrying would repeat it, so the failure is final. */
  readonly streamed: boolean;
}

interface SdkErrorShape {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  headers?: { get(name: string): string | null };
  error?: unknown;
  cause?: unknown;
  code?: unknown;
}

/**
 * Maps whatever an SDK call threw to hookloop's errors. Works on the shapes both official SDKs
 * (Stainless-generated) share: `APIError` (`status`, `headers`, `error` body), `APIConnectionError`,
 * `APIUserAbortError`; a JSON `SyntaxError` from a malformed stream event; Node socket errors.
 * Never throws; returns an AbortError when the run was aborted.
 */
export function toProviderError(error: unknown, context: FailureContext): ProviderRequestError | AbortError {
  if (error instanceof AbortError) return error;
  if (error instanceof ProviderRequestError) return final(error, context);
  const shape = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorShape;
  const provider = context.provider;
  if (context.timedOutAfterMs !== undefined) {
    return final(
      new ProviderRequestError(
        provider,
        `API Error: Request timed out (no response for ${Math.round(context.timedOutAfterMs / 1000)} s)`,
        { kind: 'timeout', retryable: true, cause: error },
      ),
      context,
    );
  }
  if (context.aborted) return new AbortError('the model request was aborted');
  if (typeof shape.status === 'number') {
    const body = bodyOf(shape.error);
    const serverMessage = body.message ?? stripStatus(String(shape.message ?? ''), shape.status);
    return new ProviderRequestError(
      provider,
      `API Error: ${shape.status} ${serverMessage || '(no message)'}`,
      {
        kind: 'http',
        status: shape.status,
        retryable: isRetryableStatus(shape.status),
        ...(body.type ? { errorType: body.type } : {}),
        ...(serverMessage ? { serverMessage } : {}),
        ...optionalRetryAfter(parseRetryAfter(shape.headers)),
        cause: error,
      },
    );
  }
  if (shape.name === 'APIError' || (shape.error !== undefined && bodyOf(shape.error).type !== undefined)) {
    // An error event inside a 200 stream (`event: error`, or a chunk carrying `error`).
    const body = bodyOf(shape.error);
    const serverMessage = body.message ?? String(shape.message ?? 'error event');
    return final(
      new ProviderRequestError(provider, `API Error: ${serverMessage}`, {
        kind: 'http',
        retryable: body.type !== undefined && TRANSIENT_ERROR_TYPES.has(body.type),
        ...(body.type ? { errorType: body.type } : {}),
        serverMessage,
        cause: error,
      }),
      context,
    );
  }
  if (error instanceof SyntaxError) {
    return new ProviderRequestError(
      provider,
      `API Error: malformed stream event from the server (${error.message})`,
      { kind: 'stream', retryable: false, cause: error },
    );
  }
  const code = socketCode(error);
  if (
    shape.name === 'APIConnectionError' ||
    shape.name === 'APIConnectionTimeoutError' ||
    code !== undefined ||
    error instanceof TypeError
  ) {
    const detail = code ? `${SOCKET_WORDS[code] ?? 'network failure'} (${code})` : describeCause(error);
    return final(
      new ProviderRequestError(provider, `API Error: Connection error: ${detail}`, {
        kind: 'connection',
        retryable: true,
        cause: error,
      }),
      context,
    );
  }
  return new ProviderRequestError(
    provider,
    `API Error: ${error instanceof Error ? error.message : String(error)}`,
    { kind: 'stream', retryable: false, cause: error },
  );
}

/** A failure after content reached the caller is final: a retry would stream the same text twice. */
function final(error: ProviderRequestError, context: FailureContext): ProviderRequestError {
  if (!context.streamed || !error.retryable) return error;
  return new ProviderRequestError(
    error.provider,
    `${error.message}; the response was cut off after output had started`,
    {
      kind: error.kind,
      ...(error.status !== undefined ? { status: error.status } : {}),
      retryable: false,
      ...(error.errorType ? { errorType: error.errorType } : {}),
      ...(error.serverMessage ? { serverMessage: error.serverMessage } : {}),
      cause: error.cause,
    },
  );
}

function optionalRetryAfter(value: number | undefined): { retryAfterMs?: number } {
  return value === undefined ? {} : { retryAfterMs: value };
}

/** `{type, message}` from an Anthropic body (`{type:"error", error:{type,message}}`), an OpenAI body's `error`, or a bare string. */
function bodyOf(value: unknown): { type?: string; message?: string } {
  if (typeof value === 'string') return { message: value.slice(0, 500) };
  if (typeof value !== 'object' || value === null) return {};
  const record = value as Record<string, unknown>;
  const inner =
    typeof record['error'] === 'object' && record['error'] !== null
      ? (record['error'] as Record<string, unknown>)
      : record;
  const type =
    typeof inner['type'] === 'string'
      ? inner['type']
      : typeof inner['code'] === 'string'
        ? inner['code']
        : undefined;
  const message =
    typeof inner['message'] === 'string'
      ? inner['message']
      : typeof record['message'] === 'string'
        ? record['message']
        : undefined;
  return {
    ...(type && type !== 'error' ? { type } : {}),
    ...(message ? { message: message.slice(0, 500) } : {}),
  };
}

function stripStatus(message: string, status: number): string {
  return message
    .replace(new RegExp(`^${status} `), '')
    .replace(/ status code \(no body\)$/, '')
    .slice(0, 500);
}

/** What the usual socket error codes mean, for the one-line message. */
const SOCKET_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'connection timed out',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'the server closed the connection',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET… from the error or its causes. */
function socketCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_\w+)$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof Error && cause.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
