// The streamed read handle of MemoryFileSystem. Private to src/provider/memory.

import { FsError } from "../../fs_error.ts";
import { IO_DETAILS } from "../../render/errors.ts";
import type { FsReadHandle } from "../fs_provider.ts";
import type { FileNode } from "./_tree.ts";
import { versionOf } from "./_version.ts";

/**
 * A handle on `file` as it is now. The node is immutable: the handle reads the bytes it was
 * opened at, as an open file descriptor keeps reading a file that was atomically replaced
 * meanwhile.
 */
export function openHandle(
  opened: FileNode,
  chunkSize: number,
  signal: AbortSignal | undefined,
): FsReadHandle {
  let file: FileNode | null = opened;
  const version = versionOf(opened);
  return {
    version,
    cacheKey: version,
    size: opened.bytes.length,
    async *chunks(position: number): AsyncGenerator<Uint8Array> {
      const bytes = file?.bytes;
      if (!bytes) throw new FsError("FS_IO_ERROR", { detail: IO_DETAILS.handleClosed });
      for (let at = Math.max(position, 0); at < bytes.length; at += chunkSize) {
        if (signal?.aborted) throw new FsError("FS_ABORTED");
        yield bytes.subarray(at, at + chunkSize);
      }
    },
    close() {
      file = null;
    },
  };
}

/** The chunk size of streamed reads: the option, checked, or 64 KiB. */
export function chunkSizeOf(option: number | undefined): number {
  const chunkSize = option ?? 64 * 1024;
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) {
    throw new TypeError(`chunkSize must be a positive integer: got ${String(chunkSize)}`);
  }
  return chunkSize;
}
