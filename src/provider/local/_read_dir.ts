// A directory's entries, fast and without blocking the event loop for long. Private to
// src/provider.
//
// `Deno.readDir`'s async iterator costs about three times `ls -1` on a big directory (each entry
// is a step of an async generator); `Deno.readDirSync` costs about `ls -1` but blocks the thread
// for the whole read. So: a small directory is read synchronously (a few thousand entries at
// most, a millisecond or two), a big one by `Deno.readDirSync` in a worker thread that hands back
// the names and a byte per type. The worker is created on first need, kept for later listings
// and never keeps the process alive when idle.

import { Worker } from "node:worker_threads";
import { IO_DETAILS } from "../../render/errors.ts";
import type { FsDirEntry, FsEntryType } from "../../types.ts";

/** A directory whose size (`st_size`) is below this is read on the calling thread. */
const SYNC_MAX_DIR_BYTES = 64 * 1024;

const TYPES: readonly FsEntryType[] = ["directory", "file", "other"];

const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ id, path }) => {
  try {
    const names = [];
    const kinds = [];
    for (const entry of Deno.readDirSync(path)) {
      names.push(entry.name);
      kinds.push(entry.isDirectory ? 0 : entry.isFile ? 1 : 2);
    }
    const types = new Uint8Array(kinds);
    parentPort.postMessage({ id, names, types }, [types.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: { name: error?.name, message: String(error?.message) } });
  }
});
`;

interface Reply {
  id: number;
  names?: string[];
  types?: Uint8Array;
  error?: { name?: string; message: string };
}

interface Pending {
  resolve(entries: FsDirEntry[]): void;
  reject(error: unknown): void;
}

/** The listing worker: one per process, started on first need. */
class DirWorker {
  #worker: Worker;
  #pending = new Map<number, Pending>();
  #nextId = 0;
  #onGone: () => void;

  constructor(onGone: () => void) {
    this.#onGone = onGone;
    this.#worker = new Worker(WORKER_SOURCE, { eval: true });
    this.#worker.unref();
    this.#worker.on("message", (reply: Reply) => this.#settle(reply));
    this.#worker.on("error", (error: unknown) => this.#fail(error));
    this.#worker.on("exit", () => this.#fail(new Error(IO_DETAILS.workerStopped)));
  }

  read(path: string, signal?: AbortSignal): Promise<FsDirEntry[]> {
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      const onAbort = () => {
        this.#pending.delete(id);
        this.#idle();
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, {
        resolve: (entries) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(entries);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      this.#worker.ref(); // a listing in flight keeps the process alive
      this.#worker.postMessage({ id, path });
    });
  }

  #settle(reply: Reply): void {
    const pending = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    this.#idle();
    if (!pending) return; // aborted meanwhile
    if (reply.error) pending.reject(rebuildError(reply.error));
    else pending.resolve(toEntries(reply.names!, reply.types!));
  }

  #fail(error: unknown): void {
    this.#onGone();
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const pending of waiting) pending.reject(error);
  }

  #idle(): void {
    if (this.#pending.size === 0) this.#worker.unref();
  }
}

let shared: DirWorker | null = null;
let workerUnavailable = false;

function dirWorker(): DirWorker | null {
  if (shared || workerUnavailable) return shared;
  try {
    const created: DirWorker = new DirWorker(() => {
      if (shared === created) shared = null;
    });
    shared = created;
  } catch {
    workerUnavailable = true; // e.g. a runtime without worker threads: fall back
  }
  return shared;
}

function toEntries(names: readonly string[], types: Uint8Array): FsDirEntry[] {
  const entries: FsDirEntry[] = new Array(names.length);
  for (let i = 0; i < names.length; i++) entries[i] = { name: names[i], type: TYPES[types[i]] };
  return entries;
}

function typeOf(entry: Deno.DirEntry): FsEntryType {
  return entry.isDirectory ? "directory" : entry.isFile ? "file" : "other";
}

/** The worker's error as the class Deno would have thrown here, so callers map it the same. */
function rebuildError(error: { name?: string; message: string }): Error {
  const errors = Deno.errors as unknown as Record<string, new (message: string) => Error>;
  const Class = error.name && Object.hasOwn(errors, error.name) ? errors[error.name] : Error;
  return new Class(error.message);
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
  if (size > 0 && size < SYNC_MAX_DIR_BYTES) {
    const entries: FsDirEntry[] = [];
    for (const entry of Deno.readDirSync(path)) {
      entries.push({ name: entry.name, type: typeOf(entry) });
    }
    return entries;
  }
  const worker = dirWorker();
  if (worker) return await worker.read(path, signal);
  const entries: FsDirEntry[] = [];
  for await (const entry of Deno.readDir(path)) {
    signal?.throwIfAborted();
    entries.push({ name: entry.name, type: typeOf(entry) });
  }
  return entries;
}
