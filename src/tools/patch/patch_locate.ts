/**
 * Where a V4A patch's hunks apply (CONTRACT C16.2), as OpenAI's reference implementation finds
 * them: each hunk's old lines are sought from where the previous hunk ended, first exactly,
 * then ignoring trailing whitespace, then ignoring leading and trailing whitespace; an anchor
 * (`@@ def foo`) moves the search below the line it names; `*** End of File` looks at the end
 * first. Pure: no I/O, no text for a model.
 *
 * @module
 */

import type { PatchHunk, PatchLine } from "./patch_parse.ts";

/** Where one hunk applies: it replaces `length` lines from line index `start` (0-based). */
export interface HunkPlacement {
  start: number;
  length: number;
  /** The hunk's lines as applied (a trailing empty context line may have been dropped). */
  lines: PatchLine[];
}

/** Why a hunk could not be placed. */
export type PatchLocateProblem =
  | { kind: "anchor"; anchor: string }
  | { kind: "lines"; oldLines: string[] };

/** A hunk that could not be placed: its 0-based index among the update's hunks and why. */
export class PatchLocateError extends Error {
  readonly hunk: number;
  readonly problem: PatchLocateProblem;

  constructor(hunk: number, problem: PatchLocateProblem) {
    super(`hunk ${hunk + 1}: ${problem.kind}`);
    this.name = "PatchLocateError";
    this.hunk = hunk;
    this.problem = problem;
  }
}

type Compare = (line: string, pattern: string) => boolean;

const PASSES: readonly Compare[] = [
  (line, pattern) => line === pattern,
  (line, pattern) => line.trimEnd() === pattern.trimEnd(),
  (line, pattern) => line.trim() === pattern.trim(),
];

/**
 * The first index at or after `start` where `pattern` occurs in `lines`, trying each pass of
 * the reference implementation over the whole range before the next; with `endOfFile`, the
 * position that ends the file is tried first.
 *
 * @param lines The file's lines, without line breaks.
 * @param pattern The lines sought.
 * @param start The first index a match may start at.
 * @param endOfFile Whether the pattern should end the file.
 * @returns The index, or -1.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { seekLines } from "./patch_locate.ts";
 *
 * equal(seekLines(["a", "  b  ", "c"], ["b", "c"], 0, false), 1);
 * ```
 */
export function seekLines(
  lines: readonly string[],
  pattern: readonly string[],
  start: number,
  endOfFile: boolean,
): number {
  if (pattern.length === 0) return start;
  const last = lines.length - pattern.length;
  if (last < 0) return -1;
  for (const same of PASSES) {
    if (endOfFile && matchesAt(lines, pattern, last, same)) return last;
    for (let i = start; i <= last; i++) {
      if (matchesAt(lines, pattern, i, same)) return i;
    }
  }
  return -1;
}

function matchesAt(
  lines: readonly string[],
  pattern: readonly string[],
  at: number,
  same: Compare,
): boolean {
  for (let j = 0; j < pattern.length; j++) {
    if (!same(lines[at + j], pattern[j])) return false;
  }
  return true;
}

/** The lines a hunk expects to find (context and removed), in order. */
export function oldLinesOf(lines: readonly PatchLine[]): string[] {
  return lines.filter((line) => line.kind !== "+").map((line) => line.text);
}

/**
 * Places every hunk of an update, in order; hunks never overlap and never go backwards.
 *
 * @param lines The file's lines, without line breaks.
 * @param hunks The update's hunks.
 * @returns One placement per hunk, ascending.
 * @throws {PatchLocateError} For the first hunk that cannot be placed.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { locateHunks } from "./patch_locate.ts";
 *
 * const [placed] = locateHunks(["a", "b"], [{
 *   lines: [{ kind: "-", text: "b" }, { kind: "+", text: "c" }],
 *   endOfFile: false,
 *   patchLine: 3,
 * }]);
 * equal(placed.start, 1);
 * ```
 */
export function locateHunks(
  lines: readonly string[],
  hunks: readonly PatchHunk[],
): HunkPlacement[] {
  const placements: HunkPlacement[] = [];
  let from = 0;
  hunks.forEach((hunk, index) => {
    if (hunk.anchor !== undefined) {
      const at = seekLines(lines, [hunk.anchor], from, false);
      if (at < 0) throw new PatchLocateError(index, { kind: "anchor", anchor: hunk.anchor });
      from = at + 1;
    }
    const placement = place(lines, hunk, from);
    if (!placement) {
      throw new PatchLocateError(index, { kind: "lines", oldLines: oldLinesOf(hunk.lines) });
    }
    placements.push(placement);
    from = placement.start + placement.length;
  });
  return placements;
}

/** One hunk's placement at or after `from`, or null. */
function place(lines: readonly string[], hunk: PatchHunk, from: number): HunkPlacement | null {
  let body = hunk.lines;
  let old = oldLinesOf(body);
  if (old.length === 0) {
    // Only additions: below the anchor when there is one, else at the end of the file.
    const start = hunk.anchor !== undefined && !hunk.endOfFile ? from : lines.length;
    return { start, length: 0, lines: body };
  }
  let start = seekLines(lines, old, from, hunk.endOfFile);
  if (start < 0 && old.at(-1) === "" && body.at(-1)?.kind !== "+") {
    // A final empty context or removed line often stands for the file's last line break.
    body = body.slice(0, -1);
    old = old.slice(0, -1);
    start = seekLines(lines, old, from, hunk.endOfFile);
  }
  return start < 0 ? null : { start, length: old.length, lines: body };
}
