/**
 * Line-by-line matching for `grep` (CONTRACT C11) with a linear-time engine (`re2js`). Pure: no
 * I/O. Text is fed in segments of whole lines; a segment is first tested as a whole (with `^`
 * and `$` at line boundaries), so most of a file that holds no match is never split into lines.
 *
 * @module
 */

import { RE2JS } from "re2js";
import { Buffer } from "node:buffer";

/** A compiled `grep` pattern. */
export interface GrepPattern {
  /** Whether one line (no `\n`) matches. */
  testLine(line: string): boolean;
  /** Whether any line of a text of whole lines may match (never `false` when one does). */
  testBlock(text: string): boolean;
  /** UTF-8 bytes every matching line contains, when the pattern is a plain literal. */
  literal: Uint8Array | null;
}

/**
 * Compiles a pattern in RE2 syntax.
 *
 * @param pattern The pattern.
 * @param ignoreCase Whether matching ignores case.
 * @returns The compiled pattern.
 * @throws {SyntaxError} With the engine's message when the pattern is invalid.
 *
 * @example
 * ```ts
 * import { compileGrepPattern } from "./grep_scan.ts";
 *
 * console.log(compileGrepPattern("fo+", false).testLine("a foo")); // true
 * ```
 */
export function compileGrepPattern(pattern: string, ignoreCase: boolean): GrepPattern {
  const flags = ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
  let line: RE2JS;
  let block: RE2JS | null;
  try {
    line = RE2JS.compile(pattern, flags);
    // `\A` and `\z` mean the line's ends, which a multi-line block cannot express.
    block = /\\[Az]/.test(pattern) ? null : RE2JS.compile(pattern, flags | RE2JS.MULTILINE);
  } catch (error) {
    throw new SyntaxError(error instanceof Error ? error.message : String(error));
  }
  const plain = !ignoreCase && !/[\\.+*?()|[\]{}^$\n\r]/.test(pattern);
  return {
    testLine: (text) => line.test(text),
    testBlock: (text) => block === null || block.test(text),
    literal: plain ? new TextEncoder().encode(pattern) : null,
  };
}

/**
 * Whether `bytes` contain `needle` (a native search).
 *
 * @param bytes The haystack.
 * @param needle The bytes to find.
 * @returns `true` when found.
 */
export function containsBytes(bytes: Uint8Array, needle: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle) !== -1;
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
   * Feeds whole lines: `text` ends just after a `\n`, or at the end of the file when `final`.
   *
   * @param text The lines.
   * @param final Whether this is the file's last segment.
   */
  feed(text: string, final: boolean): void {
    if (this.#first) {
      this.#first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text === "") return;
    // `text` ends with "\n" unless final; its pieces after splitting are its lines.
    const body = text.endsWith("\n") ? text.slice(0, -1) : text;
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
    void final;
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
