// The bytes between a client and the inner server of `serveBounded`: the request head read
// whole, the body passed on until it is complete, the response passed back; each step noted in
// the connection's slot, which `serveBounded` checks for its deadlines and its evictions.
// Private to src/http.

import { type BodyEnd, indexOfHeadEnd } from "./_http_framing.ts";

const MAX_HEAD_BYTES = 64 * 1024;

/** One open connection: what it is doing and how fast. */
export interface Slot {
  conn: Deno.Conn;
  /** When it was accepted. */
  since: number;
  /** Request bytes received so far. */
  bytes: number;
  phase: "head" | "body" | "response";
  /** When the write of response bytes now pending began; `null`: none pending. */
  writing: number | null;
  /** Whether a response byte has come from the inner server (unset: not yet). */
  answered?: boolean;
  /** Whether its request head passed `mayWait` (it may wait for its answer past the deadline). */
  mayWait?: boolean;
}

/** The response, from the inner server to the client; a pending write is timed in `slot`. */
export async function pumpDown(up: Deno.Conn, slot: Slot): Promise<void> {
  const buffer = new Uint8Array(64 * 1024);
  for (;;) {
    const n = await up.read(buffer);
    if (n === null) return;
    slot.answered = true;
    slot.writing = Date.now();
    await writeAll(slot.conn, buffer.subarray(0, n));
    slot.writing = null;
  }
}

/**
 * The request body, from the client to the inner server, until `end` says it is complete (none
 * when `end` is `null`); then the slot is in its response phase, and what the client sends is
 * read and dropped until it closes, which ends the call (the inner server is told by `close`).
 */
export async function pumpUp(
  slot: Slot,
  up: Deno.Conn,
  end: BodyEnd | null,
  rest: Uint8Array,
): Promise<void> {
  const buffer = new Uint8Array(16 * 1024);
  let bytes = rest;
  while (end) {
    const at = end.feed(bytes);
    await writeAll(up, at < 0 ? bytes : bytes.subarray(0, at));
    if (at >= 0) break;
    const n = await slot.conn.read(buffer);
    if (n === null) return;
    slot.bytes += n;
    bytes = buffer.subarray(0, n);
  }
  slot.phase = "response";
  while (await slot.conn.read(buffer) !== null) {
    // nothing more is passed on (one request a connection)
  }
}

/** The answer to a request head with a bare `\n` line ending. */
const BAD_REQUEST = new TextEncoder().encode(
  "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
);

/**
 * The request head (through the blank line) and the bytes read past it, or `null` when the
 * peer closed, was closed for being too slow or sent a head over 64 KiB, or a line of the head
 * ends in a bare `\n` (answered 400 here: the relay frames by CRLF, and the inner server must
 * never see a head that ends elsewhere).
 */
export async function readHead(slot: Slot): Promise<{ head: Uint8Array; rest: Uint8Array } | null> {
  try {
    let buffer = new Uint8Array(0);
    const chunk = new Uint8Array(16 * 1024);
    for (;;) {
      const n = await slot.conn.read(chunk);
      if (n === null) return null;
      slot.bytes += n;
      const joined = new Uint8Array(buffer.length + n);
      joined.set(buffer);
      joined.set(chunk.subarray(0, n), buffer.length);
      const from = Math.max(0, buffer.length - 3);
      buffer = joined;
      const end = indexOfHeadEnd(buffer, from);
      if (hasBareLf(buffer, Math.max(0, from - 1), end >= 0 ? end : buffer.length)) {
        await writeAll(slot.conn, BAD_REQUEST).catch(() => {});
        return null;
      }
      if (end >= 0) return { head: buffer.subarray(0, end), rest: buffer.subarray(end) };
      if (buffer.length > MAX_HEAD_BYTES) return null;
    }
  } catch {
    return null;
  }
}

/** Whether a `\n` not preceded by `\r` lies in `bytes[from, to)`. */
function hasBareLf(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    if (bytes[i] === 10 && (i === 0 || bytes[i - 1] !== 13)) return true;
  }
  return false;
}

/** Writes all of `bytes` to `conn`. */
export async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.length) at += await conn.write(bytes.subarray(at));
}
