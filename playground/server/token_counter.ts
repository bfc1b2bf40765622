/**
 * How the playground server counts tokens: on its own thread (the in-process default, which
 * tests use), or in a worker thread ({@linkcode workerCounter}, what `deno task playground`
 * uses) so that loading a vocabulary never holds a request back (issue 34 item 9).
 *
 * @module
 */

import { loadTokenizer, type TokenizerName } from "../../tokenizers/mod.ts";
import type { CountAnswer, CountRequest } from "./token_worker.ts";

/** Counts each text with each tokenizer: `result[i][j]` is tokenizer `i` on text `j`. */
export type CountTexts = (
  names: readonly TokenizerName[],
  texts: readonly string[],
) => Promise<number[][]>;

/**
 * Counting on the calling thread: a vocabulary's first load blocks it (fine in tests).
 *
 * @param names The tokenizers.
 * @param texts The texts.
 * @returns The counts.
 */
export const countOnThisThread: CountTexts = async (names, texts) => {
  const counters = await Promise.all(names.map((name) => loadTokenizer(name)));
  return counters.map((count) => texts.map((text) => count(text)));
};

/** A token counter in a worker thread. */
export interface WorkerCounter {
  /** Counts in the worker. */
  count: CountTexts;
  /** Loads the tokenizers in the worker; resolves once they are ready. */
  preload(names: readonly TokenizerName[]): Promise<void>;
  /** Ends the worker. */
  terminate(): void;
}

/**
 * A counter whose worker starts on first use (a count or a preload), so creating it costs
 * nothing before the server listens.
 *
 * @returns The counter.
 */
export function workerCounter(): WorkerCounter {
  let worker: Worker | undefined;
  const pending = new Map<
    number,
    { resolve: (counts: number[][]) => void; reject: (error: Error) => void }
  >();
  let next = 0;
  function started(): Worker {
    if (worker) return worker;
    worker = new Worker(new URL("./token_worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (event: MessageEvent<CountAnswer>) => {
      const answer = event.data;
      const waiting = pending.get(answer.id);
      if (!waiting) return;
      pending.delete(answer.id);
      if ("error" in answer) waiting.reject(new Error(answer.error));
      else waiting.resolve(answer.counts);
    };
    worker.onerror = (event) => {
      // A worker that failed is started again by the next count.
      event.preventDefault();
      worker?.terminate();
      worker = undefined;
      for (const waiting of pending.values()) waiting.reject(new Error(event.message));
      pending.clear();
    };
    return worker;
  }
  const count: CountTexts = (names, texts) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      const request: CountRequest = { id, names: [...names], texts: [...texts] };
      started().postMessage(request);
    });
  return {
    count,
    preload: async (names) => {
      await count(names, [""]);
    },
    terminate: () => {
      worker?.terminate();
      worker = undefined;
    },
  };
}
