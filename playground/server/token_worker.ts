/**
 * The playground's token counting, in a worker thread: loading a vocabulary parses megabytes of
 * JSON synchronously (a second or more), which on the server's thread would hold every request
 * back, the first page's too (issue 34 item 9). Here it holds back nothing but the counts.
 *
 * Messages in: `{ id, names, texts }`; out: `{ id, counts }` (`counts[i][j]`: tokenizer `i`,
 * text `j`) or `{ id, error }`.
 *
 * @module
 */

import { loadTokenizer, type TokenizerName } from "../../tokenizers/mod.ts";

/** A request to the worker. */
export interface CountRequest {
  /** Echoed in the answer. */
  id: number;
  /** The tokenizers. */
  names: TokenizerName[];
  /** The texts to count with each. */
  texts: string[];
}

/** The worker's answer. */
export type CountAnswer = { id: number; counts: number[][] } | { id: number; error: string };

/** The worker's side of the channel (the global scope of a worker). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<CountRequest>) => void) | null;
  postMessage(message: CountAnswer): void;
}

const scope = globalThis as unknown as WorkerScope;

scope.onmessage = async (event) => {
  const { id, names, texts } = event.data;
  try {
    const counters = await Promise.all(names.map((name) => loadTokenizer(name)));
    scope.postMessage({ id, counts: counters.map((count) => texts.map((text) => count(text))) });
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
