// A directory's entries, fast and without blocking the event loop for long. Private to
// src/provider.
//
// `Deno.readDir`'s async iterator costs about three times `ls -1` on a big directory (each entry
// is a step of an async generator); `Deno.readDirSync` costs about `ls -1` but blocks the thread
// for the whole read. So: a small directory is read synchronously (a few thousand entries at
// most, a millisecond or two), a big one by `Deno.readDirSync` in a worker thread that hands back
// the names and a byte per type. The worker is created on first need, kept for later listings
// and never keeps the process alive when idle. A search's listings are kept while their
// directories are unchanged: through a descriptor handle (`readDecodableEntriesSync`), and apart
// from those, `grep`'s listings by path (`readUncheckedEntriesSync`).

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
export function readDecodableEntriesSync(path: string): readonly FsDirEntry[] {
  // A descriptor handle names one directory for the whole call: its stat and its listing agree.
  if (!path.startsWith(FD_HANDLE)) return listDecodable(path);
  return listKept(path, checked);
}

/**
 * The entries of `path` as {@linkcode readDecodableEntriesSync} has them, for a caller that
 * checks every file it reads and reports nothing else (`grep`'s listings below its search
 * directory). Listed by path, they are kept apart, by the directory the path's `stat` names, from
 * the second time a path is listed (a first search of a tree pays no `stat` per directory): a
 * directory swapped for a link meanwhile may be served another directory's names, which that
 * caller's checks make harmless (a file read through them is never reported).
 *
 * @param path The directory.
 * @returns The entries whose names can be opened.
 */
export function readUncheckedEntriesSync(path: string): readonly FsDirEntry[] {
  if (listedOnce.has(path)) return listKept(path, unchecked);
  if (listedOnce.size >= LISTED_ONCE_MAX) listedOnce.clear();
  listedOnce.add(path);
  return listDecodable(path);
}

/**
 * The entries of `path`, from `kept` while its directory is unchanged, else listed (and kept).
 * A kept listing is handed out as it is kept, frozen (the same array while it is kept), so a
 * caller may work things out from it once (grep's walk does).
 */
function listKept(path: string, kept: KeptListings): readonly FsDirEntry[] {
  let stamp: Stamp | null = null;
  try {
    stamp = stampOf(Deno.statSync(path));
  } catch {
    // no stamp: listed and not kept
  }
  const known = stamp && kept.get(stamp);
  if (known) return known;
  const entries = listDecodable(path);
  if (stamp && stamp.ctime <= Date.now() - SETTLED_MS) return kept.keep(stamp, entries);
  return entries;
}

// Listings kept for later searches. A directory (device, inode, birth time) holds the entries it
// held when listed while its change time (`ctime`: no call sets it back), modification time, link
// count and size are unchanged, provided its change time was already SETTLED_MS in the past when
// it was listed: adding, removing or renaming an entry sets both times to the present (POSIX),
// which then differs from the kept stamp however coarse the clock (Deno gives `ctime` in whole
// seconds). Listings through a descriptor handle (the stamp and the listing are of one
// directory) are kept apart from listings by path (`readUncheckedEntriesSync`), which only
// callers that check every read get; the caller's containment check of a descriptor runs on
// every call, kept listing or not.

const FD_HANDLE = "/proc/self/fd/";
const SETTLED_MS = 2_000;
/** The most names kept in one set of listings; the oldest listings go first. */
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

/** A set of kept listings, at most {@linkcode KEPT_MAX_NAMES} names in all. */
class KeptListings {
  #listings = new Map<string, Listing>();
  #names = 0;

  /** The listing kept under `stamp` (frozen), or `null` when none is or the directory changed. */
  get(stamp: Stamp): readonly FsDirEntry[] | null {
    const known = this.#listings.get(stamp.key);
    if (!known || known.ctime !== stamp.ctime || known.rest !== stamp.rest) return null;
    return known.entries;
  }

  /** Keeps a listing under `stamp`; the listing as kept (frozen), or as given when too big. */
  keep(stamp: Stamp, entries: FsDirEntry[]): readonly FsDirEntry[] {
    if (entries.length > KEPT_MAX_NAMES / 4) return entries;
    const old = this.#listings.get(stamp.key);
    if (old) {
      this.#listings.delete(stamp.key);
      this.#names -= old.entries.length;
    }
    for (const entry of entries) Object.freeze(entry);
    const frozen = Object.freeze(entries.slice());
    this.#listings.set(stamp.key, { ctime: stamp.ctime, rest: stamp.rest, entries: frozen });
    this.#names += entries.length;
    for (const [key, listing] of this.#listings) {
      if (this.#names <= KEPT_MAX_NAMES) break;
      this.#listings.delete(key);
      this.#names -= listing.entries.length;
    }
    return frozen;
  }
}

/** Listings through a descriptor handle. */
const checked = new KeptListings();
/** Listings by path (`readUncheckedEntriesSync`), and the paths listed so far that way. */
const unchecked = new KeptListings();
const listedOnce = new Set<string>();
/** The most paths remembered as listed once; then the memory starts again. */
const LISTED_ONCE_MAX = 100_000;

function stampOf(info: Deno.FileInfo): Stamp | null {
  const { ctime, mtime, ino } = info;
  if (!ctime || !mtime || ino === null || !info.isDirectory) return null;
  return {
    key: `${info.dev}:${ino}:${info.birthtime?.getTime() ?? ""}`,
    ctime: ctime.getTime(),
    rest: `${mtime.getTime()}:${info.nlink}:${info.size}`,
  };
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
