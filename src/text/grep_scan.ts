/**
 * Line-by-line matching for `grep` (CONTRACT C11) with a linear-time engine (`re2js`). Pure: no
 * I/O. Text is fed in segments of whole lines; a segment is first tested as a whole (with `^`
 * and `$` at line boundaries), so most of a file that holds no match is never split into lines.
 *
 * @module
 */

import { RE2JS } from "npm:re2js@1.3.3";
import { countNewlines } from "./newlines.ts";
import { indexOfBytes } from "./byte_search.ts";
import { requiredLiterals } from "./grep_literals.ts";

const LF = 0x0a;
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The longest pattern compiled, in UTF-16 code units (the engine's parser is slow on more). */
export const GREP_PATTERN_MAX_LENGTH = 2000;
/** The largest compiled program (instructions) a pattern may have, as RE2 has a budget. */
export const GREP_PROGRAM_MAX_SIZE = 2000;
/**
 * The work one test of the engine may take, in characters × instructions (matching is linear in
 * both): 15 to 50 ms here, by the pattern. A line is matched on its first `GREP_TEST_WORK / programSize`
 * characters, so no single test keeps the thread (and an abort) waiting longer.
 */
export const GREP_TEST_WORK = 1 << 23;

/** A pattern refused for its cost before or after compiling (issue 19). */
export class GrepPatternTooLarge extends Error {
  /**
   * @param kind `length` (characters) or `program` (compiled instructions).
   * @param size The pattern's size in that unit.
   * @param max The limit.
   */
  constructor(readonly kind: "length" | "program", readonly size: number, readonly max: number) {
    super(`pattern ${kind} ${size} over ${max}`);
    this.name = "GrepPatternTooLarge";
  }
}

/** A compiled `grep` pattern. */
export interface GrepPattern {
  /** Whether one line (no `\n`) matches. */
  testLine(line: string): boolean;
  /** Whether any line of a text of whole lines may match (never `false` when one does). */
  testBlock(text: string): boolean;
  /** UTF-8 bytes every matching line contains (the rarest-looking such literal), or `null`. */
  literal: Uint8Array | null;
  /** Every literal every matching line contains, as UTF-8 bytes, rarest-looking first. */
  literals: readonly Uint8Array[];
  /** `literal` as text: only lines holding it can match. */
  needle: string | null;
  /** Characters of a line one test looks at: a longer line is matched on its start. */
  lineChars: number;
}

/**
 * Compiles a pattern in RE2 syntax.
 *
 * @param pattern The pattern.
 * @param ignoreCase Whether matching ignores case.
 * @returns The compiled pattern.
 * @throws {SyntaxError} With the engine's message when the pattern is invalid.
 * @throws {GrepPatternTooLarge} When the pattern or its compiled program is over its limit.
 *
 * @example
 * ```ts
 * import { compileGrepPattern } from "./grep_scan.ts";
 *
 * console.log(compileGrepPattern("fo+", false).testLine("a foo")); // true
 * ```
 */
export function compileGrepPattern(pattern: string, ignoreCase: boolean): GrepPattern {
  if (pattern.length > GREP_PATTERN_MAX_LENGTH) {
    throw new GrepPatternTooLarge("length", pattern.length, GREP_PATTERN_MAX_LENGTH);
  }
  const flags = ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
  let line: RE2JS;
  try {
    line = RE2JS.compile(pattern, flags);
  } catch (error) {
    throw new SyntaxError(error instanceof Error ? error.message : String(error));
  }
  const size = line.programSize();
  if (size > GREP_PROGRAM_MAX_SIZE) {
    throw new GrepPatternTooLarge("program", size, GREP_PROGRAM_MAX_SIZE);
  }
  // `\A` and `\z` mean the line's ends, which a multi-line block cannot express.
  const block = /\\[Az]/.test(pattern) ? null : RE2JS.compile(pattern, flags | RE2JS.MULTILINE);
  const lineChars = Math.max(1024, Math.floor(GREP_TEST_WORK / Math.max(1, size)));
  const head = (text: string) => text.length > lineChars ? text.slice(0, lineChars) : text;
  // A block test costs its whole length: past the budget, the lines are tested one by one.
  const blockTest = (text: string) => block === null || text.length > lineChars || block.test(text);
  // U+FFFD also stands for invalid bytes, which a byte search for its encoding would miss.
  const plain = !ignoreCase && !/[\\.+*?()|[\]{}^$\n\r\uFFFD]/.test(pattern);
  if (plain) {
    // A plain literal: a substring test is the same match, without the regex engine.
    const literal = new TextEncoder().encode(pattern);
    return {
      testLine: (text) => head(text).includes(pattern),
      testBlock: (text) => text.includes(pattern),
      literal,
      literals: [literal],
      needle: pattern,
      lineChars,
    };
  }
  const all = ignoreCase ? [] : requiredLiterals(pattern);
  if (all.length > 0) {
    const required = all[0];
    const encoder = new TextEncoder();
    const literals = all.map((l) => encoder.encode(l));
    return {
      testLine: (text) => {
        const start = head(text);
        return start.includes(required) && line.test(start);
      },
      testBlock: (text) => all.every((l) => text.includes(l)),
      literal: literals[0],
      literals,
      needle: required,
      lineChars,
    };
  }
  return {
    testLine: (text) => line.test(head(text)),
    testBlock: blockTest,
    literal: null,
    literals: [],
    needle: null,
    lineChars,
  };
}

/**
 * Where a line of `bytes` may first match: the first occurrence of the pattern's `literal` (0
 * when it has none), or -1 when `bytes` lack one of its literals, so that no line can match.
 * {@linkcode GrepScanner.feedBytes} starts there instead of searching again.
 *
 * @param bytes The bytes.
 * @param pattern The compiled pattern.
 * @returns The index, or -1.
 */
export function firstCandidate(bytes: Uint8Array, pattern: GrepPattern): number {
  let first = 0;
  for (const [i, literal] of pattern.literals.entries()) {
    const at = indexOfBytes(bytes, literal, 0);
    if (at === -1) return -1;
    if (i === 0) first = at; // `literals[0]` is `literal`
  }
  return first;
}

/** A line `grep` keeps for rendering. */
export interface GrepLine {
  /** 1-based line number. */
  number: number;
  /** The line's text (no `\r`, no BOM). */
  text: string;
  /** Whether it matches (else it is a context line). */
  match: boolean;
}

/** Options of {@linkcode GrepScanner}. */
export interface GrepScannerOptions {
  /** The compiled pattern. */
  pattern: GrepPattern;
  /** Context lines before and after each match. */
  context: number;
  /** How many matching lines may still be kept (with their context); 0 keeps none. */
  keep: number;
}

/**
 * Scans one file's text, fed in segments of whole lines, counting matching lines and keeping
 * the first `keep` of them with their context.
 */
export class GrepScanner {
  /** Matching lines seen. */
  matches = 0;
  /** Lines kept, in order. */
  readonly lines: GrepLine[] = [];
  /** Matching lines kept. */
  kept = 0;
  #pattern: GrepPattern;
  #context: number;
  #keep: number;
  #number = 0;
  #before: GrepLine[] = [];
  #after = 0;
  #first = true;

  /** @param options The pattern, context and how many matches to keep. */
  constructor(options: GrepScannerOptions) {
    this.#pattern = options.pattern;
    this.#context = options.context;
    this.#keep = options.keep;
  }

  /**
   * Feeds whole lines: `text` ends just after a `\n`, or at the end of the file.
   *
   * @param text The lines.
   */
  feed(text: string): void {
    if (this.#first) {
      this.#first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text === "") return;
    // `text` ends with "\n" unless final; its pieces after splitting are its lines.
    const body = text.endsWith("\n") ? text.slice(0, -1) : text;
    const needle = this.#pattern.needle;
    if (this.#context === 0 && needle !== null) {
      this.#sparse(body, needle);
      return;
    }
    if (this.#after === 0 && !this.#pattern.testBlock(body.includes("\r") ? stripCr(body) : body)) {
      this.#skip(body);
      return;
    }
    let start = 0;
    while (start <= body.length) {
      let end = body.indexOf("\n", start);
      if (end === -1) end = body.length;
      let line = body.slice(start, end);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      this.#line(line);
      start = end + 1;
    }
  }

  /**
   * Feeds whole lines as UTF-8 bytes (as `feed` takes text) when there are no context lines and
   * the pattern has a literal: only the lines holding it are decoded and tested, the others
   * only counted. Returns `false` (nothing fed) otherwise: then the caller decodes and feeds.
   *
   * @param bytes The lines: ending just after a `\n`, or at the end of the file.
   * @param firstAt The first occurrence of the pattern's literal in `bytes`, when the caller
   *   has found it already ({@linkcode firstCandidate}).
   * @returns Whether the bytes were fed.
   */
  feedBytes(bytes: Uint8Array, firstAt?: number): boolean {
    const literal = this.#pattern.literal;
    if (this.#context !== 0 || literal === null || this.#pattern.needle === null) return false;
    if (this.#first && bytes.length === 3 && bytes[0] === 0xef && bytes[1] === 0xbb) {
      if (bytes[2] === 0xbf) {
        this.#first = false; // a byte order mark alone holds no line, as `feed` has it
        return true;
      }
    }
    let pos = 0; // the start of the first line not yet counted
    for (
      let at = firstAt ?? indexOfBytes(bytes, literal, 0);
      at !== -1;
      at = indexOfBytes(bytes, literal, pos)
    ) {
      const start = bytes.lastIndexOf(LF, at) + 1;
      const skipped = countNewlines(bytes, pos, start);
      if (skipped > 0) this.skipLines(skipped);
      const end = bytes.indexOf(LF, at);
      if (end === -1) {
        this.feed(decoder.decode(bytes.subarray(start)));
        return true;
      }
      this.feed(decoder.decode(bytes.subarray(start, end + 1)));
      pos = end + 1;
    }
    if (pos < bytes.length) {
      const rest = countNewlines(bytes, pos, bytes.length) +
        (bytes[bytes.length - 1] === LF ? 0 : 1);
      this.skipLines(rest);
    }
    return true;
  }

  /**
   * Counts lines known not to match without looking at them (only when `context` is 0).
   *
   * @param count How many lines.
   */
  skipLines(count: number): void {
    this.#first = false;
    this.#number += count;
  }

  #line(text: string): void {
    const number = ++this.#number;
    const match = this.#pattern.testLine(text);
    if (match) this.matches++;
    const storing = this.kept < this.#keep;
    if (match && storing) {
      for (const line of this.#before) this.lines.push(line);
      this.#before = [];
      this.lines.push({ number, text, match: true });
      this.kept++;
      this.#after = this.#context;
      return;
    }
    if (!match && this.#after > 0) {
      this.lines.push({ number, text, match: false });
      this.#after--;
      return;
    }
    if (match) {
      this.#after = 0;
      return;
    }
    if (this.#context > 0 && storing) {
      this.#before.push({ number, text, match: false });
      if (this.#before.length > this.#context) this.#before.shift();
    }
  }

  /**
   * Without context lines: only the lines holding `needle` are cut out and tested; the others
   * are only counted.
   */
  #sparse(body: string, needle: string): void {
    const first = this.#number; // lines before `body`
    let index = 0; // the line starting at `pos`, 0-based within `body`
    let pos = 0;
    let at = body.indexOf(needle);
    while (at !== -1) {
      for (let nl = body.indexOf("\n", pos); nl !== -1 && nl < at; nl = body.indexOf("\n", pos)) {
        index++;
        pos = nl + 1;
      }
      let end = body.indexOf("\n", at);
      if (end === -1) end = body.length;
      let line = body.slice(pos, end);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      this.#number = first + index;
      this.#line(line);
      index++;
      pos = end + 1;
      if (pos > body.length) break;
      at = body.indexOf(needle, pos);
    }
    if (pos <= body.length) {
      index++;
      for (let nl = body.indexOf("\n", pos); nl !== -1; nl = body.indexOf("\n", nl + 1)) index++;
    }
    this.#number = first + index;
  }

  /** Lines known not to match: counted, and the last ones kept as before-context. */
  #skip(body: string): void {
    let count = 1;
    for (let i = body.indexOf("\n"); i !== -1; i = body.indexOf("\n", i + 1)) count++;
    if (this.#context > 0 && this.kept < this.#keep) {
      const tail: string[] = [];
      let pos = body.length;
      while (tail.length < this.#context) {
        const nl = pos === 0 ? -1 : body.lastIndexOf("\n", pos - 1);
        tail.unshift(body.slice(nl + 1, pos));
        if (nl === -1) break;
        pos = nl;
      }
      const first = this.#number + count - tail.length + 1;
      const lines = tail.map((t, i) => ({
        number: first + i,
        text: t.endsWith("\r") ? t.slice(0, -1) : t,
        match: false,
      }));
      this.#before = [...this.#before, ...lines].slice(-this.#context);
    }
    this.#number += count;
  }
}

function stripCr(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/\r$/, "");
}
