// Per-key mutual exclusion inside one process. Private to src/provider.

/** Runs tasks for the same key one at a time, in arrival order. */
export class KeyedLock {
  #tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => release = resolve);
    const tail = previous.then(() => mine);
    this.#tails.set(key, tail);
    try {
      await previous;
      return await task();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
