// Per-key mutual exclusion inside one process. Private to src/provider.

/** Runs tasks for the same key one at a time, in arrival order. */
export class KeyedLock {
  #tails = new Map<string, Promise<void>>();

  /**
   * Runs `task` once every earlier task of `key` has settled. An abort of `signal` while
   * waiting rejects at once (C7.2), and the queue order of the others is kept.
   */
  async run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => release = resolve);
    const tail = previous.then(() => mine);
    this.#tails.set(key, tail);
    try {
      await untilAborted(previous, signal);
      return await task();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
