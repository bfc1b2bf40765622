/**
 * Line-by-line matching for `grep` (CONTRACT C11) with a linear-time engine (`re2js`). Pure: no
 * I/O. Text is fed in segments of whole lines; a segment is first tested as a whole (with `^`
 * and `$` at line boundaries), so most of a file that holds no match is never split into lines.
 *
 * @module
 */

import { RE2JS } from "npm:re2js@1.3.3";

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
  if (plain) {
    // A plain literal: a substring test is the same match, without the regex engine.
    return {
      testLine: (text) => text.includes(pattern),
      testBlock: (text) => text.includes(pattern),
      literal: new TextEncoder().encode(pattern),
    };
  }
  const required = ignoreCase ? null : requiredLiteral(pattern);
  if (required !== null) {
    return {
      testLine: (text) => text.includes(required) && line.test(text),
      testBlock: (text) => text.includes(required),
      literal: new TextEncoder().encode(required),
    };
  }
  return {
    testLine: (text) => line.test(text),
    testBlock: (text) => block === null || block.test(text),
    literal: null,
  };
}

const LITERAL_CHAR = /[A-Za-z0-9_ \-:;,'"<>=\/#%&~`@!]/;

/**
 * The longest literal every match of a pattern contains, when one can be told by a simple
 * reading: no alternation, no flags, only top-level runs of plain or escaped punctuation
 * characters not made optional by a quantifier. `null` otherwise (then no prefilter applies).
 *
 * @param pattern The pattern, in RE2 syntax.
 * @returns The literal (at least 3 characters), or `null`.
 */
export function requiredLiteral(pattern: string): string | null {
  if (pattern.includes("|") || pattern.includes("(?")) return null;
  let best = "";
  let run = "";
  let depth = 0;
  const end = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    let lit: string | null = null;
    let next = i + 1;
    if (c === "\\") {
      const e = pattern[i + 1];
      if (e !== undefined && /[.+*?()|[\]{}^$\\\/\-]/.test(e)) lit = e;
      else if (e === undefined || !/[dDwWsSbBAz]/.test(e)) return null; // \x41, \pL, \Q…: bail
      else end();
      next = i + 2;
    } else if (c === "{") {
      end();
      while (i < pattern.length && pattern[i] !== "}") i++;
      continue;
    } else if (depth === 0 && LITERAL_CHAR.test(c)) {
      lit = c;
    } else if (c === "(") {
      end();
      depth++;
    } else if (c === ")") {
      end();
      depth = Math.max(0, depth - 1);
    } else if (c === "[") {
      end();
      // Skip the class: `]` right after `[` or `[^` is part of it.
      let j = i + 1;
      if (pattern[j] === "^") j++;
      if (pattern[j] === "]") j++;
      while (j < pattern.length && pattern[j] !== "]") j += pattern[j] === "\\" ? 2 : 1;
      i = j;
      continue;
    } else {
      end();
    }
    if (lit !== null && depth === 0) {
      const q = pattern[next];
      if (q === "?" || q === "*" || q === "{") end();
      else run += lit;
    } else if (lit !== null) {
      end();
    }
    i = next - 1;
  }
  end();
  return best.length >= 3 ? best : null;
}

/**
 * Whether `bytes` contain `needle` (a native search).
 *
 * @param bytes The haystack.
 * @param needle The bytes to find.
 * @returns `true` when found.
 */
export function containsBytes(bytes: Uint8Array, needle: Uint8Array): boolean {
  const n = needle.length;
  if (n === 0) return true;
  // Scan for the needle's rarest-looking byte (a native `indexOf`), then compare the rest.
  let k = 0;
  for (let i = 1; i < n; i++) if (rarity(needle[i]) > rarity(needle[k])) k = i;
  const pivot = needle[k];
  const last = bytes.length - n + k;
  for (let i = bytes.indexOf(pivot, k); i !== -1 && i <= last; i = bytes.indexOf(pivot, i + 1)) {
    const start = i - k;
    let j = 0;
    while (j < n && bytes[start + j] === needle[j]) j++;
    if (j === n) return true;
  }
  return false;
}

/** A rough rarity of a byte in source text: higher is rarer. */
function rarity(byte: number): number {
  if (byte === 0x20 || byte === 0x0a || byte === 0x09) return 0;
  if (byte >= 0x61 && byte <= 0x7a) {
    return "etaoinsrhldcumfpgwybvkxjqz".indexOf(String.fromCharCode(byte)) + 10;
  }
  if (byte >= 0x41 && byte <= 0x5a) return 40;
  if (byte >= 0x30 && byte <= 0x39) return 38;
  if (byte >= 0x80) return 45;
  return "(),.;:=_'\"/-{}[]<>*+!?&|#@$%^~`\\".indexOf(String.fromCharCode(byte)) + 20;
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
