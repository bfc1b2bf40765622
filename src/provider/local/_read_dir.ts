// A directory's entries, fast and without blocking the event loop for long. Private to
// src/provider.
//
// `Deno.readDir`'s async iterator costs about three times `ls -1` on a big directory (each entry
// is a step of an async generator); `Deno.readDirSync` costs about `ls -1` but blocks the thread
// for the whole read. So: a small directory is read synchronously (a few thousand entries at
// most, a millisecond or two), a big one by `Deno.readDirSync` in a worker thread that hands back
// the names and a byte per type. The worker is created on first need, kept for later listings
// and never keeps the process alive when idle.

import type { FsDirEntry, FsEntryType } from "../../types.ts";
import { sourceWorker } from "./_worker.ts";

/** A directory whose size (`st_size`) is below this is read on the calling thread. */
const SYNC_MAX_DIR_BYTES = 64 * 1024;

const TYPES: readonly FsEntryType[] = ["directory", "file", "other"];

/** The listing worker's `handle`: the names and a byte per type. */
const WORKER_SOURCE = `
function handle({ path }) {
  const names = [];
  const kinds = [];
  for (const entry of Deno.readDirSync(path)) {
    names.push(entry.name);
    kinds.push(entry.isDirectory ? 0 : entry.isFile ? 1 : 2);
  }
  const types = new Uint8Array(kinds);
  return [{ names, types }, [types.buffer]];
}
`;

function toEntries(names: readonly string[], types: Uint8Array): FsDirEntry[] {
  const entries: FsDirEntry[] = new Array(names.length);
  for (let i = 0; i < names.length; i++) entries[i] = { name: names[i], type: TYPES[types[i]] };
  return entries;
}

function typeOf(entry: Deno.DirEntry): FsEntryType {
  return entry.isDirectory ? "directory" : entry.isFile ? "file" : "other";
}

/**
 * The entries of `path` whose names are what the directory holds: a name that is not valid
 * UTF-8 reaches us decoded with U+FFFD in place of its bad bytes, a name no call can open (issue
 * 19). Such a name is left out: only a name holding U+FFFD is looked up again, and kept when
 * it exists as decoded (a valid name may hold U+FFFD itself).
 *
 * @param path The directory (or its descriptor handle).
 * @returns The entries whose names can be opened.
 */
export function readDecodableEntriesSync(path: string): FsDirEntry[] {
  // One pass (a search lists thousands of directories): entries and whether a name is suspect.
  const entries: FsDirEntry[] = [];
  let suspect = false;
  for (const entry of Deno.readDirSync(path)) {
    const name = entry.name;
    if (!suspect && name.includes("\uFFFD")) suspect = true;
    entries.push({ name, type: entry.isDirectory ? "directory" : entry.isFile ? "file" : "other" });
  }
  if (!suspect) return entries;
  return entries.filter((entry) => {
    if (!entry.name.includes("\uFFFD")) return true;
    try {
      Deno.lstatSync(`${path}/${entry.name}`);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The entries of the directory at `path`, read on this thread (types are the entries' own;
 * links not followed).
 *
 * @param path The directory (or a /proc/self/fd handle of one).
 * @returns The entries.
 */
export function readDirEntriesSync(path: string): FsDirEntry[] {
  const entries: FsDirEntry[] = [];
  for (const entry of Deno.readDirSync(path)) {
    entries.push({ name: entry.name, type: typeOf(entry) });
  }
  return entries;
}

/**
 * The entries of the directory at `path` (types are the entries' own; links not followed).
 *
 * @param path The directory's real path.
 * @param size The directory's `st_size`, to tell a small directory from a big one.
 * @param signal Cancels the wait.
 */
export async function readDirEntries(
  path: string,
  size: number,
  signal?: AbortSignal,
): Promise<FsDirEntry[]> {
  signal?.throwIfAborted();
  if (size > 0 && size < SYNC_MAX_DIR_BYTES) return readDirEntriesSync(path);
  const worker = sourceWorker(WORKER_SOURCE);
  if (worker) {
    const { names, types } = await worker.call<{ names: string[]; types: Uint8Array }>(
      { path },
      signal,
    );
    return toEntries(names, types);
  }
  const entries: FsDirEntry[] = [];
  for await (const entry of Deno.readDir(path)) {
    signal?.throwIfAborted();
    entries.push({ name: entry.name, type: typeOf(entry) });
  }
  return entries;
}
