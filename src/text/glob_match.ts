/**
 * Glob matching for the search tools (CONTRACT C9.2, C9.3), over `picomatch`. Pure: no I/O.
 *
 * @module
 */

import picomatch from "npm:picomatch@4.0.7";

/** A compiled glob. */
export interface GlobMatcher {
  /** Whether a path relative to the search directory (with `/` separators) matches. */
  match(relativePath: string): boolean;
  /** Whether a hidden name (starting with `.`) is named literally by the pattern (C9.2). */
  namesHidden(name: string): boolean;
  /** Whether files below a directory (relative path, `""` for the search directory) can match. */
  mayContain(directory: string): boolean;
}

const GLOB_CHARS = /[*?[\]{}()!+@\\]/;

/**
 * Compiles a glob per C9.3: matched against the relative path; a pattern without `/` matches
 * the file name at any depth; `**` spans zero or more directories; `*`, `?` and `[…]` never
 * match `/`; `{a,b}` alternates; case-sensitive.
 *
 * @param pattern The glob.
 * @returns The matcher.
 *
 * @example
 * ```ts
 * import { compileGlob } from "./glob_match.ts";
 *
 * console.log(compileGlob("*.ts").match("src/a.ts")); // true
 * ```
 */
export function compileGlob(pattern: string): GlobMatcher {
  const anywhere = !pattern.includes("/");
  const full = anywhere ? `**/${pattern}` : pattern.replace(/^\.\//, "");
  // `s`: a line break in a name is a character like any other (`**` skipped such names).
  const isMatch = picomatch(full, { dot: true, nocase: false, strictSlashes: false, flags: "s" });
  // Segments of the pattern that start with a literal `.`: the hidden names it asks for.
  const segments = expandBraces(full).flatMap((p) => p.split("/"));
  const hidden = segments.filter((s) => s.startsWith(".") && s !== "." && s !== "..");
  const hiddenMatchers = hidden.map((s) => picomatch(s, { dot: true }));
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
    match: (path) => isMatch(path),
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

/** `{a,b}` alternatives expanded (one level per brace, enough to find literal segments). */
function expandBraces(pattern: string): string[] {
  const match = /\{([^{}]*)\}/.exec(pattern);
  if (!match) return [pattern];
  const before = pattern.slice(0, match.index);
  const after = pattern.slice(match.index + match[0].length);
  return match[1].split(",").flatMap((alt) => expandBraces(before + alt + after)).slice(0, 256);
}
