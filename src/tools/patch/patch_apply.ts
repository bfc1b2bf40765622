/**
 * Applying a V4A update to a file's bytes (CONTRACT C16.2). Works on bytes like `edit`: lines
 * the hunks do not change (context lines included) are copied byte for byte, a BOM and invalid
 * UTF-8 elsewhere survive, a replaced line keeps the line break of the line it replaces, an
 * added line takes the break of the line above it (the file's majority break at the top), and a
 * file without a final line break keeps lacking one. Pure: no I/O.
 *
 * @module
 */

import type { PatchHunk } from "./patch_parse.ts";
import { type HunkPlacement, locateHunks } from "./patch_locate.ts";

const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf];
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A file's bytes split into lines. */
export interface FileLines {
  bytes: Uint8Array;
  /** 3 when the file starts with a UTF-8 BOM, else 0. */
  bodyStart: number;
  /** Per line: where its text starts and ends, and where the next line starts. */
  starts: number[];
  ends: number[];
  nexts: number[];
  /** Each line's text, decoded, without its line break. */
  texts: string[];
  /** The line break added lines get. */
  eol: Uint8Array;
  /** Whether the file ends with a line break (an empty file counts as one that does). */
  finalBreak: boolean;
}

/**
 * Splits a file's bytes into lines (a `\r` before `\n` belongs to the break).
 *
 * @param bytes The file's bytes.
 * @returns The lines and what the file's line breaks look like.
 *
 * @example Usage
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { splitLines } from "./patch_apply.ts";
 *
 * deepEqual(splitLines(new TextEncoder().encode("a\r\nb\r\n")).texts, ["a", "b"]);
 * ```
 */
export function splitLines(bytes: Uint8Array): FileLines {
  const bodyStart = BOM.every((b, i) => bytes[i] === b) ? 3 : 0;
  const starts: number[] = [];
  const ends: number[] = [];
  const nexts: number[] = [];
  let crlf = 0;
  let bare = 0;
  let at = bodyStart;
  while (at < bytes.length) {
    const lf = bytes.indexOf(LF, at);
    const next = lf < 0 ? bytes.length : lf + 1;
    let end = lf < 0 ? bytes.length : lf;
    if (lf >= 0 && end > at && bytes[end - 1] === CR) {
      end--;
      crlf++;
    } else if (lf >= 0) bare++;
    starts.push(at);
    ends.push(end);
    nexts.push(next);
    at = next;
  }
  // Decoded once and split: a line feed never belongs to a multi-byte sequence, so each piece
  // is the line's own decoding, invalid bytes included.
  const texts = starts.length === 0
    ? []
    : decoder.decode(bytes.subarray(bodyStart)).split("\n").slice(0, starts.length);
  for (let i = 0; i < texts.length; i++) {
    if (ends[i] < nexts[i] - 1) texts[i] = texts[i].slice(0, -1); // the \r of a \r\n break
  }
  return {
    bytes,
    bodyStart,
    starts,
    ends,
    nexts,
    texts,
    eol: encoder.encode(crlf > bare ? "\r\n" : "\n"),
    finalBreak: bytes.length === bodyStart || bytes[bytes.length - 1] === LF,
  };
}

/** The new file as slices (of the old bytes, or encoded added lines) and its length. */
export interface PatchedBytes {
  pieces: Uint8Array[];
  length: number;
}

/**
 * Applies an update's hunks to a file's bytes.
 *
 * @param bytes The current bytes.
 * @param hunks The update's hunks, in order.
 * @returns The new bytes as slices.
 * @throws {PatchLocateError} For the first hunk that cannot be placed.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { applyHunks } from "./patch_apply.ts";
 * import { concatBytes } from "../../text/bytes.ts";
 *
 * const { pieces } = applyHunks(new TextEncoder().encode("a\r\nb\r\n"), [{
 *   lines: [{ kind: "-", text: "b" }, { kind: "+", text: "c" }],
 *   endOfFile: false,
 *   patchLine: 3,
 * }]);
 * equal(new TextDecoder().decode(concatBytes(pieces)), "a\r\nc\r\n");
 * ```
 */
export function applyHunks(bytes: Uint8Array, hunks: readonly PatchHunk[]): PatchedBytes {
  const file = splitLines(bytes);
  return rebuild(file, locateHunks(file.texts, hunks));
}

/**
 * A line of the new file: an old line by index, or an added line's text with the old line whose
 * line break it takes (the line it replaces, else the line above it; -1 for the file's majority
 * break).
 */
type Row = number | { text: string; breakOf: number };

function rebuild(file: FileLines, placements: readonly HunkPlacement[]): PatchedBytes {
  const rows: Row[] = [];
  let line = 0;
  for (const { start, length, lines } of placements) {
    while (line < start) rows.push(line++);
    // Removed lines not yet paired with an added line: the i-th `+` after a run of `-` lines
    // replaces the i-th of them and keeps its line break (C16.2).
    const removed: number[] = [];
    for (const { kind, text } of lines) {
      if (kind === "+") {
        rows.push({ text, breakOf: removed.shift() ?? breakAbove(rows) });
      } else if (kind === " ") {
        removed.length = 0;
        rows.push(line++);
      } else {
        removed.push(line++);
      }
    }
    line = start + length;
  }
  while (line < file.texts.length) rows.push(line++);
  const pieces: Uint8Array[] = [];
  let length = 0;
  // Consecutive slices of the old bytes join into one (an untouched run of lines is one piece).
  const push = (piece: Uint8Array) => {
    if (piece.length === 0) return;
    const last = pieces.at(-1);
    if (
      last && last.buffer === piece.buffer &&
      last.byteOffset + last.length === piece.byteOffset && piece.buffer === file.bytes.buffer
    ) {
      pieces[pieces.length - 1] = new Uint8Array(
        last.buffer,
        last.byteOffset,
        last.length + piece.length,
      );
    } else {
      pieces.push(piece);
    }
    length += piece.length;
  };
  const { bytes, starts, ends, nexts } = file;
  /** The line break of old line `row`; the file's majority break for -1 or a line without. */
  const breakOf = (row: number) =>
    row >= 0 && ends[row] < nexts[row] ? bytes.subarray(ends[row], nexts[row]) : file.eol;
  push(bytes.subarray(0, file.bodyStart));
  rows.forEach((row, i) => {
    const last = i === rows.length - 1;
    if (typeof row !== "number") {
      push(encoder.encode(row.text));
      if (!last || file.finalBreak) push(breakOf(row.breakOf));
      return;
    }
    if (last && !file.finalBreak) return push(bytes.subarray(starts[row], ends[row]));
    // An old line keeps its own break; the old last line, if it had none, gets the file's.
    push(bytes.subarray(starts[row], nexts[row]));
    if (ends[row] === nexts[row]) push(file.eol);
  });
  return { pieces, length };
}

/** The old line whose break an added line takes from the row above it (-1 at the top). */
function breakAbove(rows: readonly Row[]): number {
  const above = rows.at(-1);
  if (above === undefined) return -1;
  return typeof above === "number" ? above : above.breakOf;
}

/**
 * The content of an added file: each `+` line followed by a line break.
 *
 * @param lines The added lines, without their `+`.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { addedText } from "./patch_apply.ts";
 *
 * equal(addedText(["a", "b"]), "a\nb\n");
 * ```
 */
export function addedText(lines: readonly string[]): string {
  return lines.map((line) => `${line}\n`).join("");
}
