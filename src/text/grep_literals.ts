/**
 * The literals of a `grep` pattern (CONTRACT C11) and their search in bytes: what every matching
 * line must contain, so blocks without it are skipped undecoded. Pure: no I/O.
 *
 * @module
 */

import { byteSearch } from "./byte_search.ts";

const { rarity } = byteSearch;

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
  const runs = literalRuns(pattern);
  if (runs === null) return null;
  let best = "";
  for (const run of runs) if (run.length > best.length) best = run;
  return best.length >= 3 ? best : null;
}

/**
 * Every literal of at least 3 characters that every match of a pattern contains (read as
 * {@linkcode requiredLiteral} reads), the rarest-looking first: the one whose rarest byte is
 * rarest in source text, then the longest.
 *
 * @param pattern The pattern, in RE2 syntax.
 * @returns The literals (none when no simple reading applies).
 */
export function requiredLiterals(pattern: string): string[] {
  const runs = (literalRuns(pattern) ?? []).filter((r) => r.length >= 3);
  const score = (run: string) => {
    let best = 0;
    for (let i = 0; i < run.length; i++) best = Math.max(best, rarity(run.charCodeAt(i)));
    return best;
  };
  return [...new Set(runs)].sort((a, b) => score(b) - score(a) || b.length - a.length);
}

/** The top-level literal runs of a pattern, or `null` when it cannot be read simply. */
function literalRuns(pattern: string): string[] | null {
  if (pattern.includes("|") || pattern.includes("(?")) return null;
  const runs: string[] = [];
  let run = "";
  let depth = 0;
  const end = () => {
    if (run !== "") runs.push(run);
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
  return runs;
}
