/**
 * Whitespace-insensitive search (CONTRACT C12.3): finds where an `old_string` would match if
 * every run of spaces and tabs matched any other such run (a run never matches nothing) and
 * trailing whitespace on each line were ignored. Works on UTF-8 bytes; pure: no I/O.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { skipSearch } from "./skip_search.ts";

/** Where a whitespace-insensitive match lies in the haystack's bytes. */
export interface LooseMatch {
  /** The first byte of the match. */
  start: number;
  /** One past the last byte of the match. */
  end: number;
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** A separator between two words of the needle: `newlines` line breaks, then maybe a run. */
interface Separator {
  newlines: number;
  run: boolean;
}

/** The needle as words (bytes without space, tab or line break) and the separators around them. */
interface Pattern {
  words: Uint8Array[];
  /** `seps[i]` comes before `words[i]`; `seps[words.length]` after the last word. */
  seps: Separator[];
}

const encoder = new TextEncoder();

/**
 * The needle's words and separators, after dropping `\r` before `\n` and trailing spaces and
 * tabs on each line. `undefined` for a needle of nothing but whitespace.
 */
function compile(needle: string): Pattern | undefined {
  const lines = needle.replace(/\r\n/g, "\n").split("\n").map((line) =>
    line.replace(/[ \t]+$/, "")
  );
  const words: Uint8Array[] = [];
  const seps: Separator[] = [{ newlines: 0, run: false }];
  lines.forEach((line, i) => {
    if (i > 0) seps[seps.length - 1].newlines++;
    for (const part of line.split(/([ \t]+)/)) {
      if (part === "") continue;
      if (part[0] === " " || part[0] === "\t") {
        seps[seps.length - 1].run = true;
      } else {
        words.push(encoder.encode(part));
        seps.push({ newlines: 0, run: false });
      }
    }
  });
  return words.length === 0 ? undefined : { words, seps };
}

function isBlank(byte: number): boolean {
  return byte === SPACE || byte === TAB;
}

/** Matches separator `sep` forward from `at`; the position after it, or -1. */
function forwardSep(h: Uint8Array, at: number, sep: Separator, last: boolean): number {
  for (let n = 0; n < sep.newlines; n++) {
    while (at < h.length && isBlank(h[at])) at++;
    if (at < h.length && h[at] === CR && h[at + 1] === LF) at++;
    if (h[at] !== LF) return -1;
    at++;
  }
  if (sep.run) {
    if (!isBlank(h[at])) return -1;
    while (at < h.length && isBlank(h[at])) at++;
  } else if (sep.newlines > 0 && !last && isBlank(h[at])) {
    return -1; // the haystack's line is indented where the needle's is not
  }
  return at;
}

/** Matches separator `sep` backward, ending just before `at`; where it starts, or -1. */
function backwardSep(h: Uint8Array, at: number, sep: Separator): number {
  if (sep.run) {
    if (at === 0 || !isBlank(h[at - 1])) return -1;
    while (at > 0 && isBlank(h[at - 1])) at--;
  }
  for (let n = 0; n < sep.newlines; n++) {
    if (at === 0 || h[at - 1] !== LF) return -1;
    at--;
    if (at > 0 && h[at - 1] === CR) at--;
    while (at > 0 && isBlank(h[at - 1])) at--;
  }
  return at;
}

function wordAt(h: Uint8Array, at: number, word: Uint8Array): boolean {
  if (at < 0 || at + word.length > h.length) return false;
  for (let j = 0; j < word.length; j++) if (h[at + j] !== word[j]) return false;
  return !splitsBreak(h, at, word);
}

/** Whether a word ending in `\r` would take the `\r` of a `\r\n` break (which is no content). */
function splitsBreak(h: Uint8Array, at: number, word: Uint8Array): boolean {
  return word[word.length - 1] === CR && h[at + word.length] === LF;
}

/**
 * The first place `needle` matches `haystack` when runs of spaces and tabs match any other
 * such run and trailing whitespace on each line is ignored (C12.3). Its longest word is found
 * with a byte search and each candidate is checked outward, so the search costs about what an
 * exact search of that word costs.
 *
 * @param haystack The file's bytes (UTF-8).
 * @param needle The text looked for.
 * @returns The first match, or `undefined`.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { findLoose } from "./loose_match.ts";
 *
 * const file = new TextEncoder().encode("if (a) {\n\treturn 1;  \n}\n");
 * deepEqual(findLoose(file, "if (a) {\n    return 1;\n}"), { start: 0, end: 23 });
 * ```
 */
export function findLoose(haystack: Uint8Array, needle: string): LooseMatch | undefined {
  const pattern = compile(needle);
  if (!pattern) return undefined;
  const { words } = pattern;
  let k = 0;
  for (let i = 1; i < words.length; i++) if (words[i].length > words[k].length) k = i;
  let found: LooseMatch | undefined;
  eachOccurrence(
    haystack,
    words[k],
    (p) => (found = verify(haystack, pattern, k, p)) !== undefined,
  );
  return found;
}

/**
 * Calls `visit` with each start of `word` in `h`, left to right (overlapping ones too), until it
 * returns true: by skipping (`skipSearch`), and should that compare far more bytes than the
 * haystack holds (a haystack much like the word), the rest with `Buffer#indexOf`, which has no
 * such worst case.
 */
function eachOccurrence(h: Uint8Array, word: Uint8Array, visit: (p: number) => boolean): void {
  const budget = 5 * h.length + 4096;
  const rest = skipSearch(h, word, { budget, overlapping: true }, visit);
  if (rest === -1) return;
  const buffer = Buffer.from(h.buffer, h.byteOffset, h.length);
  for (let p = buffer.indexOf(word, rest); p >= 0; p = buffer.indexOf(word, p + 1)) {
    if (visit(p)) return;
  }
}

/** Checks a candidate with word `k` at `p`, outward in both directions. */
function verify(h: Uint8Array, pattern: Pattern, k: number, p: number): LooseMatch | undefined {
  const { words, seps } = pattern;
  if (splitsBreak(h, p, words[k])) return undefined;
  let start = p;
  for (let i = k; i >= 0; i--) {
    const sep = seps[i];
    if (i === 0 && sep.newlines === 0 && !sep.run) break; // the needle starts mid-line
    start = backwardSep(h, start, sep);
    if (start < 0) return undefined;
    if (i > 0) {
      start -= words[i - 1].length;
      if (!wordAt(h, start, words[i - 1])) return undefined;
    }
  }
  let end = p + words[k].length;
  for (let i = k + 1; i <= words.length; i++) {
    const last = i === words.length;
    end = forwardSep(h, end, seps[i], last);
    if (end < 0) return undefined;
    if (!last) {
      if (!wordAt(h, end, words[i])) return undefined;
      end += words[i].length;
    }
  }
  return { start, end };
}
