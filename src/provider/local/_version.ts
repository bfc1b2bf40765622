// File versions (CONTRACT C5.7): identity, size, mtime and a digest of the content (of its
// first and last 256 KiB above `fullDigestMaxSize`). Private to src/provider/local.

import { createHash } from "node:crypto";
import { readRange } from "./_read.ts";

const EDGE = 256 * 1024;

/** The size of the buffer {@linkcode Versioner.digest} reads a large file's edges into. */
export const EDGES_SIZE = 2 * EDGE;

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
   * order: the digest is the same as of the joined bytes. `edges` (`EDGES_SIZE` bytes) takes a
   * large file's head and tail; the head returned may lie in it.
   */
  async digest(
    info: Deno.FileInfo,
    bytes: Uint8Array | readonly Uint8Array[] | null,
    file: Deno.FsFile | null,
    edges?: Uint8Array,
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
      // Head and tail read straight into one buffer (`edges`, 2 x EDGE bytes, reused by
      // streamed reads); the head is hashed while the tail is read.
      edges ??= new Uint8Array(EDGES_SIZE);
      head = await readRange(file!, 0, EDGE, edges.subarray(0, EDGE));
      const tail = readRange(file!, info.size - EDGE, EDGE, edges.subarray(EDGE));
      hash.update(head).update(await tail);
    }
    return { version: versionOf(info, hash), head };
  }

  /**
   * A digest fed with content `length` bytes long, chunk by chunk in order (a streamed edit):
   * its version is the one {@linkcode Versioner.version} gives for the joined bytes.
   */
  stream(length: number): StreamDigest {
    return new StreamDigest(length, length <= this.#fullDigestMaxSize);
  }
}

/** The version of content `length` bytes long, computed as it streams by. */
export class StreamDigest {
  #hash = createHash("sha256");
  #whole: boolean;
  #length: number;
  #tailStart: number;
  #tail: Uint8Array;
  #at = 0;

  /**
   * @param length The content's length.
   * @param whole Digest all of it; else its first and last 256 KiB, as `digest` takes them.
   */
  constructor(length: number, whole: boolean) {
    this.#whole = whole;
    this.#length = length;
    this.#tailStart = length - EDGE >= 0 ? length - EDGE : Math.max(2 * length - EDGE, 0);
    this.#tail = new Uint8Array(whole ? 0 : length - this.#tailStart);
  }

  /** Feeds the next `bytes` of the content; they may be reused once this returns. */
  update(bytes: Uint8Array): void {
    const at = this.#at;
    this.#at += bytes.length;
    if (this.#whole) {
      this.#hash.update(bytes);
      return;
    }
    const head = bytes.subarray(0, Math.max(Math.min(EDGE, this.#length) - at, 0));
    if (head.length > 0) this.#hash.update(head);
    const from = Math.max(this.#tailStart - at, 0);
    if (from < bytes.length) {
      this.#tail.set(bytes.subarray(from, this.#length - at), at + from - this.#tailStart);
    }
  }

  /**
   * The version of the content fed, which is `info`'s file's.
   * @throws {RangeError} When not exactly the announced length was fed.
   */
  version(info: Deno.FileInfo): string {
    if (this.#at !== this.#length) {
      throw new RangeError(`digested ${this.#at} bytes of ${this.#length}`);
    }
    if (!this.#whole) this.#hash.update(this.#tail);
    return versionOf(info, this.#hash);
  }
}

function versionOf(info: Deno.FileInfo, hash: ReturnType<typeof createHash>): string {
  return `${identityKey(info)}:${hash.digest("hex").slice(0, 24)}`;
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
