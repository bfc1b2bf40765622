// `read` of images and documents (CONTRACT C17). Private to src/tools: read.ts sniffs the file's
// first bytes and hands a media file here with what it already read.

import { FsError } from "../fs_error.ts";
import type { FsToolsConfig } from "../config.ts";
import type { FsFileContent, FsTarget } from "../provider/fs_provider.ts";
import { offsetOutOfRangeMessage } from "../render/errors.ts";
import {
  damagedDocumentMessage,
  damagedImageMessage,
  documentTooLargeMessage,
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
  const content = request.content ??
    await env.fs.readText(request.target, { signal: env.signal });
  if (content.bytes.length > limit) throw refuse(content.bytes.length);
  const result = image
    ? imageRead(request, content.bytes)
    : await documentRead(env, request, content);
  env.emit("read", request.target, content.version);
  return result;
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
}

const FACTS = new WeakMap<LineIndex, DocumentFacts>();
const encoder = new TextEncoder();

async function documentRead(
  env: ToolEnv,
  request: MediaRequest,
  content: FsFileContent,
): Promise<ToolSuccess<ReadValue>> {
  const { shown } = request;
  const { getDocumentProxy } = await import("npm:unpdf@1.8.1");
  let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: the parser may take the buffer over, and a provider's bytes may be its own.
    doc = await getDocumentProxy(content.bytes.slice(), { verbosity: 0 });
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "PasswordException") {
      throw new FsError("FS_BINARY", { message: encryptedDocumentMessage(shown) });
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new FsError("FS_BINARY", { message: damagedDocumentMessage(shown, reason) });
  }
  try {
    const key = `document\0${request.target.realPath}\0${content.version}`;
    let index = env.lineIndexes.get(key);
    if (!index) env.lineIndexes.set(key, index = newLineIndex(1)); // a checkpoint per page
    let facts = FACTS.get(index);
    if (!facts) {
      facts = { pageStarts: [0], pages: doc.numPages, hasText: false, scannedAll: false };
      FACTS.set(index, facts);
    }
    const known = facts;
    // The document's text, one chunk per page, extracted only as the scan pulls it; a scan
    // resuming from a checkpoint (a page boundary) starts at that page.
    const source: ChunkSource = async function* (position) {
      const resume = known.pageStarts.indexOf(position);
      const first = resume >= 0 ? resume + 1 : 1;
      let at = known.pageStarts[first - 1];
      for (let page = first; page <= known.pages; page++) {
        env.signal?.throwIfAborted();
        const text = await pageText(doc, page);
        if (/\S/.test(text)) known.hasText = true;
        const chunk = encoder.encode(`${pageMarker(page)}\n${text}`);
        const start = at;
        at += chunk.length;
        known.pageStarts[page] = at;
        if (at > position) yield start >= position ? chunk : chunk.subarray(position - start);
      }
      if (first === 1) known.scannedAll = true;
    };
    const result = await scanWindow(source, {
      offset: request.offset,
      limit: request.limit,
      maxBytes: env.config.readMaxBytes,
      maxLineLength: env.config.readMaxLineLength,
      truncate: truncateLine,
      cost: lineCost,
      index,
      signal: env.signal,
    });
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
        detailed: env.config.detailedFooters,
      }),
      value,
    };
  } finally {
    await doc.loadingTask.destroy();
  }
}

/** One page's text: the text items in order, a line break where the page has one. */
async function pageText(
  doc: { getPage(n: number): Promise<PdfPage> },
  number: number,
): Promise<string> {
  const page = await doc.getPage(number);
  const content = await page.getTextContent();
  let text = "";
  for (const item of content.items) {
    if (!("str" in item)) continue;
    text += item.str;
    if (item.hasEOL) text += "\n";
  }
  page.cleanup();
  if (text !== "" && !text.endsWith("\n")) text += "\n";
  return text;
}

/** What {@linkcode pageText} uses of a pdf.js page. */
interface PdfPage {
  getTextContent(): Promise<{ items: ({ str: string; hasEOL: boolean } | object)[] }>;
  cleanup(): boolean;
}

/** Base64 of bytes, in chunks (no runtime-specific API). */
function toBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x6000) {
    out += btoa(String.fromCharCode(...bytes.subarray(i, i + 0x6000)));
  }
  return out;
}
