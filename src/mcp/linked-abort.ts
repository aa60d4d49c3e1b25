/** A signal of its own that follows `parent`, and the way to stop following it. */
export interface LinkedAbort {
  readonly signal: AbortSignal;
  /** Removes the listener on `parent`; call it when the work settles. Safe to call twice. */
  release(): void;
}

/**
 * A fresh AbortSignal aborted when `parent` aborts (at once if it already has), with the one
 * listener it adds to `parent` removed by `release()`. For handing a long-lived signal (a run's) to
 * code that adds a listener per request and never removes it.
 */
export function linkedAbort(parent: AbortSignal | undefined): LinkedAbort {
  const controller = new AbortController();
  if (!parent) return { signal: controller.signal, release: () => undefined };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', onAbort) };
}
