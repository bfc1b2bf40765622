// File versions (CONTRACT C5.7): identity, size, mtime and a digest of the content (of its
// first and last 256 KiB above `fullDigestMaxSize`). Private to src/provider/local.

import { createHash } from "node:crypto";
import { readRange } from "./_read.ts";

const EDGE = 256 * 1024;

/** The identity part of a version, also the key of a streamed read's line index. */
export function identityKey(info: Pick<Deno.FileInfo, "dev" | "ino" | "size" | "mtime">): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtime?.getTime() ?? "?"}`;
}

/** Computes versions with one digest limit. */
export class Versioner {
  #fullDigestMaxSize: number;

  /** @param fullDigestMaxSize Files up to this size are digested whole. */
  constructor(fullDigestMaxSize: number) {
    this.#fullDigestMaxSize = fullDigestMaxSize;
  }

  /** The C5.7 version: identity, size, mtime and a digest of the content. */
  async version(
    info: Deno.FileInfo,
    bytes: Uint8Array | readonly Uint8Array[] | null,
    file: Deno.FsFile | null,
  ): Promise<string> {
    return (await this.digest(info, bytes, file)).version;
  }

  /**
   * The C5.7 version, and the file's first bytes when they had to be read for it (the whole
   * file up to `fullDigestMaxSize`, else its first 256 KiB), so a streamed read can start from
   * them without reading them again. `bytes`, when known, may be slices of the content in
   * order: the digest is the same as of the joined bytes.
   */
  async digest(
    info: Deno.FileInfo,
    bytes: Uint8Array | readonly Uint8Array[] | null,
    file: Deno.FsFile | null,
  ): Promise<{ version: string; head: Uint8Array | null }> {
    if (!bytes && !file) throw new TypeError("a version needs the bytes or the file");
    const hash = createHash("sha256"); // synchronous and native: no hop to a worker thread
    let head: Uint8Array | null = null;
    const pieces = bytes instanceof Uint8Array ? [bytes] : bytes;
    const length = pieces?.reduce((sum, piece) => sum + piece.length, 0) ?? 0;
    if (pieces && length <= this.#fullDigestMaxSize) hashRange(hash, pieces, 0, length);
    else if (info.size <= this.#fullDigestMaxSize) {
      head = await readRange(file!, 0, info.size);
      hash.update(head);
    } else if (pieces) {
      // As `subarray` would take them from one buffer (a negative start counts from the end).
      const tail = length - EDGE >= 0 ? length - EDGE : Math.max(2 * length - EDGE, 0);
      hashRange(hash, pieces, 0, Math.min(EDGE, length));
      hashRange(hash, pieces, tail, length);
    } else {
      // Head and tail read straight into one buffer; the head is hashed while the tail is read.
      const edges = new Uint8Array(2 * EDGE);
      head = await readRange(file!, 0, EDGE, edges.subarray(0, EDGE));
      const tail = readRange(file!, info.size - EDGE, EDGE, edges.subarray(EDGE));
      hash.update(head).update(await tail);
    }
    return { version: `${identityKey(info)}:${hash.digest("hex").slice(0, 24)}`, head };
  }
}

/** Feeds bytes `start` to `end` of the content `pieces` (in order) to `hash`. */
function hashRange(
  hash: ReturnType<typeof createHash>,
  pieces: readonly Uint8Array[],
  start: number,
  end: number,
): void {
  let at = 0; // where the current piece starts in the content
  for (const piece of pieces) {
    const from = Math.max(start - at, 0);
    const to = Math.min(end - at, piece.length);
    if (from < to) hash.update(piece.subarray(from, to));
    at += piece.length;
    if (at >= end) break;
  }
}
