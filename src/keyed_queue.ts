// The one per-file queue of `write` and `edit` inside a process (CONTRACT C5.5, C7.2): every
// `createFsTools` over one provider shares it (see `queueOf`), so the policy check, the
// mutation and its observation run one at a time per real file. Across processes the local
// provider's advisory lock (`flock`) takes over. Not private: the tools use it.

/** Runs tasks with the same key one at a time, in arrival order. */
export class KeyedQueue {
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

const queues = new WeakMap<object, KeyedQueue>();

/** The queue shared by everything that mutates files through `owner` (a provider). */
export function queueOf(owner: object): KeyedQueue {
  let queue = queues.get(owner);
  if (!queue) queues.set(owner, queue = new KeyedQueue());
  return queue;
}
