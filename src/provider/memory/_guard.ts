// The error discipline of MemoryFileSystem's provider calls. Private to src/provider/memory.

import { FsError } from "../../fs_error.ts";

/** Runs `task` after an abort check, turning every failure into an `FsError` with a code. */
export async function guard<T>(signal: AbortSignal | undefined, task: () => T): Promise<T> {
  try {
    signal?.throwIfAborted();
    return await task();
  } catch (error) {
    if (error instanceof FsError) throw error;
    if (signal?.aborted || (error instanceof DOMException && error.name === "AbortError")) {
      throw new FsError("FS_ABORTED", { cause: error });
    }
    const detail = error instanceof Error ? error.message : String(error);
    throw new FsError("FS_IO_ERROR", { detail, cause: error });
  }
}
