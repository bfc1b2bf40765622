/**
 * Line numbers of byte positions, for hints that say where matches are (CONTRACT C12.3,
 * C12.4). Pure: no I/O.
 *
 * @module
 */

import { countNewlines } from "./newlines.ts";

const LF = 0x0a;

/**
 * The distinct lines on which the given byte positions lie, ascending, at most `max` of them.
 *
 * @param bytes The file's bytes.
 * @param positions Byte offsets, ascending.
 * @param max How many lines to report at most.
 * @returns The lines, and whether positions lie on more distinct lines than reported.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { linesOf } from "./match_lines.ts";
 *
 * const bytes = new TextEncoder().encode("a a\nb\na\n");
 * deepEqual(linesOf(bytes, [0, 2, 6], 10), { lines: [1, 3], more: false });
 * ```
 */
export function linesOf(
  bytes: Uint8Array,
  positions: readonly number[],
  max: number,
): { lines: number[]; more: boolean } {
  const lines: number[] = [];
  let line = 1;
  // The first line feed not yet counted in `line` (-1: none left). Kept between positions, so
  // many positions on one long line cost one scan of it, not one each.
  let next = bytes.indexOf(LF);
  for (const at of positions) {
    while (next >= 0 && next < at) {
      line++;
      next = bytes.indexOf(LF, next + 1);
    }
    if (lines[lines.length - 1] === line) continue;
    if (lines.length === max) return { lines, more: true };
    lines.push(line);
  }
  return { lines, more: false };
}

/**
 * The 1-based lines of the first and last byte of `[start, end)` (a `\n` belongs to the line
 * it ends).
 *
 * @param bytes The file's bytes.
 * @param start The first byte.
 * @param end One past the last byte (greater than `start`).
 * @returns The first and last line.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { lineRange } from "./match_lines.ts";
 *
 * deepEqual(lineRange(new TextEncoder().encode("a\nb\nc\n"), 2, 6), { first: 2, last: 3 });
 * ```
 */
export function lineRange(
  bytes: Uint8Array,
  start: number,
  end: number,
): { first: number; last: number } {
  const first = 1 + countNewlines(bytes, 0, start);
  return { first, last: first + (end - 1 > start ? countNewlines(bytes, start, end - 1) : 0) };
}
