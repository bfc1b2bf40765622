/**
 * Glob matching for the search tools (CONTRACT C9.2, C9.3). A glob is translated to an RE2
 * program and run by `re2js`, whose matching time is linear in name × pattern (no
 * backtracking: `*a*a*a*a*a*a*a*a*b` or `{a,b}` repeated 24 times cost microseconds a name).
 * Pure: no I/O.
 *
 * @module
 */

import { RE2JS } from "npm:re2js@1.3.3";

/** A compiled glob. */
export interface GlobMatcher {
  /** Whether a path relative to the search directory (with `/` separators) matches. */
  match(relativePath: string): boolean;
  /** Whether a hidden name (starting with `.`) is named literally by the pattern (C9.2). */
  namesHidden(name: string): boolean;
  /** Whether files below a directory (relative path, `""` for the search directory) can match. */
  mayContain(directory: string): boolean;
}

/** The longest glob compiled: matching costs at most this × the path's length a name. */
export const GLOB_MAX_LENGTH = 1024;

const GLOB_CHARS = /[*?[\]{}()!+@\\]/;
/** Characters that make a pattern more than a literal for this matcher. */
const SPECIAL = /[*?[{\\]/;

/**
 * Compiles a glob per C9.3: matched against the relative path; a pattern without `/` matches
 * the file name at any depth; `**` spans zero or more directories; `*`, `?` and `[…]` never
 * match `/`; `{a,b}` alternates (nested too); `\` quotes the next character; case-sensitive.
 * Other characters (`(`, `|`, `+`, `@`, `!`) are literal.
 *
 * @param pattern The glob.
 * @returns The matcher.
 * @throws {RangeError} When the pattern is longer than {@linkcode GLOB_MAX_LENGTH}.
 *
 * @example
 * ```ts
 * import { compileGlob } from "./glob_match.ts";
 *
 * console.log(compileGlob("*.ts").match("src/a.ts")); // true
 * ```
 */
export function compileGlob(pattern: string): GlobMatcher {
  if (pattern.length > GLOB_MAX_LENGTH) {
    throw new RangeError(`glob is longer than ${GLOB_MAX_LENGTH} characters`);
  }
  const anywhere = !pattern.includes("/");
  const full = anywhere ? pattern : pattern.replace(/^\.\//, "");
  // `**/x` with no other `/` is `x` at any depth: matched on the file name alone.
  const named = anywhere || (full.startsWith("**/") && !full.includes("/", 3));
  const nameGlob = anywhere || !named ? full : full.slice(3);
  const test = compileTest(nameGlob);
  const suffix = named ? suffixOf(nameGlob) : null;
  const isMatch = suffix !== null
    // `*.ts` on the name, without cutting the name out: the path ends with the suffix within
    // its last component.
    ? (path: string) => path.endsWith(suffix) && path.length - suffix.length > path.lastIndexOf("/")
    : named
    ? (path: string) => test(path.slice(path.lastIndexOf("/") + 1))
    : test;
  // Segments of the pattern that start with a literal `.`: the hidden names it asks for.
  const hidden = new Set<string>();
  for (const p of expandBraces(full)) {
    for (const s of p.split("/")) if (s.startsWith(".") && s !== "." && s !== "..") hidden.add(s);
  }
  const hiddenMatchers = [...hidden].map(compileTest);
  // The literal leading directories: nothing outside them can match.
  const prefix: string[] = [];
  if (!anywhere) {
    const parts = full.split("/");
    for (const part of parts.slice(0, -1)) {
      if (GLOB_CHARS.test(part) || part === "" || part === "." || part === "..") break;
      prefix.push(part);
    }
  }
  return {
    match: isMatch,
    namesHidden: (name) => hiddenMatchers.some((m) => m(name)),
    mayContain(directory) {
      if (prefix.length === 0 || directory === "") return true;
      const parts = directory.split("/");
      const n = Math.min(parts.length, prefix.length);
      for (let i = 0; i < n; i++) if (parts[i] !== prefix[i]) return false;
      return true;
    },
  };
}

/** For a glob `*<literal>` (no `/`): the literal; else `null`. */
function suffixOf(glob: string): string | null {
  const literal = glob.slice(1);
  return glob.startsWith("*") && !SPECIAL.test(literal) && !glob.includes("/") ? literal : null;
}

/** A whole-string test for a glob: a string comparison for the common shapes, else RE2. */
function compileTest(glob: string): (s: string) => boolean {
  if (!SPECIAL.test(glob)) return (s) => s === glob;
  const suffix = suffixOf(glob);
  if (suffix !== null) return (s) => s.endsWith(suffix) && !s.includes("/");
  // DOTALL: a line break in a name is a character like any other (C3.9 names stay reachable).
  const program = RE2JS.compile(new Translator(glob).source(), RE2JS.DOTALL);
  return (s) => program.matches(s);
}

/** The RE2 source of a glob, read once from left to right (braces by recursion). */
class Translator {
  readonly #p: string;
  #i = 0;

  constructor(pattern: string) {
    this.#p = pattern;
  }

  source(): string {
    return this.#sequence(false);
  }

  /** Up to the end, or (inside braces) up to the `,` or `}` that ends an alternative. */
  #sequence(inBraces: boolean): string {
    const p = this.#p;
    let out = "";
    while (this.#i < p.length) {
      const c = p[this.#i];
      if (inBraces && (c === "," || c === "}")) break;
      if (c === "\\") {
        out += this.#i + 1 < p.length ? quote(p[this.#i + 1]) : quote("\\");
        this.#i += 2;
      } else if (c === "*") out += this.#star(inBraces);
      else if (c === "?") {
        out += "[^/]";
        this.#i++;
      } else if (c === "[") out += this.#bracket();
      else if (c === "{") out += this.#braces();
      else if (
        c === "/" && this.#globstarFollows(this.#i + 1, inBraces, true) && !this.#afterStar()
      ) {
        out += "(?:/.*)?"; // `a/**` matches `a` and everything below it
        this.#i += 3;
      } else {
        out += quote(c);
        this.#i++;
      }
    }
    return out;
  }

  /** Whether the character before the cursor is an unquoted `*`. */
  #afterStar(): boolean {
    const p = this.#p;
    return p[this.#i - 1] === "*" && p[this.#i - 2] !== "\\";
  }

  /** Whether `**` fills a path segment starting at `at` (and, `atEnd`, ends the pattern). */
  #globstarFollows(at: number, inBraces: boolean, atEnd: boolean): boolean {
    const p = this.#p;
    if (p[at] !== "*" || p[at + 1] !== "*") return false;
    const next = p[at + 2];
    const closes = next === undefined || (inBraces && (next === "," || next === "}"));
    return atEnd ? closes : closes || next === "/";
  }

  #star(inBraces: boolean): string {
    const p = this.#p;
    const start = this.#i;
    while (p[this.#i] === "*") this.#i++;
    const prev = p[start - 1];
    const segmentStart = start === 0 || prev === "/" ||
      (inBraces && (prev === "{" || prev === ","));
    if (this.#i - start === 2 && segmentStart) {
      if (p[this.#i] === "/") {
        this.#i++;
        return "(?:[^/]+/)*"; // zero or more directories
      }
      if (this.#globstarFollows(start, inBraces, false) || p[this.#i] === "{") return ".*";
    }
    return "[^/]*";
  }

  /** `[…]`: members, ranges, `!`/`^` negation, POSIX classes; never `/`. */
  #bracket(): string {
    const p = this.#p;
    let i = this.#i + 1;
    let negated = false;
    if (p[i] === "!" || p[i] === "^") {
      negated = true;
      i++;
    }
    const ranges: [number, number][] = [];
    let first = true;
    for (;;) {
      if (i >= p.length) {
        this.#i++; // no closing `]`: the `[` is literal
        return quote("[");
      }
      const c = p[i];
      if (c === "]" && !first) break;
      first = false;
      if (c === "[" && p[i + 1] === ":") {
        const close = p.indexOf(":]", i + 2);
        const members = close < 0 ? undefined : POSIX[p.slice(i + 2, close)];
        if (members) {
          ranges.push(...members);
          i = close + 2;
          continue;
        }
      }
      let lo = c.codePointAt(0)!;
      i += lo > 0xffff ? 2 : 1;
      if (c === "\\" && i < p.length) {
        lo = p.codePointAt(i)!;
        i += lo > 0xffff ? 2 : 1;
      }
      if (p[i] === "-" && i + 1 < p.length && p[i + 1] !== "]") {
        let hi = p.codePointAt(i + 1)!;
        i += hi > 0xffff ? 3 : 2;
        if (hi === 0x5c && i < p.length) {
          hi = p.codePointAt(i)!;
          i += hi > 0xffff ? 2 : 1;
        }
        if (lo <= hi) ranges.push([lo, hi]);
      } else ranges.push([lo, lo]);
    }
    this.#i = i + 1;
    const body = ranges.map(([lo, hi]) => lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`).join("");
    if (negated) return `[^/${body}]`;
    return withoutSlash(ranges);
  }

  /** `{a,b}` with a `,` at its top level alternates; otherwise the `{` is literal. */
  #braces(): string {
    if (!this.#alternates(this.#i)) {
      this.#i++;
      return quote("{");
    }
    this.#i++;
    const alternatives: string[] = [];
    for (;;) {
      alternatives.push(this.#sequence(true));
      const c = this.#p[this.#i++];
      if (c === "}") break;
    }
    return `(?:${alternatives.join("|")})`;
  }

  /** Whether the `{` at `at` has a matching `}` with a `,` at its own level. */
  #alternates(at: number): boolean {
    const p = this.#p;
    let depth = 0;
    let comma = false;
    for (let i = at; i < p.length; i++) {
      const c = p[i];
      if (c === "\\") i++;
      else if (c === "{") depth++;
      else if (c === "}") {
        if (--depth === 0) return comma;
      } else if (c === "," && depth === 1) comma = true;
    }
    return false;
  }
}

/** A positive class with `/` taken out. */
function withoutSlash(ranges: [number, number][]): string {
  const parts: string[] = [];
  for (const [lo, hi] of ranges) {
    if (hi < 0x2f || lo > 0x2f) parts.push(lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`);
    else {
      if (lo < 0x2f) parts.push(`${hex(lo)}-${hex(0x2e)}`);
      if (hi > 0x2f) parts.push(`${hex(0x30)}-${hex(hi)}`);
    }
  }
  return parts.length === 0 ? "[^\\x{0}-\\x{10FFFF}]" : `[${parts.join("")}]`;
}

function hex(code: number): string {
  return `\\x{${code.toString(16)}}`;
}

/** One character as an RE2 literal. */
function quote(c: string): string {
  return /[A-Za-z0-9_\/]/.test(c) ? c : hex(c.codePointAt(0)!);
}

const POSIX: Record<string, [number, number][]> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  blank: [[0x20, 0x20], [0x09, 0x09]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  word: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0x5f, 0x5f]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
};

/**
 * `{a,b}` alternatives expanded, innermost first, lazily and at most 256 of them (enough to
 * find the literal hidden segments without building `{a,b}`×24's 16 million strings).
 */
function expandBraces(pattern: string, limit = 256): string[] {
  const out: string[] = [];
  const visit = (p: string): void => {
    if (out.length >= limit) return;
    const match = /\{([^{}]*)\}/.exec(p);
    if (!match) {
      out.push(p);
      return;
    }
    const before = p.slice(0, match.index);
    const after = p.slice(match.index + match[0].length);
    for (const alt of match[1].split(",")) {
      if (out.length >= limit) return;
      visit(before + alt + after);
    }
  };
  visit(pattern);
  return out;
}
