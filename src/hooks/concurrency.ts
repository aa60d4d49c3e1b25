/**
 * A small counting semaphore: at most `limit` tasks run at once, the others wait in arrival order.
 * Used for the per-event concurrency limit of hook handlers (DESIGN "Ordering and concurrency":
 * handlers still start in settings order and their answers are still merged in settings order).
 */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  /** `limit` ≥ 1; `Infinity` = no limit. */
  constructor(private readonly limit: number) {}

  /** Runs `task` when a slot is free; resolves or rejects with it. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((start) => this.waiting.push(start));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** `items` mapped by `task` with at most `limit` running at once; results in the order of `items`. */
export function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  if (!(limit < items.length)) return Promise.all(items.map(task));
  const limiter = new Limiter(limit);
  return Promise.all(items.map((item) => limiter.run(() => task(item))));
}
