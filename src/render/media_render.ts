/**
 * The `read` views and messages of images and documents (CONTRACT C17). Pure: no I/O.
 *
 * @module
 */

import type { ReadLine } from "../types.ts";
import { quotePath, renderName } from "./names.ts";
import { type ReadWindowEnd, renderRead } from "./read_render.ts";
import { formatSize } from "./glob_render.ts";

/** The validation message for `offset` or `limit` with an image (C17.1). */
export const IMAGE_WINDOW_MESSAGE = "offset and limit do not apply to images";

/** What the image envelope says about an image. */
export interface ImageFacts {
  /** The MIME type from the signature. */
  mimeType: string;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** The file's size in bytes. */
  size: number;
}

/**
 * The text of an image read (C17.1); the bytes travel as an attachment.
 *
 * @param displayPath The display path (C3.4).
 * @param image The image's type, dimensions and size.
 * @returns The model-facing text.
 *
 * @example
 * ```ts
 * import { renderImage } from "./media_render.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   renderImage("logo.png", { mimeType: "image/png", width: 3, height: 2, size: 84 }),
 *   "<path>logo.png</path>\n<type>image</type>\n<content>\nimage/png 3x2, 84 B\n</content>",
 * );
 * ```
 */
export function renderImage(displayPath: string, image: ImageFacts): string {
  const line = `${image.mimeType} ${image.width}x${image.height}, ${formatSize(image.size)}`;
  return `<path>${
    renderName(displayPath)
  }</path>\n<type>image</type>\n<content>\n${line}\n</content>`;
}

/**
 * The line before each page of a document's text (C17.2).
 *
 * @param page The 1-based page number.
 * @returns `--- page <n> ---`.
 */
export function pageMarker(page: number): string {
  return `--- page ${page} ---`;
}

/**
 * Renders a window of a document's text: the C4.2 view with `<type>document</type>` (C17.2).
 *
 * @param displayPath The display path.
 * @param lines The rendered lines (page markers included).
 * @param end How the window ended.
 * @returns The model-facing text.
 */
export function renderDocument(
  displayPath: string,
  lines: readonly ReadLine[],
  end: ReadWindowEnd,
): string {
  return renderRead(displayPath, lines, end, "document");
}

/**
 * The refusal of an image over `readMaxImageBytes` (C17.1).
 *
 * @param displayPath The display path.
 * @param size The file's size in bytes.
 * @param limit `readMaxImageBytes`.
 * @returns The message.
 */
export function imageTooLargeMessage(displayPath: string, size: number, limit: number): string {
  return `cannot read ${quotePath(displayPath)}: image of ${formatSize(size)} is over the ${
    formatSize(limit)
  } limit`;
}

/**
 * The refusal of a PDF over `readMaxDocumentBytes` (C17.2).
 *
 * @param displayPath The display path.
 * @param size The file's size in bytes.
 * @param limit `readMaxDocumentBytes`.
 * @returns The message.
 */
export function documentTooLargeMessage(displayPath: string, size: number, limit: number): string {
  return `cannot read ${quotePath(displayPath)}: PDF of ${formatSize(size)} is over the ${
    formatSize(limit)
  } limit`;
}

const IMAGE_NAMES: Record<string, string> = {
  "image/png": "PNG",
  "image/jpeg": "JPEG",
  "image/gif": "GIF",
  "image/webp": "WebP",
};

/**
 * The failure of a file that starts with an image signature but has no readable header.
 *
 * @param displayPath The display path.
 * @param mimeType The type its signature announced.
 * @returns The message.
 */
export function damagedImageMessage(displayPath: string, mimeType: string): string {
  const name = IMAGE_NAMES[mimeType] ?? mimeType;
  return `cannot read ${
    quotePath(displayPath)
  }: the file starts like a ${name} image but its header is damaged`;
}

/**
 * The failure of an encrypted PDF (C17.2).
 *
 * @param displayPath The display path.
 * @returns The message.
 */
export function encryptedDocumentMessage(displayPath: string): string {
  return `cannot read ${
    quotePath(displayPath)
  }: the PDF is encrypted; its text cannot be extracted without the password`;
}

/**
 * The failure of a PDF whose pages hold no text (scanned or image-only pages, C17.2).
 *
 * @param displayPath The display path.
 * @param pages The page count.
 * @returns The message.
 */
export function textlessDocumentMessage(displayPath: string, pages: number): string {
  return `cannot read ${quotePath(displayPath)}: the PDF has no extractable text (${pages} ${
    pages === 1 ? "page" : "pages"
  }, scanned or image-only)`;
}

/**
 * The failure of a file that starts like a PDF but cannot be parsed.
 *
 * @param displayPath The display path.
 * @param reason The parser's message.
 * @returns The message.
 */
export function damagedDocumentMessage(displayPath: string, reason: string): string {
  return `cannot read ${quotePath(displayPath)}: the PDF cannot be parsed (${reason})`;
}

/** Which bound of a document read (C17.2a) ended it. */
export type DocumentBound =
  | { kind: "time"; ms: number }
  | { kind: "memory"; bytes: number }
  | { kind: "stream"; bytes: number };

/**
 * The failure of a PDF read that reached one of its bounds (C17.2a): the contract's text around
 * what was reached.
 *
 * @param displayPath The display path.
 * @param bound The bound reached.
 * @returns The message.
 *
 * @example
 * ```ts
 * import { documentBoundMessage } from "./media_render.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   documentBoundMessage("a.pdf", { kind: "time", ms: 10000 }),
 *   'cannot read "a.pdf": extracting its text took longer than 10000 ms; read a smaller part with offset and limit',
 * );
 * ```
 */
export function documentBoundMessage(displayPath: string, bound: DocumentBound): string {
  return `cannot read ${quotePath(displayPath)}: ${
    boundReached(bound)
  }; read a smaller part with offset and limit`;
}

function boundReached(bound: DocumentBound): string {
  switch (bound.kind) {
    case "time":
      return `extracting its text took longer than ${bound.ms} ms`;
    case "memory":
      return `extracting its text needed more than ${formatSize(bound.bytes)} of memory`;
    case "stream":
      return `a stream in it inflates to more than ${formatSize(bound.bytes)}`;
  }
}

/**
 * The failure of a PDF read where the worker thread that parses PDFs (C17.2a) cannot run.
 *
 * @param displayPath The display path.
 * @param reason Why, as the runtime said.
 * @returns The message.
 */
export function documentWorkerMessage(displayPath: string, reason: string): string {
  return `cannot read ${
    quotePath(displayPath)
  }: PDFs are parsed in a worker thread, which could not run (${reason})`;
}
