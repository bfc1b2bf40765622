/**
 * Unsafe names (CONTRACT C3.9): how a name or path that could forge lines, footers or
 * instructions in a result is shown. Pure: no I/O.
 *
 * @module
 */

/**
 * Control characters (C0, DEL, C1), the line and paragraph separators, and the bidi controls.
 * A name holding any of them could break a result's line structure or hide what it says.
 */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/**
 * Whether a name or path must be shown quoted (C3.9).
 *
 * @param name The name or path.
 * @returns `true` when it holds a control character, U+2028, U+2029 or a bidi control.
 */
export function isUnsafeName(name: string): boolean {
  return UNSAFE.test(name);
}

/**
 * A name or path as a result shows it (C3.9): an unsafe one as its JSON string literal, quotes
 * included, every other one as is; then the marker (`/`, `@` or nothing).
 *
 * @param name The name or path.
 * @param marker What follows it: `/` for a directory entry, `@` for another non-file, or `""`.
 * @returns The text to show.
 *
 * @example A newline cannot start a forged entry
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { renderName } from "./names.ts";
 *
 * equal(renderName("notes.txt"), "notes.txt");
 * equal(renderName("a\n(Empty directory)", "/"), '"a\\n(Empty directory)"/');
 * ```
 */
export function renderName(name: string, marker = ""): string {
  return (UNSAFE.test(name) ? JSON.stringify(name) : name) + marker;
}

/** The longest path an error message quotes whole, in UTF-16 code units. */
export const QUOTED_PATH_MAX = 4096;
/** Code units kept at each end of a longer path. */
const CLIP_KEEP = 1024;

/**
 * A path as an error message quotes it (C3.9): always its JSON string literal, which is the
 * plain quoted path for ordinary paths. A path over {@linkcode QUOTED_PATH_MAX} code units is
 * clipped to its first and last 1024, around `…[<n> characters clipped]…`, so a 10-million-
 * character argument does not come back as a 10 MB message (issue 19). No file system path is
 * that long (PATH_MAX is 4096 bytes), so only arguments that name nothing are clipped.
 *
 * @param path The path.
 * @returns `"<path>"`, escaped where needed.
 */
export function quotePath(path: string): string {
  if (path.length <= QUOTED_PATH_MAX) return JSON.stringify(path);
  const clipped = path.length - 2 * CLIP_KEEP;
  return JSON.stringify(
    `${path.slice(0, CLIP_KEEP)}…[${clipped} characters clipped]…${path.slice(-CLIP_KEEP)}`,
  );
}
