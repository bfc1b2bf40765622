// The error discipline of MemoryFileSystem's provider calls. Private to src/provider/memory.

import { toFsError } from "../to_fs_error.ts";

/** Runs `task` after an abort check, turning every failure into an `FsError` with a code. */
export async function guard<T>(signal: AbortSignal | undefined, task: () => T): Promise<T> {
  try {
    signal?.throwIfAborted();
    return await task();
  } catch (error) {
    throw toFsError(error, signal);
  }
}
