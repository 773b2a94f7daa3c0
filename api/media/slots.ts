/**
 * A bounded number of jobs at once and a bounded queue behind them (thumbnails, archive listings): a
 * caller checks `full()` and refuses the work when it is, else waits for a slot with `acquire()` and
 * gives it back with `release()`.
 */
export class Slots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxQueue: number,
  ) {}

  /** Every slot is taken and the queue holds as many as it may. */
  full(): boolean {
    return this.running >= this.concurrency && this.waiting.length >= this.maxQueue;
  }

  acquire(): Promise<void> {
    if (this.running < this.concurrency) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiter, so `running` never dips while work is queued. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }

  /** Jobs running and waiting. */
  load(): { active: number; queued: number } {
    return { active: this.running, queued: this.waiting.length };
  }
}
