/**
 * The V4A patch parser (CONTRACT C16.1): the `*** Begin Patch` envelope OpenAI's `apply_patch`
 * uses, read into operations. Lenient where the reference implementation and the Agents SDK are
 * (C16.1a): a heredoc wrapper (`<<EOF` … `EOF`) is removed, whitespace around markers and blank
 * lines between hunks are allowed, a first hunk may lack `@@`, several `@@ <anchor>` lines may
 * stand before a hunk, and a unified-diff range header (`@@ -1,2 +1,2 @@`) counts as a bare
 * `@@`. Failures are structured
 * (`PatchParseError`); their text is rendered in `src/render/patch_render.ts`. Pure: no I/O.
 *
 * @module
 */

/** One line of a hunk: context (` `), removed (`-`) or added (`+`), without its marker. */
export interface PatchLine {
  kind: " " | "-" | "+";
  text: string;
}

/** A hunk of an update: its anchor lines, its lines, and whether it ends the file. */
export interface PatchHunk {
  /**
   * The texts after `@@ `, in order: lines the hunk lies below, each sought after the one
   * before it; absent when the hunk has only bare `@@` lines (or none).
   */
  anchors?: string[];
  lines: PatchLine[];
  /** `*** End of File` closed the hunk: its lines end the file. */
  endOfFile: boolean;
  /** The 1-based line of the patch the hunk starts on. */
  patchLine: number;
}

/** One operation of a patch, in patch order. */
export type PatchOperation =
  | {
    kind: "add";
    path: string;
    lines: string[];
    patchLine: number;
    /** The file's text when it is not each line with a break (an apply_patch `create_file`). */
    text?: string;
  }
  | { kind: "delete"; path: string; patchLine: number }
  | { kind: "update"; path: string; moveTo?: string; hunks: PatchHunk[]; patchLine: number };

/** What is wrong with a patch, for the renderer. */
export type PatchParseProblem =
  | { kind: "begin" }
  | { kind: "end" }
  | { kind: "no-operations" }
  | { kind: "header"; text: string }
  | { kind: "no-path"; marker: string }
  /** A path with a NUL byte (C16.1a). */
  | { kind: "nul-path" }
  | { kind: "empty-update"; path: string }
  | { kind: "empty-hunk" }
  | { kind: "hunk-line"; text: string }
  | { kind: "no-anchor"; text: string };

/** A patch that cannot be parsed: the problem and the 1-based patch line it is on. */
export class PatchParseError extends Error {
  /** The 1-based line of the patch; 0 for the whole patch. */
  readonly line: number;
  readonly problem: PatchParseProblem;

  constructor(line: number, problem: PatchParseProblem) {
    super(`patch line ${line}: ${problem.kind}`);
    this.name = "PatchParseError";
    this.line = line;
    this.problem = problem;
  }
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File:";
const DELETE = "*** Delete File:";
const UPDATE = "*** Update File:";
const MOVE = "*** Move to:";
const END_OF_FILE = "*** End of File";
/** The first lines of a heredoc wrapper the reference implementation removes (C16.1a). */
const HEREDOC_OPENERS = new Set(["<<EOF", "<<'EOF'", '<<"EOF"']);
/** A unified-diff range header, `@@ -12,7 +12,8 @@` with or without trailing text. */
const RANGE_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;

/**
 * Parses a V4A patch.
 *
 * @param patch The whole patch, `*** Begin Patch` to `*** End Patch`.
 * @returns The operations in patch order.
 * @throws {PatchParseError} Naming the first line that cannot be read.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { parsePatch } from "./patch_parse.ts";
 *
 * const ops = parsePatch("*** Begin Patch\n*** Delete File: a.txt\n*** End Patch");
 * equal(ops[0].kind, "delete");
 * ```
 */
export function parsePatch(patch: string): PatchOperation[] {
  const all = patch.split(/\r?\n/);
  // Leading and trailing blank lines do not count; line numbers stay those of the text given.
  let first = 0;
  while (first < all.length && all[first].trim() === "") first++;
  let last = all.length - 1;
  while (last > first && all[last].trim() === "") last--;
  // A heredoc wrapper around the envelope (C16.1a): `<<EOF` (quoted or not) first, `EOF` last.
  if (
    first < all.length && HEREDOC_OPENERS.has(all[first].trim()) &&
    all[last].trim() === "EOF" && last - first >= 3
  ) {
    first++;
    last--;
    while (first < last && all[first].trim() === "") first++;
    while (last > first && all[last].trim() === "") last--;
  }
  if (first >= all.length || all[first].trim() !== BEGIN) {
    throw new PatchParseError(first < all.length ? first + 1 : 1, { kind: "begin" });
  }
  if (last === first || all[last].trim() !== END) {
    throw new PatchParseError(last + 1, { kind: "end" });
  }
  const reader = new Reader(all, first + 1, last);
  const operations: PatchOperation[] = [];
  while (!reader.done()) {
    if (reader.peek().trim() === "") {
      reader.next();
      continue;
    }
    operations.push(readOperation(reader));
  }
  if (operations.length === 0) throw new PatchParseError(last + 1, { kind: "no-operations" });
  return operations;
}

/** A cursor over the lines between the envelope's markers. */
class Reader {
  #lines: string[];
  #at: number;
  #end: number;

  constructor(lines: string[], start: number, end: number) {
    this.#lines = lines;
    this.#at = start;
    this.#end = end;
  }

  done(): boolean {
    return this.#at >= this.#end;
  }

  peek(): string {
    return this.#lines[this.#at];
  }

  /** The 1-based number of the line `peek` returns. */
  lineNumber(): number {
    return this.#at + 1;
  }

  next(): string {
    return this.#lines[this.#at++];
  }
}

/** The path after a marker, or a parse error when there is none. */
function pathAfter(line: string, marker: string, lineNumber: number): string {
  const path = line.trim().slice(marker.length).trim();
  if (path === "") throw new PatchParseError(lineNumber, { kind: "no-path", marker });
  if (path.includes("\0")) throw new PatchParseError(lineNumber, { kind: "nul-path" });
  return path;
}

function readOperation(reader: Reader): PatchOperation {
  const patchLine = reader.lineNumber();
  const header = reader.next();
  const trimmed = header.trim();
  if (trimmed.startsWith(ADD)) {
    const path = pathAfter(header, ADD, patchLine);
    const lines: string[] = [];
    while (!reader.done() && reader.peek().startsWith("+")) lines.push(reader.next().slice(1));
    return { kind: "add", path, lines, patchLine };
  }
  if (trimmed.startsWith(DELETE)) {
    return { kind: "delete", path: pathAfter(header, DELETE, patchLine), patchLine };
  }
  if (trimmed.startsWith(UPDATE)) {
    const path = pathAfter(header, UPDATE, patchLine);
    let moveTo: string | undefined;
    if (!reader.done() && reader.peek().trim().startsWith(MOVE)) {
      moveTo = pathAfter(reader.peek(), MOVE, reader.lineNumber());
      reader.next();
    }
    const hunks = readHunks(reader);
    if (hunks.length === 0) throw new PatchParseError(patchLine, { kind: "empty-update", path });
    return moveTo === undefined
      ? { kind: "update", path, hunks, patchLine }
      : { kind: "update", path, moveTo, hunks, patchLine };
  }
  throw new PatchParseError(patchLine, { kind: "header", text: header });
}

/** The hunks of an update, up to the next operation header or the end. */
function readHunks(reader: Reader): PatchHunk[] {
  const hunks: PatchHunk[] = [];
  while (!reader.done()) {
    const line = reader.peek();
    if (line.trim() === "") {
      reader.next();
      continue;
    }
    if (line.startsWith("*")) break;
    hunks.push(readHunk(reader, hunks.length === 0));
  }
  return hunks;
}

/**
 * One hunk: its `@@` lines (bare, a range header, or `@@ <anchor>`; optional for the first hunk),
 * then its lines.
 */
function readHunk(reader: Reader, first: boolean): PatchHunk {
  const patchLine = reader.lineNumber();
  const anchors: string[] = [];
  let heads = 0;
  while (!reader.done()) {
    const head = reader.peek();
    if (head.trim() === "@@" || RANGE_HEADER.test(head)) {
      // A bare `@@` or a range header: no anchor.
    } else if (head.startsWith("@@ ")) {
      anchors.push(head.slice(3));
    } else {
      break;
    }
    reader.next();
    heads++;
  }
  if (heads === 0 && !first) {
    throw new PatchParseError(patchLine, { kind: "no-anchor", text: reader.peek() });
  }
  const lines: PatchLine[] = [];
  let endOfFile = false;
  let blanks = 0; // trailing lines that were empty, no marker at all
  while (!reader.done()) {
    const line = reader.peek();
    if (line.trim() === END_OF_FILE) {
      if (lines.length === 0) {
        throw new PatchParseError(reader.lineNumber(), { kind: "empty-hunk" });
      }
      reader.next();
      endOfFile = true;
      break;
    }
    const marker = line[0];
    if (line === "") {
      lines.push({ kind: " ", text: "" });
      blanks++;
    } else if (marker === " " || marker === "-" || marker === "+") {
      lines.push({ kind: marker, text: line.slice(1) });
      blanks = 0;
    } else if (lines.length === 0) {
      throw new PatchParseError(reader.lineNumber(), { kind: "hunk-line", text: line });
    } else {
      break;
    }
    reader.next();
  }
  // Empty lines before the next header or hunk separate hunks; they are not context.
  if (!endOfFile && nextIsBoundary(reader)) {
    lines.length -= Math.max(0, Math.min(blanks, lines.length - 1));
  }
  if (lines.length === 0) throw new PatchParseError(patchLine, { kind: "empty-hunk" });
  return anchors.length === 0
    ? { lines, endOfFile, patchLine }
    : { anchors, lines, endOfFile, patchLine };
}

/** Whether the reader stands at the end, an operation header or a hunk head. */
function nextIsBoundary(reader: Reader): boolean {
  if (reader.done()) return true;
  const line = reader.peek();
  return line.startsWith("*") || line.startsWith("@@");
}
