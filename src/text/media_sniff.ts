// Media by signature (CONTRACT C17): which image or document a file's first bytes announce, and an
// image's dimensions from its header. Pure byte work, no I/O; the formats are small enough that
// a parser of their headers is shorter than a dependency.

/** The image types `read` returns as images (C17.1). */
export type ImageMimeType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** What a file's signature says it is. */
export type MediaKind = ImageMimeType | "application/pdf";

/** The bytes a sniff needs: enough for every signature below. */
export const SNIFF_BYTES = 16;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The media type a file's first bytes announce, or `null` for anything else (text included).
 *
 * @param head The file's first bytes ({@linkcode SNIFF_BYTES} or more, or the whole file).
 */
export function sniffMedia(head: Uint8Array): MediaKind | null {
  if (startsWith(head, PNG)) return "image/png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (ascii(head, 0, 6) === "GIF87a" || ascii(head, 0, 6) === "GIF89a") return "image/gif";
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return "image/webp";
  if (ascii(head, 0, 5) === "%PDF-") return "application/pdf";
  return null;
}

/** An image's size in pixels. */
export interface ImageDimensions {
  width: number;
  height: number;
}

/**
 * An image's dimensions from its header, or `null` when the header is missing or damaged.
 *
 * @param bytes The whole file (a JPEG's frame header may follow large metadata segments).
 * @param type The type {@linkcode sniffMedia} gave.
 */
export function imageDimensions(bytes: Uint8Array, type: ImageMimeType): ImageDimensions | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let size: ImageDimensions | null = null;
  if (type === "image/png") size = pngSize(bytes, view);
  else if (type === "image/gif") size = gifSize(view);
  else if (type === "image/webp") size = webpSize(bytes, view);
  else size = jpegSize(bytes, view);
  return size && size.width > 0 && size.height > 0 ? size : null;
}

function pngSize(bytes: Uint8Array, view: DataView): ImageDimensions | null {
  // Signature, then the IHDR chunk: length (13), "IHDR", width, height (big-endian).
  if (bytes.length < 24 || ascii(bytes, 12, 16) !== "IHDR" || view.getUint32(8) !== 13) {
    return null;
  }
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function gifSize(view: DataView): ImageDimensions | null {
  if (view.byteLength < 10) return null;
  return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
}

function webpSize(bytes: Uint8Array, view: DataView): ImageDimensions | null {
  const chunk = ascii(bytes, 12, 16);
  if (chunk === "VP8 " && bytes.length >= 30) {
    // Lossy: a key frame's start code, then 14-bit width and height.
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  if (chunk === "VP8L" && bytes.length >= 25) {
    // Lossless: signature 0x2f, then width - 1 and height - 1 in 14 bits each.
    if (bytes[20] !== 0x2f) return null;
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X" && bytes.length >= 30) {
    // Extended: canvas width - 1 and height - 1 in 24 bits each.
    return { width: uint24(bytes, 24) + 1, height: uint24(bytes, 27) + 1 };
  }
  return null;
}

function jpegSize(bytes: Uint8Array, view: DataView): ImageDimensions | null {
  let i = 2;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    // Markers without a length: TEM, RST0–RST7, SOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan before a frame
    const length = view.getUint16(i + 2);
    if (length < 2) return null;
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (i + 9 > bytes.length) return null;
      return { width: view.getUint16(i + 7), height: view.getUint16(i + 5) };
    }
    i += 2 + length;
  }
  return null;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  if (bytes.length < prefix.length) return false;
  return prefix.every((byte, i) => bytes[i] === byte);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  if (bytes.length < to) return "";
  return String.fromCharCode(...bytes.subarray(from, to));
}

function uint24(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
}
