/**
 * Token counts that neither stall the server nor grow with the text: a result is counted in
 * chunks of whole lines, yielding to other requests between chunks, and only its first
 * {@linkcode MAX_COUNTED_CHARS} characters are counted exactly; the rest is extrapolated at the
 * same rate and the counts are marked estimated.
 *
 * @module
 */

import { loadTokenizer, type TokenizerName } from "../../tokenizers/mod.ts";
import type { CountTexts } from "./token_counter.ts";

/** Characters counted exactly; beyond them the count is extrapolated. */
export const MAX_COUNTED_CHARS = 1024 * 1024;

/** Characters per chunk (cut at the last line break inside it, when there is one). */
export const CHUNK_CHARS = 64 * 1024;

/** Counts per tokenizer, and whether they are extrapolated. */
export interface BoundedCounts {
  /** Tokens per tokenizer. */
  tokens: Record<string, number>;
  /** `true` when only the first {@linkcode MAX_COUNTED_CHARS} characters were counted. */
  estimated: boolean;
}

/**
 * Counts a text's tokens with each tokenizer, bounded in time per step and in work overall.
 *
 * @param text The text.
 * @param names The tokenizers.
 * @param options The bounds (tests lower them).
 * @returns The counts.
 */
export async function countTokensBounded(
  text: string,
  names: readonly TokenizerName[],
  options: { maxChars?: number; chunkChars?: number; count?: CountTexts } = {},
): Promise<BoundedCounts> {
  const maxChars = options.maxChars ?? MAX_COUNTED_CHARS;
  const chunkChars = options.chunkChars ?? CHUNK_CHARS;
  const chunks: string[] = [];
  let at = 0;
  while (at < text.length && at < maxChars) {
    let end = Math.min(text.length, at + chunkChars);
    if (end < text.length) {
      const lineEnd = text.lastIndexOf("\n", end - 1);
      if (lineEnd >= at) end = lineEnd + 1;
    }
    chunks.push(text.slice(at, end));
    at = end;
  }
  const sums = names.map(() => 0);
  if (options.count) {
    // Another thread counts: this one stays free.
    const counts = await options.count(names, chunks);
    counts.forEach((perChunk, i) => (sums[i] = perChunk.reduce((a, b) => a + b, 0)));
  } else {
    const counters = await Promise.all(names.map(loadTokenizer));
    for (const [k, chunk] of chunks.entries()) {
      counters.forEach((count, i) => (sums[i] += count(chunk)));
      // Let other requests in between chunks.
      if (k < chunks.length - 1) await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  const estimated = at < text.length;
  const scale = estimated ? text.length / at : 1;
  return {
    tokens: Object.fromEntries(names.map((name, i) => [name, Math.round(sums[i] * scale)])),
    estimated,
  };
}
