/**
 * The regular-expression constructs RE2 lacks (CONTRACT C12.12), found in a pattern so that the
 * error can name them. Pure: no I/O, no model-facing text.
 *
 * @module
 */

/** Escapes, character classes, look-around openers and repeat counts, in one left-to-right pass. */
const UNSUPPORTED = /\\.|\(\?<?[=!]|\{\d+(?:,\d*)?\}|\[(?:\\.|[^\]\\])*\]/g;

/**
 * The offending text of a construct RE2 does not support (C12.12): look-around (`(?=`, `(?!`,
 * `(?<=`, `(?<!`), a back-reference (`\1`…`\9`, `\k`) or a repeat count over 1000 (`{1001}`,
 * `{2,5000}`, or one the engine's message names), as written; `undefined` when the pattern
 * has none. Escapes and character
 * classes are stepped over, so `\(?=` and `[{2000}]` are not reported.
 *
 * @param pattern The pattern.
 * @param engineMessage The engine's message about the pattern, if it refused it.
 * @returns The construct, or `undefined`.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { unsupportedConstruct } from "./re2_limits.ts";
 *
 * equal(unsupportedConstruct("(a)\\1"), "\\1");
 * ```
 */
export function unsupportedConstruct(pattern: string, engineMessage = ""): string | undefined {
  // The engine names the repeat count it refused, also one of 1000 or less whose nesting
  // multiplies past its limit.
  const repeat = /invalid repeat count: `([^`]+)`/.exec(engineMessage);
  if (repeat) return repeat[1];
  for (const [text] of pattern.matchAll(UNSUPPORTED)) {
    if (text.startsWith("(?")) return text;
    if (/^\\[1-9k]$/.test(text)) return text;
    if (text.startsWith("{")) {
      const counts = text.slice(1, -1).split(",").filter((c) => c !== "").map(Number);
      if (counts.some((c) => c > 1000)) return text;
    }
  }
  return undefined;
}

/** Tokens for {@linkcode repeatTotal}: escapes, classes, group openers and closers, counts. */
const REPEAT_TOKENS = /\\.|\[(?:\\.|[^\]\\])*\]|\(|\)|\{\d+(?:,\d*)?\}|[\s\S]/g;

/**
 * The largest product of nested repeat counts in a pattern (`^(?:.{1000}){60}`: 60000): what
 * RE2's repetition budget of 1000 is checked against (C11). A count `{n,m}` counts as `m`,
 * `{n,}` as `n`; a pattern without counts gives 1.
 *
 * @param pattern The pattern.
 * @returns The product.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { repeatTotal } from "./re2_limits.ts";
 *
 * equal(repeatTotal("^(?:.{1000}){60}"), 60000);
 * ```
 */
export function repeatTotal(pattern: string): number {
  const frames = [1]; // the largest product inside each open group
  let last = 1; // the product of the atom just before a count
  for (const [token] of pattern.matchAll(REPEAT_TOKENS)) {
    const top = frames.length - 1;
    if (token === "(") {
      frames.push(1);
      last = 1;
    } else if (token === ")" && frames.length > 1) {
      last = frames.pop()!;
      frames[top - 1] = Math.max(frames[top - 1], last);
    } else if (/^\{\d/.test(token)) {
      const [low, high] = token.slice(1, -1).split(",");
      last *= Number(high || low);
      frames[top] = Math.max(frames[top], last);
    } else last = 1;
  }
  return Math.max(...frames);
}
