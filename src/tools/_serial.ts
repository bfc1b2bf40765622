// Per-file serialization of `write` and `edit` inside one `createFsTools` (CONTRACT C5.5).
// Private to src/tools.

/** Runs tasks with the same key one at a time, in arrival order. */
export class Serializer {
  #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(() => {}, () => {});
    this.#tails.set(key, tail);
    tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
