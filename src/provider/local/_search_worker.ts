// The search prefilter on a second thread (CONTRACT C11): which files surely lack one of a
// pattern's literals, told by a worker that opens and reads them while the calling thread walks
// and searches the rest. Private to src/provider/local.
//
// A file is opened by its real path (`O_NOFOLLOW`, so its last name is never followed), but a
// directory on the way may have been swapped for a link to outside the roots. A file is marked 0
// (skipped) only when the kernel's path of the very descriptor that was read (/proc/self/fd/<n>)
// lies inside a root: otherwise whether a decoy inside a root is reported would tell whether the
// file outside at the same name holds the pattern (a one-bit content oracle, issue 19). Where
// /proc/self/fd cannot be used (scoped permission flags), there is no prefilter: every file is
// read through `searchChunks`, which checks. A file marked 1 is read through `searchChunks` too.
// The literal search is the very code of `byteSearch` (its source text is evaluated there).

import { makeByteSearch } from "../../text/byte_search.ts";
import { fdPathsAvailable } from "./_fd_paths.ts";
import { sourceWorker } from "./_worker.ts";

/** A file this big or bigger is left to the caller (marked 1), which streams it. */
const WHOLE_MAX = 1 << 18;

/** The prefilter worker's `handle`. */
const WORKER_SOURCE = `
const { closeSync, constants, openSync, readlinkSync, readSync } = require("node:fs");
const { containsBytes } = (${String(makeByteSearch)})();
const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const buffer = new Uint8Array(${WHOLE_MAX});
function inside(roots, path) {
  for (const root of roots) {
    if (path === root || path.startsWith(root.endsWith("/") ? root : root + "/")) return true;
  }
  return false;
}
function located(fd, roots) {
  let path;
  try {
    path = readlinkSync("/proc/self/fd/" + fd);
  } catch {
    return false;
  }
  return path.startsWith("/") && !path.endsWith(" (deleted)") && inside(roots, path);
}
function lacks(path, needles, roots) {
  let fd;
  try {
    fd = openSync(path, FLAGS);
  } catch {
    return false;
  }
  try {
    const n = readSync(fd, buffer, 0, buffer.length, null);
    if (n >= buffer.length) return false;
    const bytes = buffer.subarray(0, n);
    for (const needle of needles) {
      // The skip is taken only on a read verified to lie inside a root (checked after it).
      if (!containsBytes(bytes, needle)) return located(fd, roots);
    }
    return false;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
function handle({ paths, needles, roots }) {
  const flags = new Uint8Array(paths.length);
  for (let i = 0; i < paths.length; i++) flags[i] = lacks(paths[i], needles, roots) ? 0 : 1;
  return [flags, [flags.buffer]];
}
`;

/**
 * For each file, 0 when it surely lacks one of `needles` (it was read whole, through a
 * descriptor whose kernel path lies inside one of `roots`, and one is missing), 1 when it may
 * hold them all (it does, or it could not be read whole and verified there). Resolves to `null`
 * where no worker thread can run or /proc/self/fd cannot be used (then every file may).
 *
 * @param paths The files' real paths.
 * @param needles The literals.
 * @param roots The roots' real paths.
 * @param signal Stops the wait.
 * @returns The flags, or `null`.
 */
export async function mayContainAll(
  paths: readonly string[],
  needles: readonly Uint8Array[],
  roots: readonly string[],
  signal?: AbortSignal,
): Promise<Uint8Array | null> {
  if (!fdPathsAvailable()) return null;
  const worker = sourceWorker(WORKER_SOURCE);
  if (!worker) return null;
  return await worker.call<Uint8Array>({ paths, needles, roots }, signal);
}
