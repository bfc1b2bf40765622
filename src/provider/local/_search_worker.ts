// The search prefilter on a second thread (CONTRACT C11): which files surely lack one of a
// pattern's literals, told by a worker that opens and reads them while the calling thread walks
// and searches the rest. Private to src/provider.
//
// The worker's answer is a hint, not a result: its reads are not checked to lie inside a root
// (a file is opened by its real path, its last name never followed, but a directory on the way
// may have been swapped for a link). The caller only skips a file marked 0, which it would have
// reported nothing of anyway, and reads a file marked 1 through `searchChunks`, which checks.
// The literal search is the very code of `byteSearch` (its source text is evaluated there).

import { makeByteSearch } from "../../text/byte_search.ts";
import { sourceWorker } from "./_worker.ts";

/** A file this big or bigger is left to the caller (marked 1), which streams it. */
const WHOLE_MAX = 1 << 18;

/** The prefilter worker's `handle`. */
const WORKER_SOURCE = `
const { closeSync, constants, openSync, readSync } = require("node:fs");
const { containsBytes } = (${String(makeByteSearch)})();
const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const buffer = new Uint8Array(${WHOLE_MAX});
function lacks(path, needles) {
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
    for (const needle of needles) if (!containsBytes(bytes, needle)) return true;
    return false;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
function handle({ paths, needles }) {
  const flags = new Uint8Array(paths.length);
  for (let i = 0; i < paths.length; i++) flags[i] = lacks(paths[i], needles) ? 0 : 1;
  return [flags, [flags.buffer]];
}
`;

/**
 * For each file, 0 when it surely lacks one of `needles` (it was read whole and one is
 * missing), 1 when it may hold them all (it does, or it could not be read whole there).
 * Resolves to `null` where no worker thread can run (then every file may).
 *
 * @param paths The files' real paths.
 * @param needles The literals.
 * @param signal Stops the wait.
 * @returns The flags, or `null`.
 */
export async function mayContainAll(
  paths: readonly string[],
  needles: readonly Uint8Array[],
  signal?: AbortSignal,
): Promise<Uint8Array | null> {
  const worker = sourceWorker(WORKER_SOURCE);
  if (!worker) return null;
  return await worker.call<Uint8Array>({ paths, needles }, signal);
}
