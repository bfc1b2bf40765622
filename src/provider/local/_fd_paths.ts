// Where an open file really is, asked of the kernel through /proc/self/fd. Private to
// src/provider.
//
// Deno's own `open` has no `openat` and no `O_NOFOLLOW` (the search's fast path gets `O_NOFOLLOW`
// through `node:fs`, see `_search.ts`), so every path-based check can be raced: a process
// that swaps a directory inside a root for a symlink between two system calls makes each call
// see the state it wants. The kernel's own path of an open descriptor (`readlink
// /proc/self/fd/<n>`) cannot be raced that way, and `/proc/self/fd/<n>/<name>` resolves `<name>`
// inside the directory the descriptor holds, whatever its path has become: `openat` by another
// name. Deno allows /proc/self/fd only under `--allow-all`, and only Linux has it; elsewhere the
// provider falls back to path-based checks (see the README's "Security and reliability" for what that costs).

const FD_DIR = "/proc/self/fd";
const DELETED = " (deleted)";

let available: boolean | undefined;

/** Whether /proc/self/fd can be used here (Linux, and Deno grants it: `--allow-all`). */
export function fdPathsAvailable(): boolean {
  if (available !== undefined) return available;
  available = false;
  if (Deno.build.os !== "linux") return false;
  try {
    for (const name of ["read", "write"] as const) {
      // Query first: never make Deno prompt for a permission the host did not grant.
      if (Deno.permissions.querySync({ name, path: FD_DIR }).state !== "granted") return false;
    }
    Deno.readDirSync(FD_DIR); // Deno asks for --allow-all here, beyond the read grant
    available = true;
  } catch {
    // not Linux-like, or not permitted: path-based checks only
  }
  return available;
}

/** A descriptor of this process holding a given file, and the kernel's path of that file. */
export interface OpenLocation {
  /** `/proc/self/fd/<n>`: a path that names the open file itself (a directory: its inside). */
  handle: string;
  /** The file's real path now, as the kernel reports it; `null` when it has been deleted. */
  path: string | null;
}

/**
 * A descriptor of this process whose file has the identity of `info`, with the kernel's path of
 * that file; `null` when none has (or /proc/self/fd is unusable). The caller holds one open, so
 * there is one. Descriptors are tried from the highest number down, where a fresh one usually
 * is, so the search mostly stops after a few. Another descriptor of the same file may be found
 * first: its path is the same file's, equally authoritative (a file hard-linked both inside and
 * outside a root counts as inside: see the README's "Security and reliability"). Synchronous, so no other task
 * of this thread can close or reuse a descriptor number between the identity check and the
 * `readlink`.
 */
export function openLocation(info: { dev: number; ino: number | null }): OpenLocation | null {
  return findDescriptor(info, () => true);
}

/**
 * The location of the open directory `dir` through this very descriptor: other descriptors of
 * the same directory (a concurrent listing, the host's) look alike and may be closed, and their
 * numbers reused, while the caller still works through the handle. So the descriptor is marked
 * with a file position nobody else has (`lseek` on a directory only moves its `readdir` cursor,
 * which the caller never uses) and found by it in /proc/self/fdinfo. `null` when the file
 * system does not let a directory be positioned like that, or the mark is not found.
 */
export function pinnedLocation(dir: Deno.FsFile, info: Deno.FileInfo): OpenLocation | null {
  const mark = 2 ** 30 + Math.floor(Math.random() * 2 ** 30);
  try {
    if (dir.seekSync(mark, Deno.SeekMode.Start) !== mark) return null;
  } catch {
    return null;
  }
  const marked = new RegExp(`^pos:\\s+${mark}$`, "m");
  return findDescriptor(
    info,
    (fd) => marked.test(Deno.readTextFileSync(`/proc/self/fdinfo/${fd}`)),
  );
}

/**
 * The kernel's path of the file an open descriptor handle (`/proc/self/fd/<n>`) holds; `null`
 * when the file has been deleted or is not a file system object.
 *
 * @param handle The handle.
 * @returns The path, or `null`.
 * @throws When the descriptor is not open.
 */
export function kernelPath(handle: string): string | null {
  const path = Deno.readLinkSync(handle);
  return path.endsWith(DELETED) || !path.startsWith("/") ? null : path;
}

/** The descriptor number the last lookup found: a fresh descriptor usually gets it again. */
let lastFound = -1;

/**
 * The first descriptor whose file has the identity of `info` and that `accept` takes, with the
 * kernel's path of its file: the number the last lookup found first (a search opens one file
 * after another, each usually getting the same number), then from the highest number down,
 * where a fresh one usually is. Synchronous, so no other task of this thread can close or
 * reuse a number between the checks.
 */
function findDescriptor(
  info: { dev: number; ino: number | null },
  accept: (fd: number) => boolean,
): OpenLocation | null {
  const tryFd = (fd: number): OpenLocation | null => {
    const handle = `${FD_DIR}/${fd}`;
    try {
      const held = Deno.statSync(handle);
      if (held.dev !== info.dev || held.ino !== info.ino || !accept(fd)) return null;
      return { handle, path: kernelPath(handle) };
    } catch {
      return null; // closed meanwhile, or not a file system object
    }
  };
  if (lastFound >= 0) {
    const found = tryFd(lastFound);
    if (found) return found;
  }
  const numbers: number[] = [];
  for (const entry of Deno.readDirSync(FD_DIR)) numbers.push(Number(entry.name));
  numbers.sort((a, b) => b - a);
  for (const fd of numbers) {
    const found = tryFd(fd);
    if (found) {
      lastFound = fd;
      return found;
    }
  }
  return null;
}
