// The fast paths of `LocalFileSystem` for the search tools (CONTRACT C9.2, C11): a synchronous
// directory listing and a synchronous chunked read, each checked to lie inside a root by the
// identity of what was read. Private to src/provider.
//
// `listDir` pins every directory through /proc/self/fd, which costs about a millisecond a
// directory (asynchronously); a search lists thousands. Here everything is synchronous. Where
// /proc/self/fd can be used, a directory is opened, its descriptor's kernel path checked to lie
// inside a root, and listed through that descriptor; a file is read and then accepted only when
// its descriptor's kernel path lies inside a root. Elsewhere (path checks, as `listDir` does
// without /proc/self/fd) a directory is accepted when its real path lies inside a root and it
// kept its identity before and after the listing, and a file when the real path of its name
// lies inside a root and names the very file that was read.

import { FsError } from "../../fs_error.ts";
import type { FsDirEntry, FsRootInfo, FsSearchReadOptions, FsTarget } from "../fs_provider.ts";
import { findRoot } from "../roots.ts";
import { fdPathsAvailable, type OpenLocation, openLocation } from "./_fd_paths.ts";

/** The descriptor number the last lookup found: a fresh descriptor usually gets it again. */
let guess = -1;

/**
 * `openLocation`, trying the last descriptor number first: the same answer (any descriptor of
 * the file is equally authoritative, as `openLocation` says), without scanning /proc/self/fd
 * for every directory and file of a search.
 */
function locate(info: Deno.FileInfo): OpenLocation | null {
  if (guess >= 0) {
    const handle = `/proc/self/fd/${guess}`;
    try {
      const held = Deno.statSync(handle);
      if (held.dev === info.dev && held.ino === info.ino) {
        const path = Deno.readLinkSync(handle);
        return { handle, path: path.endsWith(" (deleted)") || !path.startsWith("/") ? null : path };
      }
    } catch {
      // closed meanwhile: scan
    }
  }
  const where = openLocation(info);
  if (where) guess = Number(where.handle.slice(where.handle.lastIndexOf("/") + 1));
  return where;
}

const CHUNK = 1 << 20;

/**
 * Whether the file of `info`, held open by the caller, lies inside a root: by the kernel's path
 * of its descriptor where /proc/self/fd can be used, else by the real path of its name naming
 * the same file (device and inode).
 */
function inside(roots: readonly FsRootInfo[], path: string, info: Deno.FileInfo): boolean {
  if (fdPathsAvailable()) {
    const where = locate(info);
    return where?.path != null && findRoot(roots, where.path) !== undefined;
  }
  let real: string;
  let now: Deno.FileInfo;
  try {
    real = Deno.realPathSync(path);
    if (!findRoot(roots, real)) return false;
    now = Deno.statSync(real);
  } catch {
    return false;
  }
  return now.dev === info.dev && now.ino === info.ino;
}

/**
 * Lists a directory for a search: children with their own types (links not followed).
 *
 * @param roots The provider's roots.
 * @param target The directory.
 * @returns The entries.
 * @throws {FsError} `FS_OUTSIDE_ROOT` when the directory does not stay inside a root.
 */
export function searchListDir(roots: readonly FsRootInfo[], target: FsTarget): FsDirEntry[] {
  const path = target.realPath;
  if (fdPathsAvailable()) return pinnedList(roots, path);
  const before = Deno.statSync(path);
  if (!before.isDirectory) throw new FsError("FS_NOT_DIRECTORY");
  if (!inside(roots, path, before)) throw new FsError("FS_OUTSIDE_ROOT");
  const entries = readEntries(path);
  if (!inside(roots, path, before)) throw new FsError("FS_OUTSIDE_ROOT");
  return entries;
}

/** Lists the directory through its own descriptor, whose kernel path lies inside a root. */
function pinnedList(roots: readonly FsRootInfo[], path: string): FsDirEntry[] {
  const dir = Deno.openSync(path, { read: true });
  try {
    const info = dir.statSync();
    if (!info.isDirectory) throw new FsError("FS_NOT_DIRECTORY");
    // Synchronous from open to listing: no other task can close or reuse a descriptor number
    // meanwhile, so any descriptor of this directory names it (no need to mark this one).
    const where = locate(info);
    if (where?.path == null || !findRoot(roots, where.path)) throw new FsError("FS_OUTSIDE_ROOT");
    const entries = readEntries(where.handle);
    // The handle still names this directory (its number was not closed and reused meanwhile).
    const after = Deno.statSync(where.handle);
    if (after.dev !== info.dev || after.ino !== info.ino) throw new FsError("FS_OUTSIDE_ROOT");
    return entries;
  } finally {
    dir.close();
  }
}

function readEntries(path: string): FsDirEntry[] {
  const entries: FsDirEntry[] = [];
  for (const entry of Deno.readDirSync(path)) {
    entries.push({
      name: entry.name,
      type: entry.isDirectory ? "directory" : entry.isFile ? "file" : "other",
    });
  }
  return entries;
}

/**
 * A regular file's bytes in chunks (one reused buffer), for a search. When the iteration ends
 * the file is checked to lie inside a root (unless `verifyIf` says the caller keeps nothing of
 * it); the check failing throws, and the caller discards what it drew from the file.
 *
 * @param roots The provider's roots.
 * @param target The file.
 * @param options The signal and `verifyIf`.
 * @returns The chunks.
 */
export function searchChunks(
  roots: readonly FsRootInfo[],
  target: FsTarget,
  options: FsSearchReadOptions = {},
): Iterable<Uint8Array> {
  const { signal, verifyIf } = options;
  const shared = options.buffer;
  const path = target.realPath;
  const lstat = Deno.lstatSync(path);
  if (!lstat.isFile) throw new FsError("FS_NOT_REGULAR_FILE"); // never open a FIFO or a link
  const file = Deno.openSync(path, { read: true });
  let info: Deno.FileInfo;
  try {
    info = file.statSync();
    if (!info.isFile || info.dev !== lstat.dev || info.ino !== lstat.ino) {
      throw new FsError("FS_NOT_REGULAR_FILE");
    }
  } catch (error) {
    file.close();
    throw error;
  }
  return {
    *[Symbol.iterator]() {
      try {
        const size = info.size;
        const buffer = shared && shared.length > 0
          ? shared
          : new Uint8Array(Math.max(1, Math.min(CHUNK, size + 1)));
        for (;;) {
          if (signal?.aborted) throw new FsError("FS_ABORTED");
          const n = file.readSync(buffer);
          if (n === null || n === 0) break;
          yield buffer.subarray(0, n);
        }
        if ((!verifyIf || verifyIf()) && !inside(roots, path, info)) {
          throw new FsError("FS_OUTSIDE_ROOT");
        }
      } finally {
        file.close();
      }
    },
  };
}
