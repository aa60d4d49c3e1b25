/**
 * A small scheduler for scenario runs: up to `slots` runs at once, and exclusive runs (scenarios
 * that measure timing: sleeping hooks, timeouts) alone, so a busy machine does not change their outcome.
 */
export class RunSlots {
  private active = 0;
  private exclusiveActive = false;
  private readonly waiting: { exclusive: boolean; start: () => void }[] = [];

  constructor(private readonly slots: number) {}

  /** Runs `task` when a slot is free (all slots when `exclusive`); resolves or rejects with it. */
  async run<T>(exclusive: boolean, task: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.waiting.push({ exclusive, start });
      this.next();
    });
    try {
      return await task();
    } finally {
      this.active--;
      this.exclusiveActive = false;
      this.next();
    }
  }

  private next(): void {
    // First come, first served: an exclusive run waits for the running ones to finish and holds back later ones.
    while (this.waiting.length > 0 && !this.exclusiveActive) {
      const head = this.waiting[0]!;
      if (head.exclusive ? this.active > 0 : this.active >= this.slots) return;
      this.waiting.shift();
      this.active++;
      this.exclusiveActive = head.exclusive;
      head.start();
    }
  }
}
