// The HTTP/1.1 request framing `serveBounded` needs to bound a request without parsing it for
// the handler: where the head ends, how long the body is (Content-Length or chunked), and the
// head rewritten to `Connection: close`. Private to src/http.

const HEAD_END = [13, 10, 13, 10];
const CR = 13;
const LF = 10;
/** A chunk-size line longer than this ends the body (malformed: the inner server refuses it). */
const MAX_SIZE_LINE = 1024;

/** The index just past the blank line ending a request head, searched from `from`; -1: none. */
export function indexOfHeadEnd(bytes: Uint8Array, from: number): number {
  outer: for (let i = from; i + 4 <= bytes.length; i++) {
    for (let k = 0; k < 4; k++) if (bytes[i + k] !== HEAD_END[k]) continue outer;
    return i + 4;
  }
  return -1;
}

function latin1(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** The head's lines (request line first), without the blank line. */
function headLines(head: Uint8Array): string[] {
  return latin1(head).replace(/\r\n\r\n$/, "").split("\r\n");
}

/** The head with its `Connection` and `Keep-Alive` headers replaced by `Connection: close`. */
export function closeConnection(head: Uint8Array): Uint8Array {
  const kept = headLines(head).filter((line, i) =>
    i === 0 || !/^(connection|keep-alive)\s*:/i.test(line)
  );
  kept.push("Connection: close");
  const out = kept.join("\r\n") + "\r\n\r\n";
  const bytes = new Uint8Array(out.length);
  for (let i = 0; i < out.length; i++) bytes[i] = out.charCodeAt(i);
  return bytes;
}

/** Finds where a request body ends as its bytes go by. */
export interface BodyEnd {
  /** The index in `bytes` just past the body's last byte, or -1 when it goes on. */
  feed(bytes: Uint8Array): number;
}

/**
 * How the body after `head` ends: `null` when there is none (no Content-Length, no chunked
 * Transfer-Encoding: a request without a body in HTTP/1.1), else a tracker of its end.
 */
export function bodyEnd(head: Uint8Array): BodyEnd | null {
  let length: number | null = null;
  for (const line of headLines(head).slice(1)) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "transfer-encoding" && /chunked/i.test(value)) return new ChunkedEnd();
    if (name === "content-length" && length === null) length = /^\d+$/.test(value) ? +value : 0;
  }
  return length ? new LengthEnd(length) : null;
}

class LengthEnd implements BodyEnd {
  #left: number;
  constructor(length: number) {
    this.#left = length;
  }
  feed(bytes: Uint8Array): number {
    if (bytes.length >= this.#left) return this.#left;
    this.#left -= bytes.length;
    return -1;
  }
}

/** Chunked framing: size lines, data, CRLF, ..., a zero size, trailers, a blank line. */
class ChunkedEnd implements BodyEnd {
  #state: "size" | "data" | "crlf" | "trailer" = "size";
  #line = "";
  #left = 0;
  #trailer = 0;

  feed(bytes: Uint8Array): number {
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      switch (this.#state) {
        case "size":
          if (byte === LF) {
            const size = parseInt(this.#line.split(";")[0].trim(), 16);
            if (!Number.isFinite(size) || size < 0) return i + 1; // malformed: ends here
            this.#line = "";
            this.#left = size;
            this.#state = size === 0 ? "trailer" : "data";
            this.#trailer = 0;
          } else if (byte !== CR) {
            this.#line += String.fromCharCode(byte);
            if (this.#line.length > MAX_SIZE_LINE) return i + 1;
          }
          break;
        case "data": {
          const take = Math.min(this.#left, bytes.length - i);
          this.#left -= take;
          i += take - 1;
          if (this.#left === 0) this.#state = "crlf";
          break;
        }
        case "crlf":
          if (byte === LF) this.#state = "size";
          break;
        case "trailer":
          if (byte === LF) {
            if (this.#trailer === 0) return i + 1;
            this.#trailer = 0;
          } else if (byte !== CR) this.#trailer++;
      }
    }
    return -1;
  }
}
