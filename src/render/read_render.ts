/**
 * The `read` view (CONTRACT C4.2): numbered lines, truncation marker, footers. Pure: no I/O.
 *
 * @module
 */

import type { ReadLine } from "../types.ts";
import { renderView } from "./_view.ts";

/** How a window ended, which decides the footer. */
export interface ReadWindowEnd {
  /** The first line of the window. */
  start: number;
  /** The last rendered line (`start - 1` for an empty window). */
  end: number;
  /** The file's total lines; absent when the byte cap ended the window and no pass counted them. */
  totalLines?: number;
  /** Whether the byte cap ended the window. */
  capped: boolean;
  /** The byte cap (`readMaxBytes`), named in the detailed capped footer. */
  maxBytes?: number;
  /** Config `detailedFooters` (C4.2a): the cap and total, `1 line`, the no-newline mark. */
  detailed?: boolean;
  /** Whether the file's last line has no line break (marked only when `detailed`). */
  noFinalNewline?: boolean;
}

/**
 * Truncates a line to `max` code points, adding the C4.2 marker.
 *
 * @param text The line's full text, or at least its first `max + 1` code points.
 * @param max `readMaxLineLength`.
 * @param long Whether the line is already known to be longer than `max` code points.
 * @returns The text as rendered.
 */
export function truncateLine(text: string, max: number, long = false): string {
  // Fast path: fewer UTF-16 units than the cap means fewer code points too.
  if (!long && text.length <= max) return text;
  let units = 0;
  let points = 0;
  while (units < text.length && points < max) {
    const code = text.charCodeAt(units);
    const next = text.charCodeAt(units + 1); // NaN past the end
    units += code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    points++;
  }
  if (!long && units >= text.length) return text;
  return `${text.slice(0, units)}... (line truncated to ${max} chars)`;
}

/**
 * One numbered line as rendered, without its line break.
 *
 * @param line The line.
 * @returns `<number>: <text>`.
 */
export function formatLine(line: ReadLine): string {
  return `${line.number}: ${line.text}`;
}

/**
 * The bytes {@linkcode formatLine} renders for a line, with its line break: what a read
 * window's byte cap counts.
 *
 * @param number The line number.
 * @param textBytes The UTF-8 length of the line's (truncated) text.
 * @returns The length of `<number>: <text>\n` in bytes.
 */
export function lineCost(number: number, textBytes: number): number {
  return String(number).length + 3 + textBytes;
}

/**
 * The footer of a read window: the design notes' texts (C4.2), or with `detailed` those of
 * C4.2a (the byte cap and the total when known, `1 line`, `; no newline at end of file`).
 *
 * @param end How the window ended.
 * @returns The footer line.
 */
export function readFooter(end: ReadWindowEnd): string {
  const next = end.end + 1;
  if (end.capped || end.totalLines === undefined) {
    if (!end.detailed) {
      return `(Output capped. Showing lines ${end.start}-${end.end}. Use offset=${next} to continue.)`;
    }
    const of = end.totalLines === undefined ? "" : ` of ${end.totalLines}`;
    return `(Output capped at ${end.maxBytes} bytes. Showing lines ${end.start}-${end.end}${of}. Use offset=${next} to continue.)`;
  }
  if (end.end < end.totalLines) {
    return `(Showing lines ${end.start}-${end.end} of ${end.totalLines}. Use offset=${next} to continue.)`;
  }
  if (!end.detailed) return `(End of file - total ${end.totalLines} lines)`;
  const total = end.totalLines === 1 ? "1 line" : `${end.totalLines} lines`;
  const mark = end.noFinalNewline && end.totalLines > 0 ? "; no newline at end of file" : "";
  return `(End of file - total ${total}${mark})`;
}

/**
 * Renders a read window.
 *
 * @param displayPath The file's display path (C3.4).
 * @param lines The rendered lines.
 * @param end How the window ended.
 * @param type `file`, or `document` for a PDF's text (C17.2).
 * @returns The model-facing text.
 *
 * @example
 * ```ts
 * import { renderRead } from "./read_render.ts";
 * import assert from "node:assert/strict";
 *
 * const text = renderRead("a.txt", [{ number: 1, text: "hello" }], {
 *   start: 1,
 *   end: 1,
 *   totalLines: 1,
 *   capped: false,
 * });
 * assert.equal(
 *   text,
 *   "<path>a.txt</path>\n<type>file</type>\n<content>\n1: hello\n\n(End of file - total 1 lines)\n</content>",
 * );
 * ```
 */
export function renderRead(
  displayPath: string,
  lines: readonly ReadLine[],
  end: ReadWindowEnd,
  type: "file" | "document" = "file",
): string {
  let body = "";
  for (const line of lines) body += formatLine(line) + "\n";
  return renderView(displayPath, type, body, readFooter(end));
}
