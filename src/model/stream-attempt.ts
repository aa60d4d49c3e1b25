import type { ModelRequest } from './model-client.js';
import { retryVerdict, toProviderError } from './provider-errors.js';
import { withRetries, type RetryOptions } from './retry.js';
import type { ModelStreamEvent } from './stream-events.js';

/** What the streaming providers share: the request timeout and the retry policy. */
export interface StreamingOptions {
  /** Provider name for errors (`anthropic`, `openai`). */
  readonly provider: string;
  /**
   * How long one attempt may go without hearing from the server, in ms: until the response
   * headers, then between two stream events. Default 600 000 (10 minutes, as both SDKs).
   */
  readonly timeoutMs?: number | undefined;
  readonly retry?: RetryOptions | undefined;
}

/** One attempt's tools: the signal to give the SDK, and `emit` for stream events (it also keeps the timeout alive). */
export interface AttemptContext {
  readonly signal: AbortSignal;
  readonly emit: (event: ModelStreamEvent) => void;
  /** Call on every wire event that produces nothing to emit (pings, block stops), to keep the timeout alive. */
  readonly touch: () => void;
}

/** The default request timeout: 10 minutes, as both official SDKs. */
export const DEFAULT_TIMEOUT_MS = 600_000;

/**
 * Runs `attempt` under the retry policy: each attempt gets a signal that fires on the run's abort
 * or when the server stays silent for `timeoutMs`, and its failures are mapped to
 * ProviderRequestError (or AbortError) before the retry verdict. Content that reached
 * `request.onStream` makes a later failure final, so no text is ever streamed twice.
 * @throws ProviderRequestError once retries are used up or for a non-retryable failure; AbortError when the run is aborted.
 */
export async function streamWithRetries<T>(
  request: ModelRequest,
  options: StreamingOptions,
  attempt: (context: AttemptContext) => Promise<T>,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return withRetries(
    async () => {
      const controller = new AbortController();
      let timedOut = false;
      let streamed = false;
      let timer: NodeJS.Timeout | undefined;
      const touch = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
      };
      const onAbort = () => controller.abort();
      request.signal?.addEventListener('abort', onAbort, { once: true });
      if (request.signal?.aborted) controller.abort();
      touch();
      const emit = (event: ModelStreamEvent) => {
        touch();
        if (
          event.type === 'text_delta' ||
          event.type === 'tool_call_start' ||
          event.type === 'tool_call_delta'
        )
          streamed = true;
        try {
          request.onStream?.(event);
        } catch {
          // ModelStreamListener contract: listeners must not throw; one that does is ignored so the request completes.
        }
      };
      try {
        return await attempt({ signal: controller.signal, emit, touch });
      } catch (error) {
        throw toProviderError(error, {
          provider: options.provider,
          aborted: request.signal?.aborted ?? false,
          timedOutAfterMs: timedOut ? timeoutMs : undefined,
          streamed,
        });
      } finally {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
      }
    },
    retryVerdict,
    { ...options.retry, signal: request.signal },
  );
}
