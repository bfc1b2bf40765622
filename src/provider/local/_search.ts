// The search fast paths of `LocalFileSystem` (`FsSearchProvider`, CONTRACT C9.2, C11): a
// synchronous directory listing and a synchronous chunked read, each checked to lie inside a
// root by the identity of what was read (a read when the caller asks, `verify()`). Private to
// src/provider/local.
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
import type {
  FsCallOptions,
  FsDirEntry,
  FsSearchListOptions,
  FsSearchProvider,
  FsSearchRead,
  FsSearchReadOptions,
  FsTarget,
} from "../fs_provider.ts";
import type { Containment } from "./_containment.ts";
import { guard } from "./_errors.ts";
import { mayContainAll } from "./_search_worker.ts";
import { fdPathsAvailable, kernelPath, openLocation } from "./_fd_paths.ts";
import { readDecodableEntriesSync, readUncheckedEntriesSync } from "./_read_dir.ts";
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
 * @param verify `false`: the caller reports only files whose reads pass `verify()` (`readChunks`)
 *   (the listing is taken by path, unchecked, and kept from its second time by the directory the
 *   path's `stat` names: a directory swapped for a link may list names from outside, which the
 *   caller never shows, and a file read through it fails that check).
 * @returns The entries.
 * @throws {FsError} `FS_OUTSIDE_ROOT` when the directory does not stay inside a root.
 */
export function searchListDir(
  c: Containment,
  target: FsTarget,
  verify = true,
): readonly FsDirEntry[] {
  const path = target.realPath;
  if (!verify) return readUncheckedEntriesSync(path);
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

/**
 * `open(2)` flags that follow links but never wait: a FIFO exchanged in for a directory or file
 * would block a plain synchronous open, and with it this thread, every call on it and any abort.
 */
const FOLLOW_NO_WAIT = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * `path` opened as a Deno file (links followed) without ever waiting: a descriptor opened with
 * {@linkcode FOLLOW_NO_WAIT} (plus `extra`), reopened through /proc/self/fd; when that open fails,
 * the error `Deno.statSync` gives (or `whenNot`).
 */
function openNoWaitSync(path: string, extra: number, whenNot: FsError): Deno.FsFile {
  const probe = openFd(path, FOLLOW_NO_WAIT | extra);
  if (probe === null) {
    Deno.statSync(path); // throws NotFound and the like
    throw whenNot;
  }
  try {
    return Deno.openSync(`/proc/self/fd/${probe}`, { read: true });
  } finally {
    closeSync(probe);
  }
}

/** Lists the directory through its own descriptor, whose kernel path lies inside a root. */
function pinnedList(c: Containment, path: string): readonly FsDirEntry[] {
  const dir = openNoWaitSync(path, constants.O_DIRECTORY, new FsError("FS_NOT_DIRECTORY"));
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

/** How {@linkcode openRead} reads one file. */
interface ChunkSource {
  /** Reads into `buffer`; the byte count (0 at the end). `first`: nothing was read yet. */
  read(buffer: Uint8Array, first: boolean): number;
  /** Whether a read of `n` bytes into a buffer of `length` ends the file. */
  ends(n: number, length: number, total: number): boolean;
  /** Whether the file (the one read, held open) lies inside a root. */
  inside(): boolean;
  close(): void;
}

/**
 * The file as a search read: its chunks, read into the two halves of a buffer in turn (the
 * shared one, or two of `half` bytes), and `verify`, asked of the file held open.
 */
function openRead(
  source: ChunkSource,
  options: FsSearchReadOptions,
  half: number,
): FsSearchRead {
  const { signal, buffer: shared } = options;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    source.close();
  };
  return {
    chunks: {
      *[Symbol.iterator]() {
        const halves = shared && shared.length >= 2
          ? [shared.subarray(0, shared.length >> 1), shared.subarray(shared.length >> 1)]
          : [new Uint8Array(half), new Uint8Array(half)];
        let total = 0;
        for (let turn = 0; open; turn ^= 1) {
          if (signal?.aborted) throw new FsError("FS_ABORTED");
          const buffer = halves[turn];
          const n = source.read(buffer, total === 0);
          if (n === 0) break;
          total += n;
          yield buffer.subarray(0, n);
          if (source.ends(n, buffer.length, total)) break;
        }
      },
    },
    verify() {
      // Asked of the descriptor still open, so of the very file the chunks came from.
      if (!open || !source.inside()) return Promise.reject(new FsError("FS_OUTSIDE_ROOT"));
      return Promise.resolve();
    },
    close,
  };
}

/**
 * A regular file opened for a search. With a shared `buffer`, chunks alternate between its two
 * halves, so a chunk stays intact until the one after the next is drawn (a caller may keep a
 * reference to the previous chunk instead of copying it). A short read of a file whose size has
 * been reached ends the iteration (no read just to see the end). The file stays open until
 * `close()`; `verify()` checks that it lies inside a root (by its descriptor's kernel path, or
 * its name's real path naming the very file read), and only the caller that reports from the
 * file asks (most files of a search have no match).
 *
 * @param c The provider's containment.
 * @param target The file.
 * @param options The signal and the shared buffer.
 * @returns The read.
 */
export function searchRead(
  c: Containment,
  target: FsTarget,
  options: FsSearchReadOptions = {},
): FsSearchRead {
  const path = target.realPath;
  if (fdPathsAvailable()) {
    const fd = openFd(path, FILE_FLAGS);
    if (fd !== null) return openRead(fdSource(c, fd), options, CHUNK >> 1);
    // else the checks below give the same errors as before
  }
  const lstat = Deno.lstatSync(path);
  if (!lstat.isFile) throw new FsError("FS_NOT_REGULAR_FILE"); // never open a FIFO or a link
  const file = fdPathsAvailable()
    ? openNoWaitSync(path, 0, new FsError("FS_NOT_REGULAR_FILE"))
    : Deno.openSync(path, { read: true });
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
  return openRead(source, options, Math.max(1, Math.min(CHUNK, info.size + 1)));
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

/** `LocalFileSystem.search`: the fast paths over one containment. */
export function searchPaths(c: Containment): FsSearchProvider {
  const roots = c.roots.map((root) => root.path);
  return {
    listDir(target: FsTarget, options: FsSearchListOptions = {}): Promise<readonly FsDirEntry[]> {
      const verify = options.verify ?? true;
      return guard(() => Promise.resolve(searchListDir(c, target, verify)), options.signal);
    },
    readChunks(target: FsTarget, options: FsSearchReadOptions = {}): Promise<FsSearchRead> {
      return guard(() => Promise.resolve(searchRead(c, target, options)), options.signal);
    },
    mayContain(
      targets: readonly FsTarget[],
      needles: readonly Uint8Array[],
      options: FsCallOptions = {},
    ): Promise<Uint8Array | null> {
      const paths = targets.map((target) => target.realPath);
      return guard(() => mayContainAll(paths, needles, roots, options.signal), options.signal);
    },
  };
}
