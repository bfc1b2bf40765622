/**
 * The `glob` view (CONTRACT C10): paths in path, size or modification order, a window at a time,
 * sizes, footers and the out-of-range message. Pure: no I/O.
 *
 * @module
 */

import { renderName } from "./names.ts";
import { plural } from "./_view.ts";
import {
  continueAt,
  envelope,
  pathLines,
  type SearchView,
  type SearchWindow,
} from "./_search_view.ts";

/** The orders of `glob` (C10). */
export type GlobOrder = "path" | "size" | "modified";

const ORDER_WORDS: Readonly<Record<GlobOrder, string>> = {
  path: "in path order",
  size: "largest first",
  modified: "newest first",
};

/**
 * What `read` would make of a file that is not text, as a sized listing names it after the size
 * (C10): C4.2's binary file, C17.1's image, C17.2's document.
 */
export type FileKind = "binary" | "image" | "document";

/**
 * A file size as `glob` shows it when sorted by size (C10): `<n> B` below 1024 bytes, else one
 * decimal and `KiB`, `MiB` or `GiB` (1024-based).
 *
 * @param bytes The size in bytes.
 * @returns The size text.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { formatSize } from "./glob_render.ts";
 *
 * equal(formatSize(264249), "258.1 KiB");
 * ```
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (unit < units.length - 1 && Number(value.toFixed(1)) >= 1024) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * Renders a `glob` result (C10): the files from `window.offset` on, in the order given.
 *
 * @param displayPath The search directory's display path.
 * @param pattern The pattern as given (string or array).
 * @param files Every matching file's display path (and size and kind when sorted by size), in
 *   order.
 * @param order The order the files come in.
 * @param window The offset, `globMaxFiles` and `readMaxBytes`.
 * @returns The view.
 */
export function renderGlob(
  displayPath: string,
  pattern: string | readonly string[],
  files: readonly { path: string; size?: number; kind?: FileKind }[],
  order: GlobOrder,
  window: SearchWindow,
): SearchView {
  const p = JSON.stringify(pattern);
  // At most `max` lines are shown: only those are rendered.
  const lines = files.slice(window.offset - 1, window.offset - 1 + window.max).map((f) =>
    order === "size"
      ? `${renderName(f.path)} (${sizeAndKind(f.size ?? 0, f.kind)})`
      : renderName(f.path)
  );
  const body = pathLines(lines, window.max, window.maxBytes);
  const n = files.length;
  let footer: string;
  if (n === 0) footer = `(No files match ${p})`;
  else if (window.offset === 1 && body.length === n) {
    footer = `(${plural(n, "file matches", "files match")} ${p})`;
  } else {
    const a = window.offset;
    const b = a + body.length - 1;
    footer = `(Showing files ${a}-${b} of ${n} matching ${p}, ${ORDER_WORDS[order]}.${
      continueAt(b, n)
    })`;
  }
  return { text: envelope(displayPath, "glob", body, footer), shown: body.length };
}

/** `<size>`, or `<size>, <kind>` for a file `read` would not show as text (C10). */
function sizeAndKind(bytes: number, kind: FileKind | undefined): string {
  return kind ? `${formatSize(bytes)}, ${kind}` : formatSize(bytes);
}

/**
 * The message for an offset past the last file of a `glob` (C10).
 *
 * @param offset The offset given.
 * @param total The matching files.
 * @param pattern The pattern as given.
 * @returns The message.
 */
export function globOffsetMessage(
  offset: number,
  total: number,
  pattern: string | readonly string[],
): string {
  return `offset ${offset} is out of range (${plural(total, "file matches", "files match")} ${
    JSON.stringify(pattern)
  })`;
}
