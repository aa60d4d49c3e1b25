import { describeError } from '../../errors.js';
import type { HandlerOrigin, HandlerOutcome } from '../handler.js';
import type { HookServices } from '../hook-services.js';
import { failedOutcome } from './model-verdict.js';

/**
 * A signal that fires when `outer` fires or `timeoutMs` passes (a hook's `timeout`), and a way to
 * tell which one it was. `Infinity` = no timeout. `dispose` clears the timer and the link to `outer`.
 */
export function timeoutSignal(
  outer: AbortSignal,
  timeoutMs: number,
): { readonly signal: AbortSignal; timedOut(): boolean; dispose(): void } {
  const controller = new AbortController();
  let expired = false;
  const forward = () => controller.abort();
  if (outer.aborted) controller.abort();
  else outer.addEventListener('abort', forward, { once: true });
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(
        () => {
          expired = true;
          controller.abort();
        },
        Math.min(Math.max(0, timeoutMs), 2 ** 31 - 1),
      )
    : undefined;
  timer?.unref();
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose: () => {
      clearTimeout(timer);
      outer.removeEventListener('abort', forward);
    },
  };
}

/**
 * Resolves with `work`, or rejects with `signal.reason` as soon as `signal` fires, whichever comes
 * first: a hook's timeout holds even when the work ignores its signal (a slow provider).
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/** What a model-backed hook (prompt, agent) gets from the dispatcher. */
export interface ModelHookContext {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly services: HookServices | undefined;
}

/**
 * Runs one model-backed hook attempt under its timeout and maps how it ended: past `timeoutMs` →
 * `timeout`; the run aborted → a non-blocking `aborted` failure; any other rejection → a failure
 * named `<what> failed: <error>` (blocking only with `onFailure: "block"`). `attempt` gets the
 * deadline's signal and a clock in ms. Never rejects.
 */
export async function runWithDeadline(
  origin: HandlerOrigin,
  onFailure: 'block' | 'ignore' | undefined,
  context: ModelHookContext,
  what: string,
  attempt: (signal: AbortSignal, elapsedMs: () => number) => Promise<HandlerOutcome>,
): Promise<HandlerOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const limit = timeoutSignal(context.signal, context.timeoutMs);
  try {
    return await untilAborted(attempt(limit.signal, elapsed), limit.signal);
  } catch (error) {
    if (limit.timedOut())
      return failedOutcome(
        origin,
        'timeout',
        `timed out after ${context.timeoutMs} ms`,
        onFailure,
        elapsed(),
      );
    if (context.signal.aborted) return failedOutcome(origin, 'failed', 'aborted', undefined, elapsed());
    return failedOutcome(origin, 'failed', `${what} failed: ${describeError(error)}`, onFailure, elapsed());
  } finally {
    limit.dispose();
  }
}
