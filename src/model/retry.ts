import { AbortError } from '../errors.js';

/**
 * Retry policy of the real providers: exponential backoff with jitter, a server's `retry-after`
 * respected, delays injectable so tests never sleep for real.
 */
export interface RetryOptions {
  /** Retries after the first attempt (default 4: at most 5 requests). 0 disables retrying. */
  readonly maxRetries?: number;
  /** Delay before the first retry, in ms, before jitter (default 500). Doubles with each retry. */
  readonly baseDelayMs?: number;
  /** Upper bound of a computed delay, in ms (default 30 000). */
  readonly maxDelayMs?: number;
  /** The longest `retry-after` a server may ask for, in ms (default 60 000); asking for more ends the retries. */
  readonly maxRetryAfterMs?: number;
  /** Waits `ms`; rejects with AbortError when `signal` fires. Default: a real timer. Tests pass a fake. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for jitter (default Math.random). */
  readonly random?: () => number;
  /** Told before each retry: which retry (1-based), the delay in ms and the error that caused it. Must not throw. */
  readonly onRetry?: (retry: {
    readonly attempt: number;
    readonly delayMs: number;
    readonly error: unknown;
  }) => void;
}

/** Whether a failure may be retried, and after how long the server asked to wait (ms), if it did. */
export interface RetryVerdict {
  readonly retry: boolean;
  readonly retryAfterMs?: number | undefined;
}

const DEFAULTS = { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 };

/**
 * The delay before retry number `attempt` (1-based), in ms: the server's `retryAfterMs` when it gave
 * one, else `baseDelayMs · 2^(attempt-1)` capped at `maxDelayMs`, of which a random part of up to
 * half is taken off ("equal jitter"), so that many clients that failed together do not retry together.
 */
export function retryDelayMs(
  attempt: number,
  retryAfterMs: number | undefined,
  options: RetryOptions = {},
): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return retryAfterMs;
  const exponential = Math.min(
    (options.baseDelayMs ?? DEFAULTS.baseDelayMs) * 2 ** (attempt - 1),
    options.maxDelayMs ?? DEFAULTS.maxDelayMs,
  );
  const random = (options.random ?? Math.random)();
  return Math.round(exponential / 2 + (exponential / 2) * (1 - random));
}

/**
 * Runs `operation` (given the 0-based attempt number) and retries it while `verdict(error)` says
 * so, up to `maxRetries` times, waiting `retryDelayMs` between attempts. A server asking to wait
 * longer than `maxRetryAfterMs` ends the retries at once.
 * @throws the last attempt's error when it is not retryable or retries are used up;
 *   AbortError when `signal` fires while waiting (an abort during an attempt is the operation's to report).
 */
export async function withRetries<T>(
  operation: (attempt: number) => Promise<T>,
  verdict: (error: unknown) => RetryVerdict,
  options: RetryOptions & { readonly signal?: AbortSignal | undefined } = {},
): Promise<T> {
  const maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
  const sleep = options.sleep ?? abortableSleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      const { retry, retryAfterMs } = verdict(error);
      if (!retry || attempt >= maxRetries || options.signal?.aborted) throw error;
      if (retryAfterMs !== undefined && retryAfterMs > (options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs))
        throw error;
      const delayMs = retryDelayMs(attempt + 1, retryAfterMs, options);
      options.onRetry?.({ attempt: attempt + 1, delayMs, error });
      await sleep(delayMs, options.signal);
    }
  }
}

/**
 * Reads a `retry-after-ms` (milliseconds) or `retry-after` (seconds, or an HTTP date) header, in ms.
 * Returns undefined when neither is present or readable. `now` is for tests.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | undefined {
  const milliseconds = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms` with a real timer; rejects with AbortError as soon as `signal` fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
