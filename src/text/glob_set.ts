/**
 * A glob argument of the search tools (CONTRACT C9.3): one pattern or several, a pattern
 * starting with `!` excluding. A layer over {@linkcode compileGlob}, which matches one pattern.
 * Pure: no I/O.
 *
 * @module
 */

import { compileGlob, type GlobMatcher } from "./glob_match.ts";

/** How many patterns one glob argument may hold (C9.3). */
export const MAX_GLOB_PATTERNS = 20;

/** A compiled glob argument: the matcher and whether any pattern takes files (not `!`). */
export interface GlobSet extends GlobMatcher {
  /** Whether at least one pattern does not start with `!`. */
  readonly including: boolean;
  /** The argument as one string: two sets with the same key match the same paths. */
  readonly key: string;
}

/**
 * Compiles a glob argument per C9.3: a file is taken when it matches no excluding (`!`)
 * pattern and at least one other pattern, or when every pattern excludes. A leading `/` is
 * read as the search directory (the patterns are relative to it), never as the file system's
 * root.
 *
 * @param patterns The argument: one pattern or several, each non-empty.
 * @returns The matcher.
 *
 * @example
 * ```ts
 * import { compileGlobSet } from "./glob_set.ts";
 *
 * const set = compileGlobSet(["*.ts", "!*.test.ts"]);
 * console.log(set.match("src/a.ts"), set.match("src/a.test.ts")); // true false
 * ```
 */
export function compileGlobSet(patterns: string | readonly string[]): GlobSet {
  const list = typeof patterns === "string" ? [patterns] : patterns;
  const include: GlobMatcher[] = [];
  const exclude: GlobMatcher[] = [];
  for (const pattern of list) {
    if (pattern.startsWith("!")) exclude.push(compileGlob(relativeOf(pattern.slice(1))));
    else include.push(compileGlob(relativeOf(pattern)));
  }
  const including = include.length > 0;
  // One pattern, the common case, is matched directly (a search matches every file it meets).
  const match = include.length === 1 && exclude.length === 0
    ? include[0].match
    : (path: string) =>
      (!including || include.some((m) => m.match(path))) && !exclude.some((m) => m.match(path));
  return {
    including,
    key: JSON.stringify(list),
    match,
    namesHidden: (name) => include.some((m) => m.namesHidden(name)),
    mayContain: (directory) => !including || include.some((m) => m.mayContain(directory)),
  };
}

/**
 * A pattern with a leading `/` read as the search directory: anchored there (`/*.ts` is only the
 * search directory's own `.ts` files, as in `.gitignore`).
 */
function relativeOf(pattern: string): string {
  if (!pattern.startsWith("/")) return pattern;
  const trimmed = pattern.replace(/^\/+/, "");
  return trimmed === "" ? "**" : `./${trimmed}`;
}
