/**
 * The block of a file that comes closest to a hunk that was not found (CONTRACT C16.2), so the
 * failure can say where the model's lines nearly are and which line there differs. Pure: no I/O,
 * no text for a model.
 *
 * @module
 */

import { editDistance } from "../../text/edit_distance.ts";

/** The closest block: its 1-based first and last line, and its first line that differs. */
export interface ClosestBlock {
  first: number;
  last: number;
  /** The 1-based line of the block that differs from the hunk first. */
  line: number;
  /** That line's text, as the file has it (without its line break). */
  text: string;
}

/**
 * The window of `fileLines`, as long as `oldLines`, that shares the most lines with it
 * (compared without leading and trailing whitespace; the first such window wins); for a
 * one-line hunk, or when no window shares a line, the single line within edit distance of a
 * third of its length of the hunk's line (the nearest, then the first). `undefined` when
 * nothing comes close, or when the lines are all there (the hunk failed for where it stands).
 *
 * @param fileLines The file's lines, without their line breaks.
 * @param oldLines The hunk's context and removed lines.
 * @returns The closest block, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { closestBlock } from "./closest_block.ts";
 *
 * deepEqual(
 *   closestBlock(["a", "function f() {", "  return 1;", "}"], ["function f() {", "  return 2;", "}"]),
 *   { first: 2, last: 4, line: 3, text: "  return 1;" },
 * );
 * ```
 */
export function closestBlock(
  fileLines: readonly string[],
  oldLines: readonly string[],
): ClosestBlock | undefined {
  const k = oldLines.length;
  if (k === 0 || fileLines.length === 0) return undefined;
  const file = fileLines.map((line) => line.trim());
  const old = oldLines.map((line) => line.trim());
  if (k > 1 && k <= file.length) {
    let best = 0;
    let start = -1;
    for (let s = 0; s + k <= file.length; s++) {
      let score = 0;
      for (let i = 0; i < k; i++) if (file[s + i] === old[i]) score++;
      if (score > best) [best, start] = [score, s];
    }
    // Every line found together: the hunk failed for where it stands (an anchor, the end of
    // the file), not for its text, so no block is "close".
    if (best === k) return undefined;
    if (start >= 0) {
      const i = old.findIndex((line, i) => file[start + i] !== line);
      return { first: start + 1, last: start + k, line: start + i + 1, text: fileLines[start + i] };
    }
  }
  // One line: the nearest by edit distance, within a third of its length.
  const wanted = old.find((line) => line !== "") ?? "";
  const offset = old.indexOf(wanted);
  const max = Math.floor(wanted.length / 3);
  if (max === 0) return undefined;
  let nearest = max + 1;
  let at = -1;
  for (let j = 0; j < file.length; j++) {
    // The line itself is no hint (it failed for where it stands, as above).
    if (file[j] === wanted) return undefined;
    const distance = editDistance(file[j], wanted, Math.min(max, nearest - 1));
    if (distance < nearest) [nearest, at] = [distance, j];
  }
  if (at < 0) return undefined;
  const first = Math.max(0, at - offset);
  const last = Math.min(fileLines.length, first + k) - 1;
  return { first: first + 1, last: last + 1, line: at + 1, text: fileLines[at] };
}
