import { describeError } from '../../errors.js';
import type { HookEventName } from '../event-names.js';
import type { HandlerOrigin, HandlerOutcome } from '../handler.js';
import type { HttpHandlerConfig } from '../settings/settings-schema.js';
import { readExternalOutput, withoutByteOrderMark } from '../read-external-output.js';
import { timeoutSignal } from './deadline.js';

/**
 * `type: "http"` hooks: the event JSON is POSTed to `url`; a 2xx answer whose body is a
 * JSON object is the hook's output (same schema as a command hook's stdout); an empty or non-JSON
 * 2xx body is no opinion (it reaches no one, as in the reference); any other status, a connection
 * error or an output that breaks the event's contract is a non-blocking failure unless
 * `onFailure: "block"`. There is no exit-2 equivalent: an http hook blocks through its JSON.
 */

/** How one http hook call went, before interpretation. `status` is undefined when no answer came. */
export interface HttpResult {
  readonly status?: number;
  readonly body: string;
  readonly error?: string;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  readonly attempts: number;
  readonly durationMs: number;
}

const MAX_BODY_CHARS = 10 * 1024 * 1024;
const BACKOFF_MS = [250, 500, 1000, 2000, 2000];

/**
 * Header values with `$VAR` / `${VAR}` replaced from `env`, but only for names listed in
 * `allowedEnvVars`; any other reference becomes the empty string, so a settings file cannot send
 * arbitrary secrets of the environment to a URL.
 */
export function interpolateHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  allowed: readonly string[] | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const names = new Set(allowed ?? []);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    out[key] = value.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (_match, braced: string | undefined, bare: string | undefined) => {
        const name = braced ?? bare ?? '';
        return names.has(name) ? (env[name] ?? '') : '';
      },
    );
  }
  return out;
}

/**
 * POSTs `body` to the hook's URL. Up to `retries` more attempts follow a connection error, an
 * HTTP 429 or a 5xx (after 250 ms, 500 ms, 1 s, 2 s, 2 s), all inside `timeoutMs` (the handler's
 * `timeout`); a 4xx or a 2xx is final. Never rejects.
 */
export async function postHttpHook(
  config: HttpHandlerConfig,
  body: string,
  options: {
    readonly signal: AbortSignal;
    readonly timeoutMs: number;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly traceparent?: string;
  },
): Promise<HttpResult> {
  const started = performance.now();
  const limit = timeoutSignal(options.signal, options.timeoutMs);
  // `traceparent` (the hook's span, when the run is traced) lets the server's spans join the trace.
  const headers = {
    'content-type': 'application/json',
    ...(options.traceparent !== undefined ? { traceparent: options.traceparent } : {}),
    ...interpolateHeaders(config.headers, config.allowedEnvVars, options.env),
  };
  const retries = config.retries ?? 0;
  const done = (result: Omit<HttpResult, 'timedOut' | 'aborted' | 'durationMs'>): HttpResult => ({
    ...result,
    timedOut: limit.timedOut(),
    aborted: !limit.timedOut() && options.signal.aborted,
    durationMs: Math.round(performance.now() - started),
  });
  try {
    for (let attempt = 1; ; attempt++) {
      let result: Omit<HttpResult, 'timedOut' | 'aborted' | 'durationMs'>;
      try {
        const response = await fetch(config.url, { method: 'POST', headers, body, signal: limit.signal });
        const text = await response.text();
        result = {
          status: response.status,
          body: text.length > MAX_BODY_CHARS ? text.slice(0, MAX_BODY_CHARS) : text,
          attempts: attempt,
        };
      } catch (error) {
        result = { body: '', error: connectionError(error), attempts: attempt };
      }
      const retryable = result.status === undefined || result.status === 429 || result.status >= 500;
      if (!retryable || attempt > retries || limit.signal.aborted) return done(result);
      if (!(await sleep(BACKOFF_MS[attempt - 1] ?? 2000, limit.signal))) return done(result);
    }
  } finally {
    limit.dispose();
  }
}

/**
 * Applies the http protocol described at the top of this file to one result. `raw` keeps the
 * status and body for `hookloop hooks test`. Never throws.
 */
export function interpretHttpResult(
  event: HookEventName,
  origin: HandlerOrigin,
  result: HttpResult,
  onFailure: 'block' | 'ignore' | undefined,
): HandlerOutcome {
  const failClosed = onFailure === 'block';
  const base = {
    origin,
    durationMs: result.durationMs,
    raw: { ...(result.status !== undefined ? { status: result.status } : {}), body: result.body },
  };
  const tries = result.attempts > 1 ? ` (after ${result.attempts} attempts)` : '';
  if (result.timedOut)
    return { ...base, status: 'timeout', output: {}, error: `timed out${tries}`, failClosed };
  if (result.aborted) return { ...base, status: 'failed', output: {}, error: 'aborted', failClosed: false };
  if (result.status === undefined)
    return {
      ...base,
      status: 'failed',
      output: {},
      error: `${result.error ?? 'no answer'}${tries}`,
      failClosed,
    };
  if (result.status < 200 || result.status > 299) {
    const excerpt = result.body.trim().slice(0, 200);
    return {
      ...base,
      status: 'failed',
      output: {},
      error: `HTTP ${result.status}${excerpt ? `: ${excerpt}` : ''}${tries}`,
      failClosed,
    };
  }
  const text = withoutByteOrderMark(result.body).trim();
  if (!text.startsWith('{')) return { ...base, status: 'ok', output: {}, failClosed: false };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ...base,
      status: 'failed',
      output: {},
      error: `invalid JSON in the response body: ${describeError(error)}`,
      failClosed: false,
    };
  }
  const read = readExternalOutput(event, value);
  if (!read.ok) return { ...base, status: 'failed', output: {}, error: read.error, failClosed: false };
  return {
    ...base,
    status: 'ok',
    output: read.output as Record<string, unknown>,
    failClosed: false,
    ...(read.warning ? { warning: read.warning } : {}),
  };
}

function connectionError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}: ${cause.message ?? describeError(error)}`;
  return describeError(error);
}

/** Waits `ms`; false when `signal` fired first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
