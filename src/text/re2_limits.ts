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
