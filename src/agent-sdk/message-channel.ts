/**
 * A one-reader queue between a run's observers (which push as events happen) and the generator
 * that yields them: `take` resolves with the next item, waiting when there is none. A `wake` with
 * nothing queued makes a waiting `take` resolve `undefined`, so the reader can look at why.
 */
export class MessageChannel<T> {
  private readonly items: T[] = [];
  private waiting: ((item: T | undefined) => void) | undefined;

  /** Hands `item` to a waiting `take`, else queues it. */
  push(item: T): void {
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting(item);
    } else this.items.push(item);
  }

  /** Resolves a waiting `take` with `undefined` (nothing when no one waits: the reader looks before it waits). */
  wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(undefined);
  }

  /** The next item, or `undefined` after a `wake`. Queued items come first. */
  take(): Promise<T | undefined> {
    if (this.items.length > 0) return Promise.resolve(this.items.shift());
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** How many items are queued. */
  get size(): number {
    return this.items.length;
  }
}
