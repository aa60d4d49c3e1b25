/**
 * Reads `stream` to its end, handing each part to `onPart`, and stops as soon as `signal` fires:
 * the reader is cancelled (which tells the provider to drop its request) and the read rejects with
 * the signal's reason, so a model that does not watch the signal itself still stops (the caller
 * tells a timeout from a user's abort). What `onPart`
 * throws cancels the stream and rejects the read with it.
 */
export async function readParts<T>(
  stream: ReadableStream<T>,
  signal: AbortSignal,
  onPart: (part: T) => void,
): Promise<void> {
  const reader = stream.getReader();
  const aborted = new Promise<never>((_resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // Only the race below observes `aborted`; without a handler its rejection would be unhandled when the read ends first.
  aborted.catch(() => undefined);
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) return;
      onPart(value);
    }
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
}

/** `promise`, or the signal's reason as soon as `signal` fires (for a provider call that ignores the signal). */
export function untilAborted<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(promise).then(
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

/** What an aborted signal says: its reason (a DOMException `AbortError` when none was given). */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
