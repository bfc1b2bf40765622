/**
 * Ranking of names close to a mistyped one, for "did you mean" hints (CONTRACT C12.1, C12.5).
 * Pure: no I/O.
 *
 * @module
 */

import { editDistance } from "./edit_distance.ts";

/**
 * The schema property a mistyped argument most likely meant (C12.1): one equal to `key` once
 * both drop `_` and `-` and are lower-cased, or within edit distance 2 of it; the smallest
 * distance wins, then the earlier property.
 *
 * @param key The unknown argument.
 * @param properties The schema's properties, in schema order.
 * @returns The property, or `undefined` when none is close.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { closestKey } from "./close_names.ts";
 *
 * equal(closestKey("replaceAll", ["file_path", "old_string", "new_string", "replace_all"]), "replace_all");
 * equal(closestKey("start_line", ["file_path", "offset", "limit"]), undefined);
 * ```
 */
export function closestKey(key: string, properties: readonly string[]): string | undefined {
  const squashed = squash(key);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const property of properties) {
    const distance = editDistance(key, property, 2);
    const close = distance <= 2 || squash(property) === squashed;
    // A squashed-equal name may be further than 2 edits away; it still ranks by its distance.
    const rank = distance <= 2 ? distance : editDistance(key, property, Infinity);
    if (close && rank < bestDistance) {
      best = property;
      bestDistance = rank;
    }
  }
  return best;
}

function squash(name: string): string {
  return name.replace(/[_-]/g, "").toLowerCase();
}

/**
 * The names in a directory close to a missing one (C12.5): the same name ignoring case or
 * extension, or within edit distance 2 of it (lower-cased). Ranked by the edit distance of the
 * lower-cased names, a same-stem name with another extension counting as 1; ties keep the
 * order of `names` (pass them in path order).
 *
 * @param missing The name that was not found.
 * @param names The names that exist, in path order.
 * @param max How many to return at most.
 * @returns Up to `max` names, closest first.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { closeNames } from "./close_names.ts";
 *
 * deepEqual(closeNames("readme.md", ["README.md", "main.ts", "readme.txt"], 3), [
 *   "README.md",
 *   "readme.txt",
 * ]);
 * ```
 */
export function closeNames(missing: string, names: readonly string[], max = 3): string[] {
  const lower = missing.toLowerCase();
  const stem = stemOf(lower);
  const ranked: Array<{ name: string; score: number; at: number }> = [];
  names.forEach((name, at) => {
    if (name === missing) return;
    const other = name.toLowerCase();
    let score = editDistance(lower, other, 2);
    if (score > 1 && stemOf(other) === stem) score = 1;
    if (score <= 2) ranked.push({ name, score, at });
  });
  ranked.sort((a, b) => a.score - b.score || a.at - b.at);
  return ranked.slice(0, max).map((r) => r.name);
}

/** A name without its last extension (`a.test.ts` → `a.test`; `.env` stays `.env`). */
function stemOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}
