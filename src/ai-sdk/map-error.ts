import { isRetryableStatus, ProviderRequestError } from '../model/provider-errors.js';
import { parseRetryAfter } from '../model/retry.js';

/** The fields of the AI SDK's `APICallError` the adapter reads (matched by shape: the class is never imported). */
interface ApiCallErrorShape {
  readonly name: string;
  readonly message: string;
  readonly statusCode?: number;
  readonly responseHeaders?: Record<string, string>;
  readonly responseBody?: string;
  readonly data?: unknown;
  readonly isRetryable: boolean;
  readonly cause?: unknown;
}

/**
 * What an AI SDK model threw from `doStream` or reported in an `error` stream part, in the terms
 * hookloop's provider errors are made from (`toProviderError` finishes the mapping, including
 * aborts and timeouts): an `APICallError` with a status becomes an `http` ProviderRequestError,
 * retried by hookloop's status rule (408, 409, 425, 429, 5xx) after the server's `retry-after`;
 * one without an error status (no answer, or a stream that broke off) becomes its cause, a
 * connection failure;
 * a provider's parse or validation error of a stream chunk is a malformed-stream error; an error
 * object the server sent inside the stream (`{ message, type }`) is an error event, retried when
 * its type is transient (overloaded, server error); a stream that ended before its finish reason
 * is a dropped connection. Anything else is returned as it is. Never throws.
 */
export function fromAiSdkError(error: unknown, provider: string): unknown {
  if (isApiCallError(error)) {
    // No answer, or a good answer whose body then failed (a dropped stream): the cause says what happened.
    if (error.statusCode === undefined || error.statusCode < 400) return error.cause ?? error;
    return httpError(error, error.statusCode, provider);
  }
  if (error instanceof Error) {
    if (error.name === 'AI_JSONParseError' || error.name === 'AI_TypeValidationError')
      return new ProviderRequestError(
        provider,
        `API Error: malformed stream event from the provider (${firstLine(error.message)})`,
        { kind: 'stream', retryable: false, cause: error },
      );
    if (/ended without a finish reason/i.test(error.message))
      return new ProviderRequestError(
        provider,
        'API Error: Connection error: the stream ended before its finish reason',
        { kind: 'connection', retryable: true, cause: error },
      );
    return error;
  }
  if (typeof error === 'object' && error !== null && 'message' in error)
    // An error chunk of the provider's own format inside a 200 stream: the shape toProviderError reads as an error event.
    return { name: 'APIError', error, message: String((error as { message: unknown }).message) };
  return new ProviderRequestError(provider, `API Error: ${String(error)}`, {
    kind: 'stream',
    retryable: false,
  });
}

function isApiCallError(error: unknown): error is ApiCallErrorShape {
  if (typeof error !== 'object' || error === null) return false;
  const record = error as Record<string, unknown>;
  return record['name'] === 'AI_APICallError' && typeof record['isRetryable'] === 'boolean';
}

function httpError(error: ApiCallErrorShape, status: number, provider: string): ProviderRequestError {
  const body = errorBody(error.data) ?? errorBody(parseJson(error.responseBody)) ?? {};
  const serverMessage = (body.message ?? error.message).slice(0, 500) || undefined;
  const headers = error.responseHeaders ?? {};
  const retryAfterMs = parseRetryAfter({
    get: (name) => headers[name] ?? headers[name.toLowerCase()] ?? null,
  });
  return new ProviderRequestError(provider, `API Error: ${status} ${serverMessage ?? '(no message)'}`, {
    kind: 'http',
    status,
    retryable: isRetryableStatus(status),
    ...(body.type ? { errorType: body.type } : {}),
    ...(serverMessage ? { serverMessage } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    cause: error,
  });
}

/**
 * `{ type, message }` of an error body: OpenAI's and Anthropic's `{ error: { type | code, message } }`,
 * Google's `{ error: { status, message } }`, or a bare `{ message }`.
 */
function errorBody(value: unknown): { type?: string; message?: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const inner = typeof record['error'] === 'object' && record['error'] !== null ? record['error'] : record;
  const fields = inner as Record<string, unknown>;
  const type = [fields['type'], fields['code'], fields['status']].find(
    (candidate): candidate is string => typeof candidate === 'string' && candidate !== 'error',
  );
  const message = typeof fields['message'] === 'string' ? fields['message'] : undefined;
  if (type === undefined && message === undefined) return undefined;
  return { ...(type ? { type } : {}), ...(message ? { message } : {}) };
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text };
  }
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

/**
 * The error for a failed stream whose response was a JSON or HTML document (a proxy's page, a
 * server that ignored `stream: true`): not retried, since the same request gets the same answer.
 * Undefined for any other content type, event streams and the other streaming formats providers
 * use (NDJSON, AWS event streams) included. The provider package has read the body, so only its
 * type can be named.
 */
export function nonStreamBody(
  provider: string,
  contentType: string | undefined,
): ProviderRequestError | undefined {
  const mime = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mime !== 'application/json' && mime !== 'text/html') return undefined;
  return new ProviderRequestError(
    provider,
    `API Error: the server sent a non-stream body to a streaming request (content-type ${mime})`,
    { kind: 'stream', retryable: false },
  );
}
