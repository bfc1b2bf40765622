// A directory's entries, fast and without blocking the event loop for long. Private to
// src/provider.
//
// `Deno.readDir`'s async iterator costs about three times `ls -1` on a big directory (each entry
// is a step of an async generator); `Deno.readDirSync` costs about `ls -1` but blocks the thread
// for the whole read. So: a small directory is read synchronously (a few thousand entries at
// most, a millisecond or two), a big one by `Deno.readDirSync` in a worker thread that hands back
// the names and a byte per type. The worker is created on first need, kept for later listings
// and never keeps the process alive when idle. A search's listings through a descriptor handle
// are kept while their directories are unchanged (`readDecodableEntriesSync`).

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
 * it exists as decoded (a valid name may hold U+FFFD itself). Listed through a descriptor handle,
 * the entries are kept and served again while the directory is unchanged (see below): a search
 * repeated over a tree reads only the directories that changed.
 *
 * @param path The directory (or its descriptor handle).
 * @returns The entries whose names can be opened.
 */
export function readDecodableEntriesSync(path: string): FsDirEntry[] {
  // A descriptor handle names one directory for the whole call: its stat and its listing agree.
  if (!path.startsWith(FD_HANDLE)) return listDecodable(path);
  let stamp: Stamp | null = null;
  try {
    stamp = stampOf(Deno.statSync(path));
  } catch {
    // no stamp: listed and not kept
  }
  if (stamp) {
    const known = listings.get(stamp.key);
    if (known && known.ctime === stamp.ctime && known.rest === stamp.rest) {
      return known.entries.slice();
    }
  }
  const entries = listDecodable(path);
  if (stamp && stamp.ctime <= Date.now() - SETTLED_MS) keep(stamp, entries);
  return entries;
}

// Listings kept for later searches. A directory (device, inode, birth time) holds the entries it
// held when listed while its change time (`ctime`: no call sets it back), modification time, link
// count and size are unchanged, provided its change time was already SETTLED_MS in the past when
// it was listed: adding, removing or renaming an entry sets both times to the present (POSIX),
// which then differs from the kept stamp however coarse the clock (Deno gives `ctime` in whole
// seconds). Only listings through a descriptor handle are kept (the stamp and the listing are of
// one directory); the caller's containment check of that descriptor runs on every call, kept
// listing or not.

const FD_HANDLE = "/proc/self/fd/";
const SETTLED_MS = 2_000;
/** The most names kept in all; the oldest listings go first. */
const KEPT_MAX_NAMES = 100_000;

interface Stamp {
  /** Device, inode and birth time: the directory. */
  key: string;
  ctime: number;
  /** Modification time, link count and size: more of what a change moves. */
  rest: string;
}

interface Listing {
  ctime: number;
  rest: string;
  entries: readonly FsDirEntry[];
}

const listings = new Map<string, Listing>();
let keptNames = 0;

function stampOf(info: Deno.FileInfo): Stamp | null {
  const { ctime, mtime, ino } = info;
  if (!ctime || !mtime || ino === null || !info.isDirectory) return null;
  return {
    key: `${info.dev}:${ino}:${info.birthtime?.getTime() ?? ""}`,
    ctime: ctime.getTime(),
    rest: `${mtime.getTime()}:${info.nlink}:${info.size}`,
  };
}

function keep(stamp: Stamp, entries: FsDirEntry[]): void {
  if (entries.length > KEPT_MAX_NAMES / 4) return;
  const old = listings.get(stamp.key);
  if (old) {
    listings.delete(stamp.key);
    keptNames -= old.entries.length;
  }
  for (const entry of entries) Object.freeze(entry);
  listings.set(stamp.key, { ctime: stamp.ctime, rest: stamp.rest, entries: entries.slice() });
  keptNames += entries.length;
  for (const [key, listing] of listings) {
    if (keptNames <= KEPT_MAX_NAMES) break;
    listings.delete(key);
    keptNames -= listing.entries.length;
  }
}

/** The entries of `path` whose names can be opened (see `readDecodableEntriesSync`). */
function listDecodable(path: string): FsDirEntry[] {
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
