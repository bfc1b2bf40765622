// The read window over a chunked byte source (CONTRACT C4.2). Pure logic: the caller supplies
// the chunks, so the whole-file and the streamed path share every rule. The model-facing truncation marker comes from the
// caller (`truncate`), so this file holds no text of its own.

import { FsError } from "../fs_error.ts";
import type { ReadLine } from "../types.ts";
import { countNewlines, firstNonAscii, skipNewlines } from "./newlines.ts";
import { utf8Length } from "./utf8.ts";

const LF = 0x0a;
const CR = 0x0d;

/** Yields the file's bytes from `position` on; a chunk may be a reused buffer. */
export type ChunkSource = (position: number) => AsyncIterable<Uint8Array>;

/** A place the scan can resume from: `newlines` line feeds lie before byte `position`. */
export interface Checkpoint {
  position: number;
  newlines: number;
  /** The byte just before `position`. */
  prev: number;
}

/** What one file version is known to hold, kept between reads to page cheaply. */
export interface LineIndex {
  /** Checkpoints in increasing order (position 0 is implicit). */
  checkpoints: Checkpoint[];
  /** Bytes between recorded checkpoints. */
  spacing: number;
  /** Total lines once a scan has reached the end. */
  totalLines?: number;
  /** Once a scan has reached the end: whether the last line has no line break. */
  noFinalNewline?: boolean;
}

export interface WindowRequest {
  offset: number;
  limit: number;
  maxBytes: number;
  maxLineLength: number;
  /**
   * Cuts a line to `max` code points and adds the marker (`truncateLine` of `render/`);
   * `long`: the line is known to be longer than `max`.
   */
  truncate: (text: string, max: number, long?: boolean) => string;
  /**
   * The bytes a line renders to with its line break, from its number and its text's UTF-8
   * length (`lineCost` of `render/`, beside the line's format).
   */
  cost: (number: number, textBytes: number) => number;
  /** The sparse index of this file version; the scan reads and extends it. */
  index?: LineIndex;
  signal?: AbortSignal;
  /**
   * Asked, once the window is complete, before each further chunk is pulled to count the total
   * (and once the source ends): `true` ends the scan there, the total unknown (a document read
   * whose bound was reached while counting, C17.2a).
   */
  stopCount?: () => boolean;
}

export interface WindowResult {
  lines: ReadLine[];
  /** Absent when the byte cap ended the window. */
  totalLines?: number;
  capped: boolean;
  /** With `totalLines`: whether the file's last line has no line break (C4.2a). */
  noFinalNewline?: boolean;
}

const MAX_CHECKPOINTS = 4096;
/**
 * A run of this many NUL bytes anywhere makes the file binary (`FS_BINARY`), as a NUL in its
 * first 8 KiB does: a sparse file's hole reads as NULs, and counting the lines of gigabytes of
 * them would take seconds for nothing (issue 10, finding 11).
 */
export const NUL_RUN_BINARY = 1 << 20;
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** A new, empty line index. */
export function newLineIndex(spacing = 1 << 20): LineIndex {
  return { checkpoints: [], spacing };
}

function record(
  index: LineIndex | undefined,
  position: number,
  newlines: number,
  prev: number,
): void {
  if (!index) return;
  const list = index.checkpoints;
  const last = list.length ? list[list.length - 1].position : 0;
  if (position - last < index.spacing) return;
  list.push({ position, newlines, prev });
  if (list.length >= MAX_CHECKPOINTS) {
    // Thin out: keep every other checkpoint and double the spacing. Memory stays bounded.
    index.checkpoints = list.filter((_, i) => i % 2 === 1);
    index.spacing *= 2;
  }
}

function startPoint(index: LineIndex | undefined, offset: number): Checkpoint {
  let best: Checkpoint = { position: 0, newlines: 0, prev: -1 };
  if (!index) return best;
  for (const point of index.checkpoints) {
    if (point.newlines < offset - 1) best = point;
    else break;
  }
  return best;
}

/**
 * Collects one line's bytes, keeping at most `cap` of them. The buffer grows as a line needs
 * it, so a large `cap` (a large `readMaxLineLength`) costs nothing until a line is that long.
 */
class LineBuffer {
  #bytes = new Uint8Array(256);
  #cap: number;
  #kept = 0;
  length = 0;

  constructor(cap: number) {
    this.#cap = cap;
  }

  add(chunk: Uint8Array, start: number, end: number): void {
    const take = Math.min(this.#cap - this.#kept, end - start);
    if (take > 0) {
      if (this.#kept + take > this.#bytes.length) {
        const grown = new Uint8Array(
          Math.min(this.#cap, Math.max(2 * this.#bytes.length, this.#kept + take)),
        );
        grown.set(this.#bytes.subarray(0, this.#kept));
        this.#bytes = grown;
      }
      this.#bytes.set(chunk.subarray(start, start + take), this.#kept);
      this.#kept += take;
    }
    this.length += end - start;
  }

  get truncated(): boolean {
    return this.length > this.#cap;
  }

  /** The kept bytes, without a final `\r` (only when the whole line is kept) and a BOM. */
  text(stripCr: boolean, stripBom: boolean): string {
    let begin = 0;
    let end = this.#kept;
    if (stripCr && !this.truncated && end > 0 && this.#bytes[end - 1] === CR) end--;
    const b = this.#bytes;
    if (stripBom && end >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) begin = 3;
    return decoder.decode(b.subarray(begin, end));
  }

  reset(): void {
    this.#kept = 0;
    this.length = 0;
  }
}

/**
 * Scans the window `offset .. offset + limit - 1` of a file. Stops as soon as the byte cap ends
 * the window; otherwise counts the remaining line feeds for the total (unless the index knows it).
 * Memory: one line buffer of at most `4 * maxLineLength + 8` bytes (grown as a line needs it)
 * plus the rendered window. A file holding only a UTF-8 BOM has 0 lines (C4.2). A run of
 * {@linkcode NUL_RUN_BINARY} NUL bytes throws `FS_BINARY`.
 */
export async function scanWindow(
  source: ChunkSource,
  request: WindowRequest,
): Promise<WindowResult> {
  const { offset, limit, maxBytes, maxLineLength, truncate, cost: lineCost, index, signal } =
    request;
  const stopCount = request.stopCount ?? (() => false);
  const from = startPoint(index, offset);
  const lines: ReadLine[] = [];
  const line = new LineBuffer(4 * maxLineLength + 8);
  let newlines = from.newlines; // line feeds before the current position
  let lastByte = from.position > 0 ? from.prev : -1; // -1: nothing seen (empty file so far)
  let position = from.position;
  let inWindow = false; // collecting window lines
  let done = false; // window complete: only counting remains
  let usedBytes = 0;
  let capped = false;
  let nulRun = 0; // NUL bytes just before `position` (within this scan)
  let bomOnly = from.position === 0; // no byte after a leading BOM yet (nor any other byte)

  // Ends the line in `line` as line `newlines + 1`; false when the window is complete.
  // `atLineFeed`: the line ends at a `\n`, so a final `\r` is part of the break, not the text.
  const finishLine = (atLineFeed = true): boolean => {
    const number = newlines + 1;
    const text = truncate(line.text(atLineFeed, number === 1), maxLineLength, line.truncated);
    const entry = { number, text };
    const cost = lineCost(number, utf8Length(text));
    line.reset();
    if (lines.length > 0 && usedBytes + cost > maxBytes) {
      capped = true;
      return false;
    }
    usedBytes += cost;
    lines.push(entry);
    return lines.length < limit;
  };

  for await (const chunk of source(position)) {
    signal?.throwIfAborted();
    const n = chunk.length;
    if (n === 0) continue;
    nulRun = trailingNuls(chunk, nulRun);
    if (bomOnly) bomOnly = isBomPrefix(chunk, position);
    let i = 0;
    if (!inWindow && !done) {
      const need = offset - 1 - newlines; // line feeds to pass before line `offset` starts
      if (need > 0) {
        const past = skipNewlines(chunk, need, 0, n);
        if (past < 0) {
          newlines += -1 - past; // all of this chunk's line feeds: fewer than needed
          lastByte = chunk[n - 1];
          position += n;
          record(index, position, newlines, lastByte);
          continue;
        }
        i = past;
        newlines += need;
      }
      inWindow = true;
    }
    while (inWindow && i < n) {
      if (line.length === 0) {
        // Fast path: the whole lines ahead in this chunk, decoded in one call and split (a line
        // feed never occurs inside a UTF-8 sequence, so the texts are those of line-by-line
        // decoding). A rendered line costs more than its bytes, so `maxBytes` bytes hold every
        // line the cap allows.
        const end = chunk.lastIndexOf(LF, Math.min(n, i + maxBytes + 1) - 1);
        if (end > i) {
          const ascii = firstNonAscii(chunk, i, end) === end; // then UTF-8 length = length
          let more = true;
          for (const raw of decoder.decode(chunk.subarray(i, end + 1)).split("\n")) {
            if (i > end) break; // the empty piece after the region's last line feed
            let text = raw.endsWith("\r") ? raw.slice(0, -1) : raw; // `\r\n`: not shown
            const number = newlines + 1;
            if (number === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // BOM
            text = truncate(text, maxLineLength);
            const cost = lineCost(number, ascii ? text.length : utf8Length(text));
            if (lines.length > 0 && usedBytes + cost > maxBytes) return { lines, capped: true };
            usedBytes += cost;
            lines.push({ number, text });
            newlines++;
            i = ascii ? i + raw.length + 1 : chunk.indexOf(LF, i) + 1;
            if (lines.length >= limit) {
              more = false;
              break;
            }
          }
          if (!more) {
            inWindow = false;
            done = true;
            if (index?.totalLines !== undefined) {
              return {
                lines,
                totalLines: index.totalLines,
                capped: false,
                noFinalNewline: index.noFinalNewline,
              };
            }
          }
          continue;
        }
      }
      const at = chunk.indexOf(LF, i);
      if (at < 0) {
        line.add(chunk, i, n);
        i = n;
        break;
      }
      line.add(chunk, i, at);
      const more = finishLine();
      if (capped) return { lines, capped: true };
      newlines++;
      i = at + 1;
      if (!more) {
        inWindow = false;
        done = true;
        if (index?.totalLines !== undefined) {
          return {
            lines,
            totalLines: index.totalLines,
            capped: false,
            noFinalNewline: index.noFinalNewline,
          };
        }
      }
    }
    if (done && i < n) newlines += countNewlines(chunk, i, n);
    lastByte = chunk[n - 1];
    position += n;
    record(index, position, newlines, lastByte);
    if (done && stopCount()) return { lines, capped: false };
  }
  signal?.throwIfAborted();
  if (done && stopCount()) return { lines, capped: false };
  if (bomOnly && position === 3) {
    // Only a BOM: no line at all, as in an empty file (C4.2).
    if (index) index.totalLines = 0;
    return { lines: [], totalLines: 0, capped: false };
  }
  if (inWindow && line.length > 0) {
    finishLine(false); // the last line, which has no final line feed
    if (capped) return { lines, capped: true };
  }
  const noFinalNewline = lastByte !== -1 && lastByte !== LF;
  const totalLines = newlines + (noFinalNewline ? 1 : 0);
  if (index) Object.assign(index, { totalLines, noFinalNewline });
  return { lines, totalLines, capped: false, noFinalNewline };
}

const BOM = [0xef, 0xbb, 0xbf];

/** Whether the bytes of `chunk`, found at `position` of the file, keep the file a BOM prefix. */
function isBomPrefix(chunk: Uint8Array, position: number): boolean {
  if (position + chunk.length > BOM.length) return false;
  return chunk.every((byte, i) => byte === BOM[position + i]);
}

/**
 * The length of the run of NUL bytes that ends `chunk`, given `run` NULs just before it; throws
 * `FS_BINARY` once a run reaches {@linkcode NUL_RUN_BINARY}. A chunk that is not all NULs is
 * mostly told by its first and last bytes.
 */
function trailingNuls(chunk: Uint8Array, run: number): number {
  const n = chunk.length;
  let lead = 0;
  while (lead < n && chunk[lead] === 0) lead++;
  if (run + lead >= NUL_RUN_BINARY) throw new FsError("FS_BINARY");
  if (lead === n) return run + n;
  let end = n;
  while (end > lead && chunk[end - 1] === 0) end--;
  if (n - end >= NUL_RUN_BINARY) throw new FsError("FS_BINARY");
  return n - end;
}
