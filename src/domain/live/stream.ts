/**
 * The iterator a watch returns: values pushed by the hub's listeners wait in it until the consumer asks.
 * Written by hand rather than as an async generator: a generator suspended in an `await` runs `return()`
 * only once that await settles, while a subscriber that leaves must stop costing anything at once
 * (`return()` ends the stream and runs its cleanup, which removes its listeners, immediately).
 *
 * Nothing waits in it without bound: state streams keep one pending value, merged with the next
 * (`offer`), and event streams end with an error once too many wait (`push` with a limit).
 */
export class LiveStream<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiter: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void } | null = null;
  private failure: { error: unknown } | null = null;
  private ended = false;
  private cleanup: (() => void) | null;
  /**
   * Called for more values when none waits (event streams replay the outbox this way, a page at a time,
   * only as fast as their consumer reads); it pushes what it found and resolves false once there is no
   * more to pull, after which values come only from `push`.
   */
  private pull: (() => Promise<boolean>) | null;

  constructor(cleanup: () => void, pull?: () => Promise<boolean>) {
    this.cleanup = cleanup;
    this.pull = pull ?? null;
  }

  /** Whether the stream has ended (returned, failed or ended by its consumer). */
  get closed(): boolean {
    return this.ended;
  }

  /** Values waiting to be read. */
  get pending(): number {
    return this.queue.length;
  }

  /** Queues `value` after the others. */
  push(value: T): void {
    if (this.ended) return;
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve({ value, done: false });
    } else this.queue.push(value);
  }

  /**
   * Keeps one pending value: `merge` gets the value still waiting (undefined when none) and returns the
   * one to keep, so a consumer that reads late gets the latest state, never a backlog.
   */
  offer(merge: (waiting: T | undefined) => T): void {
    if (this.ended) return;
    if (this.queue.length > 0) this.queue[0] = merge(this.queue[0]);
    else this.push(merge(undefined));
  }

  /** Ends the stream with `error`, thrown to the consumer at its next read; what waited unread is dropped. */
  fail(error: unknown): void {
    if (this.ended) return;
    this.queue.length = 0;
    this.finish();
    if (this.waiter) {
      const { reject } = this.waiter;
      this.waiter = null;
      reject(error);
    } else this.failure = { error };
  }

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      if (this.queue.length > 0) return { value: this.queue.shift()!, done: false };
      if (this.failure) {
        const { error } = this.failure;
        this.failure = null;
        throw error;
      }
      if (this.ended) return { value: undefined, done: true };
      if (!this.pull) break;
      try {
        if (!(await this.pull())) this.pull = null;
      } catch (error) {
        this.fail(error);
      }
    }
    if (this.waiter) throw new Error('A LiveStream is read by one consumer at a time');
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  async return(): Promise<IteratorResult<T>> {
    this.queue.length = 0;
    this.failure = null;
    this.finish();
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve({ value: undefined, done: true });
    }
    return { value: undefined, done: true };
  }

  async throw(error?: unknown): Promise<IteratorResult<T>> {
    await this.return();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private finish(): void {
    this.ended = true;
    const cleanup = this.cleanup;
    this.cleanup = null;
    cleanup?.();
  }
}
