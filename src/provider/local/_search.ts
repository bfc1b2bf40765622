// The fast paths of `LocalFileSystem` for the search tools (CONTRACT C9.2, C11): a synchronous
// directory listing and a synchronous chunked read, each checked to lie inside a root by the
// identity of what was read. Private to src/provider/local.
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
import type { FsDirEntry, FsSearchReadOptions, FsTarget } from "../fs_provider.ts";
import type { Containment } from "./_containment.ts";
import { fdPathsAvailable, kernelPath, openLocation } from "./_fd_paths.ts";
import { readDecodableEntriesSync } from "./_read_dir.ts";
import { type FileId, sameFile } from "./_stat.ts";

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

/** Whether a descriptor of ours lies inside a root, by its kernel path. */
function insideFd(c: Containment, fd: number): boolean {
  const handle = `/proc/self/fd/${fd}`;
  let path: string | null;
  try {
    path = kernelPath(handle);
  } catch {
    return false;
  }
  return c.locatedInside({ handle, path }, false);
}

/**
 * Whether the file of `info`, held open by the caller, lies inside a root: by the kernel's path
 * of its descriptor where /proc/self/fd can be used, else by the real path of its name naming
 * the same file.
 */
function inside(c: Containment, path: string, info: FileId): boolean {
  if (fdPathsAvailable()) return c.locatedInside(openLocation(info), false);
  let real: string;
  let now: Deno.FileInfo;
  try {
    real = Deno.realPathSync(path);
    if (!c.rootOf(real)) return false;
    now = Deno.statSync(real);
  } catch {
    return false;
  }
  return sameFile(now, info);
}

/**
 * Lists a directory for a search: children with their own types (links not followed).
 *
 * @param c The provider's containment.
 * @param target The directory.
 * @param verify `false`: the caller reports only files whose reads pass `searchChunks`'s check
 *   (the listing is taken by path, unchecked: a directory swapped for a link may list names
 *   from outside, which the caller never shows, and a file read through it fails that check).
 * @returns The entries.
 * @throws {FsError} `FS_OUTSIDE_ROOT` when the directory does not stay inside a root.
 */
export function searchListDir(c: Containment, target: FsTarget, verify = true): FsDirEntry[] {
  const path = target.realPath;
  if (!verify) return readDecodableEntriesSync(path);
  if (fdPathsAvailable()) {
    // Our own descriptor, held until the listing ends: its number cannot be reused meanwhile.
    const fd = openFd(path, DIR_FLAGS);
    if (fd === null) return pinnedList(c, path); // the same errors as before
    try {
      if (!insideFd(c, fd)) throw new FsError("FS_OUTSIDE_ROOT");
      return readDecodableEntriesSync(`/proc/self/fd/${fd}`);
    } finally {
      closeSync(fd);
    }
  }
  const before = Deno.statSync(path);
  if (!before.isDirectory) throw new FsError("FS_NOT_DIRECTORY");
  if (!inside(c, path, before)) throw new FsError("FS_OUTSIDE_ROOT");
  const entries = readDecodableEntriesSync(path);
  if (!inside(c, path, before)) throw new FsError("FS_OUTSIDE_ROOT");
  return entries;
}

/** Lists the directory through its own descriptor, whose kernel path lies inside a root. */
function pinnedList(c: Containment, path: string): FsDirEntry[] {
  const dir = Deno.openSync(path, { read: true });
  try {
    const info = dir.statSync();
    if (!info.isDirectory) throw new FsError("FS_NOT_DIRECTORY");
    // Synchronous from open to listing: no other task can close or reuse a descriptor number
    // meanwhile, so any descriptor of this directory names it (no need to mark this one).
    const where = openLocation(info);
    if (!where || !c.locatedInside(where, false)) throw new FsError("FS_OUTSIDE_ROOT");
    const entries = readDecodableEntriesSync(where.handle);
    // The handle still names this directory (its number was not closed and reused meanwhile).
    if (!sameFile(Deno.statSync(where.handle), info)) throw new FsError("FS_OUTSIDE_ROOT");
    return entries;
  } finally {
    dir.close();
  }
}

/** How {@linkcode chunksOf} reads one file. */
interface ChunkSource {
  /** Reads into `buffer`; the byte count (0 at the end). `first`: nothing was read yet. */
  read(buffer: Uint8Array, first: boolean): number;
  /** Whether a read of `n` bytes into a buffer of `length` ends the file. */
  ends(n: number, length: number, total: number): boolean;
  /** Whether the file lies inside a root (asked at the end, unless `verifyIf` says not). */
  inside(): boolean;
  close(): void;
}

/**
 * The chunks of one file, read into the two halves of a buffer in turn (the shared one, or two
 * of `half` bytes), checked by `source.inside` at the end as `searchChunks` says.
 */
function chunksOf(
  source: ChunkSource,
  options: FsSearchReadOptions,
  half: number,
): Iterable<Uint8Array> {
  const { signal, verifyIf, buffer: shared } = options;
  return {
    *[Symbol.iterator]() {
      try {
        const halves = shared && shared.length >= 2
          ? [shared.subarray(0, shared.length >> 1), shared.subarray(shared.length >> 1)]
          : [new Uint8Array(half), new Uint8Array(half)];
        let total = 0;
        for (let turn = 0;; turn ^= 1) {
          if (signal?.aborted) throw new FsError("FS_ABORTED");
          const buffer = halves[turn];
          const n = source.read(buffer, total === 0);
          if (n === 0) break;
          total += n;
          yield buffer.subarray(0, n);
          if (source.ends(n, buffer.length, total)) break;
        }
        if ((!verifyIf || verifyIf()) && !source.inside()) throw new FsError("FS_OUTSIDE_ROOT");
      } finally {
        source.close();
      }
    },
  };
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
 * @param c The provider's containment.
 * @param target The file.
 * @param options The signal, `verifyIf` and the shared buffer.
 * @returns The chunks.
 */
export function searchChunks(
  c: Containment,
  target: FsTarget,
  options: FsSearchReadOptions = {},
): Iterable<Uint8Array> {
  const path = target.realPath;
  if (fdPathsAvailable()) {
    const fd = openFd(path, FILE_FLAGS);
    if (fd !== null) return chunksOf(fdSource(c, fd), options, CHUNK >> 1);
    // else the checks below give the same errors as before
  }
  const lstat = Deno.lstatSync(path);
  if (!lstat.isFile) throw new FsError("FS_NOT_REGULAR_FILE"); // never open a FIFO or a link
  const file = Deno.openSync(path, { read: true });
  let info: Deno.FileInfo;
  try {
    info = file.statSync();
    if (!info.isFile || !sameFile(info, lstat)) throw new FsError("FS_NOT_REGULAR_FILE");
  } catch (error) {
    file.close();
    throw error;
  }
  const source: ChunkSource = {
    read: (buffer) => file.readSync(buffer) ?? 0,
    // A regular file's read comes up short only at its end.
    ends: (n, length, total) => n < length && total >= info.size,
    inside: () => inside(c, path, info),
    close: () => file.close(),
  };
  return chunksOf(source, options, Math.max(1, Math.min(CHUNK, info.size + 1)));
}

/**
 * A file opened by descriptor (not following its last name, not blocking on a FIFO), read
 * until a short read and checked by the descriptor's kernel path. Something other than a
 * regular file swapped in after the listing (a FIFO, a directory) fails with
 * `FS_NOT_REGULAR_FILE`.
 */
function fdSource(c: Containment, fd: number): ChunkSource {
  return {
    read(buffer, first) {
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
      // Empty, or a FIFO swapped in after the listing: told apart only here (rarely run).
      if (n === 0 && first && !Deno.statSync(`/proc/self/fd/${fd}`).isFile) {
        throw new FsError("FS_NOT_REGULAR_FILE");
      }
      return n;
    },
    ends: (n, length) => n < length, // a regular file's read comes up short only at its end
    inside: () => insideFd(c, fd),
    close: () => closeSync(fd),
  };
}
