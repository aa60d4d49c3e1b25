/**
 * A signal that fires when `outer` fires or `timeoutMs` passes (a hook's `timeout`), and a way to
 * tell which one it was. `Infinity` = no timeout. `dispose` clears the timer and the link to `outer`.
 */
export function timeoutSignal(outer: AbortSignal, timeoutMs: number): { readonly signal: AbortSignal; timedOut(): boolean; dispose(): void } {
  const controller = new AbortController();
  let expired = false;
  const forward = () => controller.abort();
  if (outer.aborted) controller.abort();
  else outer.addEventListener('abort', forward, { once: true });
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(() => {
        expired = true;
        controller.abort();
      }, Math.min(Math.max(0, timeoutMs), 2 ** 31 - 1))
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
