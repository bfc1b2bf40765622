// The fast paths of `LocalFileSystem` for the search tools (CONTRACT C9.2, C11): a synchronous
// directory listing and a synchronous chunked read, each checked to lie inside a root by the
// identity of what was read. Private to src/provider.
//
// `listDir` pins every directory through /proc/self/fd, which costs about a millisecond a
// directory (asynchronously); a search lists thousands. Here everything is synchronous. Where
// /proc/self/fd can be used, a directory or file is opened through `node:fs` (which, unlike
// `Deno.open`, takes `O_NOFOLLOW` and `O_NONBLOCK` and gives the real descriptor number): the
// last name is never followed and a FIFO never blocks the open. A directory is listed through
// its own descriptor (/proc/self/fd/<n>) once that descriptor's kernel path lies inside a root;
// a file is read and then accepted only when its descriptor's kernel path lies inside a root.
// When such an open fails, the older checks below run and give their errors: a directory is
// opened with `Deno.open` and its descriptor looked up by identity; a file is `lstat`ed, opened
// and compared by device and inode. Elsewhere (path checks, as `listDir` does without
// /proc/self/fd) a directory is accepted when its real path lies inside a root and it kept its
// identity before and after the listing, and a file when the real path of its name lies inside
// a root and names the very file that was read.

import { closeSync, constants, openSync, readSync } from "node:fs";
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
 * `node:fs` opens with the flags Deno's own `open` lacks, and hands out the real descriptor
 * number: the last name is never followed (a link swapped in fails with `ELOOP`), a FIFO never
 * blocks the open, and /proc/self/fd/<n> needs no search for the descriptor.
 */
const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const DIR_FLAGS = FILE_FLAGS | constants.O_DIRECTORY;

/** A descriptor opened with `flags`, or `null` when the open fails (the caller falls back). */
function openFd(path: string, flags: number): number | null {
  try {
    return openSync(path, flags);
  } catch {
    return null;
  }
}

/** The kernel's path of a descriptor of ours, when it lies inside a root. */
function insideFd(roots: readonly FsRootInfo[], fd: number): boolean {
  let path: string;
  try {
    path = Deno.readLinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return false;
  }
  return !path.endsWith(" (deleted)") && path.startsWith("/") &&
    findRoot(roots, path) !== undefined;
}

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
 * @param verify `false`: the caller reports only files whose reads pass `searchChunks`'s check
 *   (the listing is taken by path, unchecked: a directory swapped for a link may list names
 *   from outside, which the caller never shows, and a file read through it fails that check).
 * @returns The entries.
 * @throws {FsError} `FS_OUTSIDE_ROOT` when the directory does not stay inside a root.
 */
export function searchListDir(
  roots: readonly FsRootInfo[],
  target: FsTarget,
  verify = true,
): FsDirEntry[] {
  const path = target.realPath;
  if (!verify) return readEntries(path);
  if (fdPathsAvailable()) {
    // Our own descriptor, held until the listing ends: its number cannot be reused meanwhile.
    const fd = openFd(path, DIR_FLAGS);
    if (fd === null) return pinnedList(roots, path); // the same errors as before
    try {
      if (!insideFd(roots, fd)) throw new FsError("FS_OUTSIDE_ROOT");
      return readEntries(`/proc/self/fd/${fd}`);
    } finally {
      closeSync(fd);
    }
  }
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
 * A regular file's bytes in chunks, for a search. With a shared `buffer`, chunks alternate
 * between its two halves, so a chunk stays intact until the one after the next is drawn (a
 * caller may keep a reference to the previous chunk instead of copying it). A short read of a
 * file whose size has been reached ends the iteration (no read just to see the end). When the
 * iteration ends the file is checked to lie inside a root (unless `verifyIf` says the caller
 * keeps nothing of it); the check failing throws, and the caller discards what it drew from the
 * file.
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
  if (fdPathsAvailable()) {
    const fd = openFd(path, FILE_FLAGS);
    if (fd !== null) return fdChunks(roots, fd, shared, signal, verifyIf);
    // else the checks below give the same errors as before
  }
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
        let halves: [Uint8Array, Uint8Array];
        if (shared && shared.length >= 2) {
          const half = shared.length >> 1;
          halves = [shared.subarray(0, half), shared.subarray(half, half * 2)];
        } else {
          const one = Math.max(1, Math.min(CHUNK, size + 1));
          halves = [new Uint8Array(one), new Uint8Array(one)];
        }
        let total = 0;
        for (let turn = 0;; turn ^= 1) {
          if (signal?.aborted) throw new FsError("FS_ABORTED");
          const buffer = halves[turn];
          const n = file.readSync(buffer);
          if (n === null || n === 0) break;
          total += n;
          yield buffer.subarray(0, n);
          // A regular file's read comes up short only at its end.
          if (n < buffer.length && total >= size) break;
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

/**
 * The chunks of a file opened by descriptor (not following its last name, not blocking on a
 * FIFO), read until a short read; checked by the descriptor's kernel path at the end, as
 * `searchChunks` says. Something other than a regular file swapped in after the listing (a FIFO,
 * a directory) fails with `FS_NOT_REGULAR_FILE`.
 */
function fdChunks(
  roots: readonly FsRootInfo[],
  fd: number,
  shared: Uint8Array | undefined,
  signal: AbortSignal | undefined,
  verifyIf: (() => boolean) | undefined,
): Iterable<Uint8Array> {
  return {
    *[Symbol.iterator]() {
      try {
        const halves = shared && shared.length >= 2
          ? [shared.subarray(0, shared.length >> 1), shared.subarray(shared.length >> 1)]
          : [new Uint8Array(CHUNK >> 1), new Uint8Array(CHUNK >> 1)];
        let first = true;
        for (let turn = 0;; turn ^= 1) {
          if (signal?.aborted) throw new FsError("FS_ABORTED");
          const buffer = halves[turn];
          let n: number;
          try {
            n = readSync(fd, buffer, 0, buffer.length, null);
          } catch (error) {
            const code = (error as { code?: unknown }).code;
            // A directory or a FIFO swapped in after the listing.
            if (code === "EISDIR" || code === "EAGAIN" || code === "EWOULDBLOCK") {
              throw new FsError("FS_NOT_REGULAR_FILE");
            }
            throw error;
          }
          if (n === 0) {
            // Empty, or a FIFO swapped in after the listing: told apart only here (rarely run).
            if (first && !Deno.statSync(`/proc/self/fd/${fd}`).isFile) {
              throw new FsError("FS_NOT_REGULAR_FILE");
            }
            break;
          }
          first = false;
          yield buffer.subarray(0, n);
          if (n < buffer.length) break; // a regular file's read comes up short only at its end
        }
        if ((!verifyIf || verifyIf()) && !insideFd(roots, fd)) {
          throw new FsError("FS_OUTSIDE_ROOT");
        }
      } finally {
        closeSync(fd);
      }
    },
  };
}
