/**
 * The `read` executor (CONTRACT C4.2): a numbered window of a text file, whole-file or
 * streamed, with the same rules on both paths.
 *
 * @module
 */

import { FsError } from "../fs_error.ts";
import type { FsToolsConfig } from "../config.ts";
import {
  limitTooLargeMessage,
  offsetOutOfRangeMessage,
  VALIDATION_MESSAGES,
} from "../render/errors.ts";
import { readDirectoryMessage } from "../render/hints.ts";
import { lineCost, renderRead, truncateLine } from "../render/read_render.ts";
import { displayPath } from "../provider/roots.ts";
import { countNewlines } from "../text/newlines.ts";
import { invalid, isPositiveInteger, optional, requirePath } from "./_args.ts";
import { looksBinary, resolveIn, type Tool, type ToolEnv, type ToolSuccess } from "./_context.ts";
import {
  type ChunkSource,
  newLineIndex,
  scanWindow,
  type WindowResult,
} from "../text/read_window.ts";
import type { ReadValue } from "../types.ts";
import type { FsFileContent, FsReadHandle } from "../provider/fs_provider.ts";
import { type MediaKind, sniffMedia } from "../text/media_sniff.ts";
import { mediaCap, readMedia } from "./_media.ts";

/** Validated `read` arguments. */
export interface ReadRequest {
  /** The path as the caller gave it. */
  filePath: string;
  /** The first line, 1-based. */
  offset: number;
  /** How many lines at most. */
  limit: number;
  /** Whether the caller passed `offset` or `limit` (neither applies to an image, C17.1). */
  windowGiven: boolean;
}

/** `read`: its arguments checked, then a window of the file rendered. */
export const readTool: Tool<ReadRequest, ReadValue> = { parse, run };

/** Checks `read` arguments in the contract's order (C4.2); `limit` defaults to `readLimit`. */
function parse(a: Record<string, unknown>, config: Readonly<FsToolsConfig>): ReadRequest {
  const filePath = requirePath(a.file_path);
  const offset = optional(a.offset) ?? 1;
  if (!isPositiveInteger(offset)) throw invalid(VALIDATION_MESSAGES.offset);
  const limit = optional(a.limit) ?? config.readLimit;
  if (!isPositiveInteger(limit)) throw invalid(VALIDATION_MESSAGES.limit);
  if (limit > config.readLimit) throw invalid(limitTooLargeMessage(config.readLimit));
  const windowGiven = optional(a.offset) !== undefined || optional(a.limit) !== undefined;
  return { filePath, offset, limit, windowGiven };
}

/** Runs `read` with validated arguments. */
async function run(
  request: ReadRequest,
  env: ToolEnv,
): Promise<ToolSuccess<ReadValue>> {
  const { signal, config } = env;
  const target = await resolveIn(env, request.filePath, "read");
  const stat = await env.fs.stat(target, { signal });
  if (!stat) throw new FsError("FS_NOT_FOUND");
  if (stat.type === "directory") {
    throw new FsError("FS_NOT_REGULAR_FILE", {
      message: readDirectoryMessage(displayPath(env.cwd, target.path)),
    });
  }
  if (stat.type !== "file") throw new FsError("FS_NOT_REGULAR_FILE");
  const window = {
    offset: request.offset,
    limit: request.limit,
    maxBytes: config.readMaxBytes,
    maxLineLength: config.readMaxLineLength,
    truncate: truncateLine,
    cost: lineCost,
    signal,
  };
  const shown = displayPath(env.cwd, target.path);
  const media = (kind: MediaKind | null, content?: FsFileContent, open?: FsReadHandle) => {
    if (!kind) return null;
    if (kind !== "application/pdf" && !config.readImages) throw new FsError("FS_BINARY");
    const { offset, limit, windowGiven } = request;
    return readMedia(env, {
      target,
      shown,
      kind,
      size: stat.size,
      content,
      handle: open,
      offset,
      limit,
      windowGiven,
    });
  };
  // A media file found by the head of an open file is read on through it (C17.2a: the bytes
  // read are bounded, not the size the stat gave); `readMedia` closes it.
  const mediaThrough = (kind: MediaKind, open: FsReadHandle) => {
    if (kind !== "application/pdf" && !config.readImages) {
      open.close();
      throw new FsError("FS_BINARY");
    }
    return media(kind, undefined, open)!;
  };
  // The stat only suggests the whole-file path; the provider decides on the open file (C7.4).
  const small = stat.size !== null && stat.size < config.readStreamMinSize;
  let result: WindowResult;
  let version: string;
  let handle: FsReadHandle | undefined;
  let first: Uint8Array | undefined;
  if (!small || stat.size! > mediaCap(config)) {
    // Too large for a media file to be read whole: its head decides first (C17.1, C17.2).
    handle = await env.fs.streamText(target, { signal });
    let found: MediaKind | null;
    try {
      first = await head(handle.chunks, 8192);
      found = sniffMedia(first);
    } catch (error) {
      handle.close();
      throw error;
    }
    if (found) return await mediaThrough(found, handle);
    if (small) handle.close();
    if (small) handle = undefined;
  }
  // Whole only up to the document limit too: a file grown past it since the stat is streamed,
  // and a PDF among those is read through its open file (C17.2a).
  const wholeMaxSize = Math.min(config.readStreamMinSize - 1, config.readMaxDocumentBytes);
  const whole = small ? await env.fs.readText(target, { signal, wholeMaxSize }) : null;
  if (whole && !whole.tooLarge) {
    const read = media(sniffMedia(whole.bytes), whole);
    if (read) return await read;
    if (looksBinary(whole.bytes)) throw new FsError("FS_BINARY");
    const bytes = whole.bytes;
    const source: ChunkSource = async function* (position) {
      yield bytes.subarray(position);
    };
    result = await scanWindow(source, window);
    // The byte cap ended the window early: the total still costs only a count (C4.2).
    if (result.totalLines === undefined) result.totalLines = countLines(bytes);
    version = whole.version;
  } else {
    // Streamed: a large file, or one that grew past the whole-file size after the stat.
    if (!handle) {
      handle = await env.fs.streamText(target, { signal });
      let found: MediaKind | null;
      try {
        first = await head(handle.chunks, 8192);
        found = sniffMedia(first);
      } catch (error) {
        handle.close();
        throw error;
      }
      if (found) return await mediaThrough(found, handle);
    }
    try {
      if (looksBinary(first!)) throw new FsError("FS_BINARY");
      let index = env.lineIndexes.get(handle!.cacheKey);
      if (!index) env.lineIndexes.set(handle!.cacheKey, index = newLineIndex());
      result = await scanWindow(handle!.chunks, { ...window, index });
      // A capped window of a streamed file: the total once a pass has counted it, or counted
      // now when that is cheap (C4.2).
      result.totalLines ??= index.totalLines;
      if (result.totalLines === undefined && handle!.size !== null && handle!.size <= COUNT_MAX) {
        const counted = await countChunks(handle!.chunks(0));
        result.totalLines = index.totalLines = counted.lines;
        index.noFinalNewline = counted.noFinalNewline;
      }
      version = handle!.version;
    } finally {
      handle!.close();
    }
  }
  if (result.totalLines !== undefined && request.offset > Math.max(result.totalLines, 1)) {
    throw new FsError("FS_OFFSET_OUT_OF_RANGE", {
      message: offsetOutOfRangeMessage(request.offset, shown, result.totalLines),
    });
  }
  const end = request.offset + result.lines.length - 1;
  const content = renderRead(shown, result.lines, {
    start: request.offset,
    end,
    totalLines: result.totalLines,
    capped: result.capped,
    maxBytes: config.readMaxBytes,
    detailed: config.detailedFooters,
    noFinalNewline: result.noFinalNewline,
  });
  env.emit("read", target, version);
  const value: ReadValue = { path: target.path, offset: request.offset, lines: result.lines };
  if (result.totalLines !== undefined) value.totalLines = result.totalLines;
  return { content, value };
}

/** A streamed file this size or smaller is counted through when the byte cap hides its total. */
const COUNT_MAX = 1 << 20;

/**
 * The lines of a streamed file as C4.2 counts them (the caller knows it has two or more), and
 * whether its last line has no line break (C4.2a).
 */
async function countChunks(
  source: AsyncIterable<Uint8Array>,
): Promise<{ lines: number; noFinalNewline: boolean }> {
  let lines = 0;
  let last = -1;
  for await (const chunk of source) {
    if (chunk.length === 0) continue;
    lines += countNewlines(chunk);
    last = chunk[chunk.length - 1];
  }
  const noFinalNewline = last !== -1 && last !== 0x0a;
  return { lines: lines + (noFinalNewline ? 1 : 0), noFinalNewline };
}

/** The lines of a whole file as C4.2 counts them (the caller knows it is not only a BOM). */
function countLines(bytes: Uint8Array): number {
  const n = bytes.length;
  return countNewlines(bytes) + (n > 0 && bytes[n - 1] !== 0x0a ? 1 : 0);
}

/** The first `size` bytes from a chunk source (fewer for a short file). */
async function head(source: ChunkSource, size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  let filled = 0;
  for await (const chunk of source(0)) {
    const take = Math.min(chunk.length, size - filled);
    out.set(chunk.subarray(0, take), filled);
    filled += take;
    if (filled === size) break;
  }
  return out.subarray(0, filled);
}
