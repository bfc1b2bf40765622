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
