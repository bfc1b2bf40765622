/**
 * Levenshtein edit distance with a cap, for "did you mean" hints (CONTRACT C12.1, C12.5).
 * Pure: no I/O.
 *
 * @module
 */

/**
 * The Levenshtein distance between two strings (insertions, deletions and substitutions of
 * UTF-16 code units), or `max + 1` as soon as it is known to exceed `max`.
 *
 * @param a One string.
 * @param b The other.
 * @param max The largest distance of interest.
 * @returns The distance, or `max + 1` when it is larger than `max`.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { editDistance } from "./edit_distance.ts";
 *
 * equal(editDistance("offest", "offset", 2), 2);
 * equal(editDistance("path", "file_path", 2), 3);
 * ```
 */
export function editDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = new Array<number>(b.length + 1);
  let current = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      current[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    [previous, current] = [current, previous];
  }
  const distance = previous[b.length];
  return distance > max ? max + 1 : distance;
}
