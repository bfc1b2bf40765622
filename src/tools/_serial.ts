// Per-file serialization of `write` and `edit` inside one `createFsTools` (CONTRACT C5.5).
// Private to src/tools.

/** Runs tasks with the same key one at a time, in arrival order. */
export class Serializer {
  #tails = new Map<string, Promise<unknown>>();

  /**
   * Runs `task` once every earlier task of `key` has settled. An abort of `signal` while
   * waiting rejects at once (C7.2); the task then never runs, and the others keep their order.
   */
  run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    // Only the wait can be cut short: a task that started runs to its end.
    const result = untilAborted(previous, signal).then(task);
    const tail = Promise.all([previous, result.catch(() => {})]).then(() => {});
    this.#tails.set(key, tail);
    tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts. */
function untilAborted(promise: Promise<unknown>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise.then(() => {});
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(() => resolve()).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
