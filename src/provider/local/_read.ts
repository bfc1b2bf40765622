// Reading bytes of an open file: whole (bounded by the size at open), ranges, and the chunk
// stream of a streamed read. Private to src/provider/local.

/**
 * The file's first `size` bytes (its size when it was opened): never more, so a file another
 * process keeps growing cannot make the read hold more than it had (C7.4). Fewer when it shrank.
 */
export async function readAll(
  file: Deno.FsFile,
  size: number,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const buffer = new Uint8Array(Math.max(size, 0));
  let length = 0;
  while (length < buffer.length) {
    signal?.throwIfAborted();
    const n = await file.read(buffer.subarray(length));
    if (n === null) break;
    length += n;
  }
  return buffer.subarray(0, length);
}

export async function readRange(
  file: Deno.FsFile,
  position: number,
  length: number,
  out: Uint8Array = new Uint8Array(length),
): Promise<Uint8Array> {
  file.seekSync(position, Deno.SeekMode.Start); // lseek does no I/O: no need for a thread hop
  let filled = 0;
  while (filled < length) {
    const n = await file.read(out.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return out.subarray(0, filled);
}

/**
 * The buffers of one streamed read: the two chunk buffers and the version digest's head and
 * tail (`edges`, 2 x 256 KiB).
 */
export interface ReadBuffers {
  chunks: readonly [Uint8Array, Uint8Array];
  edges: Uint8Array;
}

/**
 * Buffers of streamed reads kept for the next ones. A fresh buffer costs a page fault for each
 * page it is read into (here up to 10 µs a page: a first window of a big file faulted 128 pages
 * for its version's head and tail alone), a reused one nothing. A read takes a set and gives it
 * back when its handle is closed and no chunk read of it is in flight; at most `keep` sets are
 * kept, so concurrent reads beyond that allocate as before.
 */
export class ReadBufferPool {
  #free: ReadBuffers[] = [];
  #chunkSize: number;
  #edgeSize: number;
  #keep: number;

  /**
   * @param chunkSize Each chunk buffer's size.
   * @param edgeSize The digest's `edges` buffer size.
   * @param keep Sets kept at most.
   */
  constructor(chunkSize: number, edgeSize: number, keep = 2) {
    this.#chunkSize = chunkSize;
    this.#edgeSize = edgeSize;
    this.#keep = keep;
  }

  /** A set no one else uses. */
  take(): ReadBuffers {
    return this.#free.pop() ?? {
      chunks: [new Uint8Array(this.#chunkSize), new Uint8Array(this.#chunkSize)],
      edges: new Uint8Array(this.#edgeSize),
    };
  }

  /** Gives back a set its reader is done with (no read into it in flight). */
  give(buffers: ReadBuffers): void {
    if (this.#free.length < this.#keep) this.#free.push(buffers);
  }
}

/**
 * One streamed read's file and buffers: its chunk streams, and its close, after which the buffers
 * go back to the pool once no stream has a read into them in flight (a stream left suspended
 * keeps them from the pool for good).
 */
export class ReadLease {
  #pool: ReadBufferPool;
  #buffers: ReadBuffers;
  #file: Deno.FsFile;
  #head: Uint8Array | null;
  #streams = 0;
  #closed = false;
  #released = false;

  /**
   * @param pool Where the buffers go back.
   * @param buffers The read's buffers, taken from `pool`.
   * @param file The open file.
   * @param head The file's first bytes, already read (may lie in `buffers.edges`).
   */
  constructor(
    pool: ReadBufferPool,
    buffers: ReadBuffers,
    file: Deno.FsFile,
    head: Uint8Array | null,
  ) {
    this.#pool = pool;
    this.#buffers = buffers;
    this.#file = file;
    this.#head = head;
  }

  /** The bytes from `position` on, as {@linkcode chunksOf} gives them. */
  async *chunks(position: number, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    // As a read of the closed file would (the buffers may be another read's by now).
    if (this.#closed) throw new Deno.errors.BadResource("Bad resource ID");
    this.#streams++;
    try {
      yield* chunksOf(this.#file, this.#buffers.chunks, position, signal, this.#head);
    } finally {
      this.#streams--;
      this.#release();
    }
  }

  /** Closes the file; the buffers go back to the pool once no read into them is in flight. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#file.close();
    } catch {
      // already closed
    }
    this.#release();
  }

  #release(): void {
    if (!this.#closed || this.#streams > 0 || this.#released) return;
    this.#released = true;
    this.#pool.give(this.#buffers);
  }
}

/** The first read of a chunk stream; each next read is four times larger, up to the chunk size. */
const FIRST_CHUNK = 64 * 1024;

/**
 * The file's bytes from `position` on, alternating between two reused buffers: the read of the
 * next chunk is in flight while the caller works on the current one (the caller is done with a
 * chunk when it asks for the next), so disk and scan overlap. Reads start small and grow, so a
 * window near `position` costs a few pages, not two full chunks. Bytes already in `head` (the
 * file's first bytes, read for its version) are served from it.
 */
export async function* chunksOf(
  file: Deno.FsFile,
  buffers: readonly Uint8Array[],
  position: number,
  signal?: AbortSignal,
  head?: Uint8Array | null,
): AsyncGenerator<Uint8Array> {
  const chunkSize = buffers[0].length;
  let size = Math.min(FIRST_CHUNK, chunkSize);
  if (head && position < head.length) {
    for (; position < head.length; position += chunkSize) {
      signal?.throwIfAborted();
      yield head.subarray(position, position + chunkSize);
    }
    position = head.length;
    size = chunkSize;
  }
  file.seekSync(position, Deno.SeekMode.Start); // lseek does no I/O: no need for a thread hop
  let current = 0;
  let ahead: Promise<number | null> | null = file.read(buffers[current].subarray(0, size));
  try {
    for (;;) {
      signal?.throwIfAborted();
      const n = await ahead;
      ahead = null;
      if (n === null) return;
      const chunk = buffers[current].subarray(0, n);
      current ^= 1;
      size = Math.min(size * 4, buffers[0].length);
      ahead = file.read(buffers[current].subarray(0, size));
      yield chunk;
    }
  } finally {
    // Never leave a read in flight into a buffer the next call will reuse.
    if (ahead) await ahead.catch(() => null);
  }
}
