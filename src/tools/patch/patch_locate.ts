/**
 * Where a V4A patch's hunks apply (CONTRACT C16.2), as OpenAI's reference implementation finds
 * them: each hunk's old lines are sought from the cursor at four levels, each over the whole
 * range before the next (exact; ignoring trailing whitespace; ignoring leading and trailing
 * whitespace; that with typographic punctuation read as ASCII); each `@@ <anchor>` line moves
 * the cursor below the line it names; `*** End of File` matches only at the end; a hunk without
 * an anchor that matches at more than one place is refused, never applied at a guess. Pure: no
 * I/O, no text for a model.
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
  | { kind: "lines"; oldLines: string[] }
  /** The hunk has no anchor and its lines occur at each of these 1-based lines (C16.2). */
  | { kind: "ambiguous"; lines: number[] };

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

/** Typographic punctuation the fourth level reads as ASCII (C16.2), as the reference does. */
const TYPOGRAPHIC =
  /[\u2010-\u2015\u2212\u2018-\u201b\u201c-\u201f\u00a0\u2002-\u200a\u202f\u205f\u3000]/g;

function asAscii(char: string): string {
  const code = char.charCodeAt(0);
  if ((code >= 0x2010 && code <= 0x2015) || code === 0x2212) return "-";
  if (code >= 0x2018 && code <= 0x201b) return "'";
  if (code >= 0x201c && code <= 0x201f) return '"';
  return " ";
}

/** A line trimmed, with typographic dashes, quotes and spaces read as ASCII. */
export function normalizeLine(line: string): string {
  return line.trim().replace(TYPOGRAPHIC, asAscii);
}

/** What each of the four levels compares, strictest first: two lines match when these agree. */
const LEVELS: readonly ((line: string) => string)[] = [
  (line) => line,
  (line) => line.trimEnd(),
  (line) => line.trim(),
  normalizeLine,
];

/**
 * A file's lines as each level reads them, computed once per level when first needed, so a
 * search over many hunks maps every line at most once per level.
 */
export class LineKeys {
  readonly lines: readonly string[];
  #levels: (string[] | undefined)[] = [];

  constructor(lines: readonly string[]) {
    this.lines = lines;
    this.#levels[0] = lines as string[];
  }

  /** The lines as level `level` (0–3) reads them. */
  at(level: number): readonly string[] {
    return this.#levels[level] ??= this.lines.map(LEVELS[level]);
  }
}

/**
 * Every index at or after `start` where `pattern` occurs in `lines`, at the first of the four
 * levels that finds it at all; with `endOfFile`, only the index that ends the file is tried.
 *
 * @param lines The file's lines, without line breaks (or their {@linkcode LineKeys}).
 * @param pattern The lines sought (not empty).
 * @param start The first index a match may start at.
 * @param endOfFile Whether the pattern must end the file.
 * @returns The indexes, ascending; empty when none.
 *
 * @example Usage
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { seekAll } from "./patch_locate.ts";
 *
 * deepEqual(seekAll(["a", "b", "a", "b"], ["a", "b"], 0, false), [0, 2]);
 * deepEqual(seekAll(["a\u2013b"], ["a-b"], 0, false), [0]);
 * ```
 */
export function seekAll(
  lines: readonly string[] | LineKeys,
  pattern: readonly string[],
  start: number,
  endOfFile: boolean,
): number[] {
  const keys = lines instanceof LineKeys ? lines : new LineKeys(lines);
  const last = keys.lines.length - pattern.length;
  if (last < 0 || start > last) return [];
  const first = endOfFile ? last : start;
  for (let level = 0; level < LEVELS.length; level++) {
    const mapped = keys.at(level);
    const sought = pattern.map(LEVELS[level]);
    const found: number[] = [];
    for (let i = first; i <= last; i++) {
      if (matchesAt(mapped, sought, i)) found.push(i);
    }
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * The first index at or after `start` where `pattern` occurs in `lines` (see
 * {@linkcode seekAll}); `start` itself for an empty pattern.
 *
 * @param lines The file's lines, without line breaks.
 * @param pattern The lines sought.
 * @param start The first index a match may start at.
 * @param endOfFile Whether the pattern must end the file.
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
  lines: readonly string[] | LineKeys,
  pattern: readonly string[],
  start: number,
  endOfFile: boolean,
): number {
  if (pattern.length === 0) return start;
  return seekAll(lines, pattern, start, endOfFile)[0] ?? -1;
}

function matchesAt(lines: readonly string[], pattern: readonly string[], at: number): boolean {
  for (let j = 0; j < pattern.length; j++) {
    if (lines[at + j] !== pattern[j]) return false;
  }
  return true;
}

/** The lines a hunk expects to find (context and removed), in order. */
export function oldLinesOf(lines: readonly PatchLine[]): string[] {
  return lines.filter((line) => line.kind !== "+").map((line) => line.text);
}

/**
 * Places every hunk of an update, in order from the cursor (C16.2). Placements come back sorted
 * by position: a pure addition without an anchor goes to the end of the file and leaves the
 * cursor where it was, so a later hunk may lie above it.
 *
 * @param lines The file's lines, without line breaks.
 * @param hunks The update's hunks.
 * @returns One placement per hunk, ascending, never overlapping.
 * @throws {PatchLocateError} For the first hunk that cannot be placed, or that has no anchor
 * and matches at more than one place.
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
  const keys = new LineKeys(lines);
  let cursor = 0;
  hunks.forEach((hunk, index) => {
    for (const anchor of hunk.anchors ?? []) {
      const at = seekLines(keys, [anchor], cursor, false);
      if (at < 0) throw new PatchLocateError(index, { kind: "anchor", anchor });
      cursor = at + 1;
    }
    const placement = place(keys, hunk, cursor, index);
    placements.push(placement);
    // A pure addition leaves the cursor where it was.
    if (placement.length > 0) cursor = placement.start + placement.length;
  });
  // Stable: insertions at one place keep patch order.
  return placements.map((placement, order) => ({ placement, order }))
    .sort((a, b) => a.placement.start - b.placement.start || a.order - b.order)
    .map(({ placement }) => placement);
}

/** One hunk's placement at or after `from`; throws when there is none or several. */
function place(
  keys: LineKeys,
  hunk: PatchHunk,
  from: number,
  index: number,
): HunkPlacement {
  let body = hunk.lines;
  let old = oldLinesOf(body);
  if (old.length === 0) {
    // Only additions: below the last anchor when there is one, else at the end of the file.
    const start = hunk.anchors !== undefined && !hunk.endOfFile ? from : keys.lines.length;
    return { start, length: 0, lines: body };
  }
  let found = seekAll(keys, old, from, hunk.endOfFile);
  if (found.length === 0 && old.at(-1) === "" && body.at(-1)?.kind !== "+") {
    // A final empty context or removed line often stands for the file's last line break.
    const shorter = old.slice(0, -1);
    const retry = shorter.length === 0 ? [] : seekAll(keys, shorter, from, hunk.endOfFile);
    if (retry.length > 0) {
      body = body.slice(0, -1);
      old = shorter;
      found = retry;
    }
  }
  if (found.length === 0) {
    throw new PatchLocateError(index, { kind: "lines", oldLines: oldLinesOf(hunk.lines) });
  }
  if (found.length > 1 && hunk.anchors === undefined) {
    throw new PatchLocateError(index, { kind: "ambiguous", lines: found.map((at) => at + 1) });
  }
  return { start: found[0], length: old.length, lines: body };
}
