// `read` of images and documents (CONTRACT C17). Private to src/tools: read.ts sniffs the file's
// first bytes and hands a media file here with what it already read.

import { FsError } from "../fs_error.ts";
import type { FsToolsConfig } from "../config.ts";
import type { FsFileContent, FsReadHandle, FsTarget } from "../provider/fs_provider.ts";
import { offsetOutOfRangeMessage } from "../render/errors.ts";
import {
  damagedDocumentMessage,
  damagedImageMessage,
  documentBoundMessage,
  documentTooLargeMessage,
  documentWorkerMessage,
  encryptedDocumentMessage,
  IMAGE_WINDOW_MESSAGE,
  imageTooLargeMessage,
  pageMarker,
  renderDocument,
  renderImage,
  textlessDocumentMessage,
} from "../render/media_render.ts";
import { lineCost, truncateLine } from "../render/read_render.ts";
import { imageDimensions, type MediaKind } from "../text/media_sniff.ts";
import { type ChunkSource, type LineIndex, newLineIndex, scanWindow } from "../text/read_window.ts";
import type { ReadValue } from "../types.ts";
import { invalid } from "./_args.ts";
import {
  DocumentBoundError,
  DocumentParseError,
  DocumentWorkerError,
  openDocument,
} from "./_pdf.ts";
import type { ToolEnv, ToolSuccess } from "./_context.ts";

/** What read.ts knows when it finds a media file. */
export interface MediaRequest {
  target: FsTarget;
  /** The display path. */
  shown: string;
  kind: MediaKind;
  /** The size `stat` gave (`null`: unknown). */
  size: number | null;
  /** The whole file, when read.ts already read it. */
  content?: FsFileContent;
  /** Else the file, open: read here (at most the limit and one byte), and closed. */
  handle?: FsReadHandle;
  offset: number;
  limit: number;
  /** Whether the caller passed `offset` or `limit`. */
  windowGiven: boolean;
}

/** The largest media file `read` takes: anything larger is refused after a sniff of its head. */
export function mediaCap(config: Readonly<FsToolsConfig>): number {
  return Math.min(config.readMaxImageBytes, config.readMaxDocumentBytes);
}

/** Reads an image (C17.1) or a PDF's text (C17.2), and records the read observation (C17.4). */
export async function readMedia(
  env: ToolEnv,
  request: MediaRequest,
): Promise<ToolSuccess<ReadValue>> {
  const started = performance.now();
  let handle = request.handle;
  try {
    const image = request.kind !== "application/pdf";
    if (image && request.windowGiven) throw invalid(IMAGE_WINDOW_MESSAGE);
    const limit = image ? env.config.readMaxImageBytes : env.config.readMaxDocumentBytes;
    const refuse = (size: number) =>
      new FsError("FS_IO_ERROR", {
        message: image
          ? imageTooLargeMessage(request.shown, size, limit)
          : documentTooLargeMessage(request.shown, size, limit),
      });
    // Refused from the size alone, before the file is read (memory stays bounded).
    if (request.size !== null && request.size > limit) throw refuse(request.size);
    let content = request.content;
    if (!content) {
      // Through the open file, never more than the limit and one byte: the file may have grown
      // since its size was checked (C17.2a).
      handle ??= await env.fs.streamText(request.target, { signal: env.signal });
      if (handle.size !== null && handle.size > limit) throw refuse(handle.size);
      const bytes = await readUpTo(handle, limit + 1);
      if (bytes.length > limit) {
        const now = await env.fs.stat(request.target, { signal: env.signal }).catch(() => null);
        throw refuse(Math.max(now?.size ?? 0, bytes.length));
      }
      content = { bytes, version: handle.version };
    }
    handle?.close();
    handle = undefined;
    if (content.bytes.length > limit) throw refuse(content.bytes.length);
    const result = image
      ? imageRead(request, content.bytes)
      : await documentRead(env, request, content, started);
    env.emit("read", request.target, content.version);
    return result;
  } finally {
    handle?.close();
  }
}

/** The first `max` bytes of an open file (fewer when it is shorter). */
async function readUpTo(handle: FsReadHandle, max: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of handle.chunks(0)) {
    const take = chunk.subarray(0, max - length);
    chunks.push(take.slice()); // a chunk may be a reused buffer
    length += take.length;
    if (length >= max) break;
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

function imageRead(request: MediaRequest, bytes: Uint8Array): ToolSuccess<ReadValue> {
  const mimeType = request.kind;
  const size = mimeType === "application/pdf" ? null : imageDimensions(bytes, mimeType);
  if (!size) {
    throw new FsError("FS_BINARY", { message: damagedImageMessage(request.shown, mimeType) });
  }
  const image = { mimeType, width: size.width, height: size.height, size: bytes.length };
  return {
    content: renderImage(request.shown, image),
    value: { path: request.target.path, offset: 1, lines: [], image },
    attachments: [{ type: "image", mimeType, data: toBase64(bytes) }],
  };
}

/** What earlier reads learnt of one PDF version, beside its line index. */
interface DocumentFacts {
  /** Byte offset of each page's text (with its marker) in the document's text, by page - 1. */
  pageStarts: number[];
  pages: number;
  /** Whether any page seen so far has text. */
  hasText: boolean;
  /** Whether one scan went from page 1 to the last. */
  scannedAll: boolean;
  /** Whether a bound ended a count of the pages after a window (C17.2a). */
  countCut: boolean;
}

const FACTS = new WeakMap<LineIndex, DocumentFacts>();
const encoder = new TextEncoder();

async function documentRead(
  env: ToolEnv,
  request: MediaRequest,
  content: FsFileContent,
  started: number,
): Promise<ToolSuccess<ReadValue>> {
  const { shown } = request;
  const fail = (error: unknown): never => {
    if (error instanceof DocumentBoundError) {
      throw new FsError("FS_IO_ERROR", { message: documentBoundMessage(shown, error.bound) });
    }
    if (error instanceof DocumentWorkerError) {
      throw new FsError("FS_IO_ERROR", { message: documentWorkerMessage(shown, error.message) });
    }
    if (error instanceof DocumentParseError) {
      if (error.name === "PasswordException") {
        throw new FsError("FS_BINARY", { message: encryptedDocumentMessage(shown) });
      }
      throw new FsError("FS_BINARY", { message: damagedDocumentMessage(shown, error.message) });
    }
    throw error;
  };
  // A copy, handed to the worker: a provider's bytes may be its own.
  const doc = await openDocument(content.bytes.slice(), {
    signal: env.signal,
    timeMs: env.config.readDocumentTimeMs,
    started,
  }).catch(fail);
  try {
    const key = `document\0${request.target.realPath}\0${content.version}`;
    let index = env.lineIndexes.get(key);
    if (!index) env.lineIndexes.set(key, index = newLineIndex(1)); // a checkpoint per page
    let facts = FACTS.get(index);
    if (!facts) {
      facts = {
        pageStarts: [0],
        pages: doc.pages,
        hasText: false,
        scannedAll: false,
        countCut: false,
      };
      FACTS.set(index, facts);
    }
    const known = facts;
    // Once the window is complete, only the total remains: a bound reached while counting ends
    // the count (the footer then has no total), not the read; later reads do not count again.
    let windowDone = false;
    let cut = false;
    let ended = false; // the source gave every page
    // The document's text, one chunk per page, extracted only as the scan pulls it; a scan
    // resuming from a checkpoint (a page boundary) starts at that page.
    const source: ChunkSource = async function* (position) {
      const resume = known.pageStarts.indexOf(position);
      const first = resume >= 0 ? resume + 1 : 1;
      let at = known.pageStarts[first - 1];
      for (let page = first; page <= known.pages; page++) {
        env.signal?.throwIfAborted();
        let text: string;
        try {
          text = await doc.pageText(page);
        } catch (error) {
          // Only the total was left: any failure but an abort ends the count, not the read.
          if (windowDone && !env.signal?.aborted) {
            cut = known.countCut = true;
            return;
          }
          return fail(error);
        }
        if (/\S/.test(text)) known.hasText = true;
        const chunk = encoder.encode(`${pageMarker(page)}\n${text}`);
        const start = at;
        at += chunk.length;
        known.pageStarts[page] = at;
        if (at > position) yield start >= position ? chunk : chunk.subarray(position - start);
      }
      if (first === 1) known.scannedAll = true;
      ended = true;
    };
    const scan = {
      maxLineLength: env.config.readMaxLineLength,
      truncate: truncateLine,
      cost: lineCost,
      index,
      signal: env.signal,
      stopCount: () => {
        windowDone = true;
        return !ended && (cut || known.countCut);
      },
    };
    const result = await scanWindow(source, {
      ...scan,
      offset: request.offset,
      limit: request.limit,
      maxBytes: env.config.readMaxBytes,
    });
    if (result.capped && result.totalLines === undefined && env.config.detailedFooters) {
      // C4.2a: the detailed capped footer names the total, as a text file's does; the pages
      // after the window are counted (a bound reached while counting leaves it unknown).
      const after = request.offset + result.lines.length;
      const rest = await scanWindow(source, {
        ...scan,
        offset: after,
        limit: 1,
        maxBytes: Infinity,
      });
      if (rest.totalLines !== undefined) result.totalLines = rest.totalLines;
    }
    if (known.scannedAll && !known.hasText) {
      throw new FsError("FS_BINARY", { message: textlessDocumentMessage(shown, known.pages) });
    }
    if (result.totalLines !== undefined && request.offset > Math.max(result.totalLines, 1)) {
      throw new FsError("FS_OFFSET_OUT_OF_RANGE", {
        message: offsetOutOfRangeMessage(request.offset, shown, result.totalLines),
      });
    }
    const end = request.offset + result.lines.length - 1;
    const value: ReadValue = {
      path: request.target.path,
      offset: request.offset,
      lines: result.lines,
      document: { pages: known.pages },
    };
    if (result.totalLines !== undefined) value.totalLines = result.totalLines;
    return {
      content: renderDocument(shown, result.lines, {
        start: request.offset,
        end,
        totalLines: result.totalLines,
        capped: result.capped,
        maxBytes: env.config.readMaxBytes,
        // A count a bound cut short: the plain footer, which names no byte cap.
        detailed: env.config.detailedFooters && (result.capped || result.totalLines !== undefined),
      }),
      value,
    };
  } finally {
    await doc.close();
  }
}

/** Base64 of bytes, in chunks (no runtime-specific API). */
function toBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x6000) {
    out += btoa(String.fromCharCode(...bytes.subarray(i, i + 0x6000)));
  }
  return out;
}
