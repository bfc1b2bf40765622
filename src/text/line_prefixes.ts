/**
 * Detects text copied from `read` output with its line-number prefixes (CONTRACT C12.3).
 * Pure: no I/O.
 *
 * @module
 */

const PREFIX = /^\s*\d+: /;

/**
 * Whether every non-empty line of `text` starts with a `read` line prefix (`/^\s*\d+: /`).
 *
 * @param text The text, e.g. an `old_string` that was not found.
 * @returns `true` when it has at least one non-empty line and all of them carry a prefix.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { hasLinePrefixes } from "./line_prefixes.ts";
 *
 * equal(hasLinePrefixes("12: const a = 1;\n13: const b = 2;"), true);
 * equal(hasLinePrefixes("const a = 1;"), false);
 * ```
 */
export function hasLinePrefixes(text: string): boolean {
  let any = false;
  for (const line of text.split("\n")) {
    if (line === "" || line === "\r") continue;
    if (!PREFIX.test(line)) return false;
    any = true;
  }
  return any;
}
