// The search prefilter on both threads (CONTRACT C11): which files surely lack one of a
// pattern's literals, told by a worker that opens and reads them while the calling thread walks
// and searches the rest. Whenever the calling thread is idle (between its own tasks, or waiting
// for an answer), it checks files of the oldest batch still unclaimed too: each file is claimed
// once, through a counter both threads share, so two cores read one batch. Private to
// src/provider/local.
//
// A file is opened by its real path (`O_NOFOLLOW`, so its last name is never followed), but a
// directory on the way may have been swapped for a link to outside the roots. No answer may
// depend on what such an outside file holds (issue 19: whether a decoy inside a root was
// reported told whether the file outside at the same name held the pattern, a one-bit content
// oracle), so every file read through a link to outside is marked 0, whatever it holds: the
// search counts it as searched, as it counts a read that fails `verify()`, and never shows it.
// A text file lacking a literal is marked 0 without a check (0 is the answer for an outside read
// too); a 1 (a text file holding every literal, or a binary one) is given only when the kernel's
// path of the very descriptor that was read (/proc/self/fd/<n>) lies inside a root. So the one
// `readlink` per file is paid only by the few files the search reads again (issue 33.7: paid by
// every file lacking a literal, it made grep 1.3x slower). Where /proc/self/fd cannot be used
// (scoped permission flags), there is no prefilter: every file is read through the provider's
// `readChunks`, which checks. A file marked 1 is read through `readChunks` too. A binary file (C4.2's head
// rule) read inside a root is never marked 0, whatever it lacks: the search reads it, tells it
// binary and leaves it out of the files searched, so that count (C11 `<s>`) does not depend on
// the pattern. Both threads run the very same check: the worker evaluates `makeBatchCheck`'s
// source text, with `makeByteSearch`'s and `looksBinary`'s.

import * as nodeFs from "node:fs";
import { setImmediate } from "node:timers";
import { makeByteSearch } from "../../text/byte_search.ts";
import { looksBinary } from "../../text/binary_sniff.ts";
import { fdPathsAvailable } from "./_fd_paths.ts";
import { sourceWorker } from "./_worker.ts";

/** A file this big or bigger is left to the caller (marked 1), which streams it. */
const WHOLE_MAX = 1 << 18;
/**
 * Files the calling thread checks in one turn of its event loop (about half a millisecond on
 * cached files), and the time after which it stops early (files read from a slow disk).
 */
const SLICE = 32;
const SLICE_MS = 2;
/** Bytes before the flags in a batch's shared buffer: two Int32 counters. */
const HEADER = 8;

/**
 * One batch of files. `shared` holds two Int32 counters (the next file to claim, and the files
 * checked), then one flag byte per file.
 */
export interface Batch {
  paths: readonly string[];
  needles: readonly Uint8Array[];
  roots: readonly string[];
  shared: SharedArrayBuffer;
}

/** The `node:fs` calls the check makes (`require("node:fs")` in the worker). */
export interface CheckFs {
  constants: { O_RDONLY: number; O_NOFOLLOW: number; O_NONBLOCK: number };
  openSync(path: string, flags: number): number;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: null): number;
  readlinkSync(path: string): string;
  closeSync(fd: number): void;
}

/**
 * A batch's check: claims and checks at most `max` files, claiming none once `performance.now()`
 * has passed `until`; whether every file of the batch is checked (by either thread).
 */
export type BatchCheck = (batch: Batch, max: number, until?: number) => boolean;

/**
 * Makes the check of a batch's files. Self-contained (no reference to anything outside this
 * function), so its source text can be evaluated in the worker thread.
 *
 * @param fs `node:fs`.
 * @param containsBytes The byte search's `containsBytes`.
 * @param wholeMax The size from which a file is left to the caller (marked 1).
 * @param binary C4.2's rule on a file's bytes (`looksBinary`): a binary file is marked 1.
 * @returns The check.
 */
export function makeBatchCheck(
  fs: CheckFs,
  containsBytes: (bytes: Uint8Array, needle: Uint8Array) => boolean,
  wholeMax: number,
  binary: (head: Uint8Array) => boolean,
): BatchCheck {
  const FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
  const buffer = new Uint8Array(wholeMax);
  const inside = (roots: readonly string[], path: string) =>
    roots.some((root) => path === root || path.startsWith(root.endsWith("/") ? root : root + "/"));
  const located = (fd: number, roots: readonly string[]) => {
    let path: string;
    try {
      path = fs.readlinkSync("/proc/self/fd/" + fd);
    } catch {
      return false;
    }
    return path.startsWith("/") && !path.endsWith(" (deleted)") && inside(roots, path);
  };
  /** Whether to mark the file 0 (skip it; see the top of this file). */
  const lacks = (path: string, needles: readonly Uint8Array[], roots: readonly string[]) => {
    let fd: number;
    try {
      fd = fs.openSync(path, FLAGS);
    } catch {
      return false;
    }
    try {
      const n = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (n >= buffer.length) return false;
      const bytes = buffer.subarray(0, n);
      // A text file lacking a literal: skipped, wherever it was read (an outside read is too).
      // A binary file is left to the search, which leaves it uncounted (C11 `<s>`).
      if (!binary(bytes)) {
        for (const needle of needles) if (!containsBytes(bytes, needle)) return true;
      }
      // Searched only when read inside a root (checked after the read), else skipped too.
      return !located(fd, roots);
    } catch {
      return false;
    } finally {
      fs.closeSync(fd);
    }
  };
  return (batch, max, until = Infinity) => {
    const { paths, needles, roots, shared } = batch;
    const counts = new Int32Array(shared, 0, 2);
    const flags = new Uint8Array(shared, 8); // after the counters (HEADER: this source stands alone)
    for (let taken = 0; taken < max && (taken === 0 || performance.now() < until); taken++) {
      const i = Atomics.add(counts, 0, 1);
      if (i >= paths.length) break;
      Atomics.store(flags, i, lacks(paths[i], needles, roots) ? 0 : 1);
      Atomics.add(counts, 1, 1);
    }
    return Atomics.load(counts, 1) >= paths.length;
  };
}

/**
 * The prefilter worker's `handle`: checks every file of the batch it can still claim (its paths
 * come joined by NUL, a byte no path holds).
 */
const WORKER_SOURCE = `
const check = (${String(makeBatchCheck)})(
  require("node:fs"),
  (${String(makeByteSearch)})().containsBytes,
  ${WHOLE_MAX},
  ${String(looksBinary)},
);
function handle(batch) {
  check({ ...batch, paths: batch.paths.split("\\0") }, Infinity);
  return [true, []];
}
`;

/**
 * Shared buffers the worker is done with, for later batches: each new one costs about 20 KiB of
 * resident memory until it is collected, and a search of 16,000 files asks 63 batches.
 */
const spare: SharedArrayBuffer[] = [];
const SPARE_MAX = 8;

/** A batch's shared buffer for `count` files, its counters at 0. */
function sharedFor(count: number): SharedArrayBuffer {
  const at = spare.findIndex((buffer) => buffer.byteLength === HEADER + count);
  if (at === -1) return new SharedArrayBuffer(HEADER + count);
  const [buffer] = spare.splice(at, 1);
  new Int32Array(buffer, 0, 2).fill(0);
  return buffer;
}

function release(buffer: SharedArrayBuffer): void {
  if (spare.length < SPARE_MAX) spare.push(buffer);
}

/** A batch asked and not yet answered. */
interface Asked {
  batch: Batch;
  /** Answers with the flags (`true`: every file is checked) or drops the batch (`false`). */
  settle(checked: boolean): void;
}

/** The batches asked and not yet answered, oldest first. */
const asked: Asked[] = [];
let checkHere: BatchCheck | undefined;
let helping = false;

/** Whether some file of `batch` is not yet claimed by either thread. */
function unclaimed(batch: Batch): boolean {
  return Atomics.load(new Int32Array(batch.shared, 0, 1), 0) < batch.paths.length;
}

/**
 * One turn of this thread's help: checks up to {@linkcode SLICE} unclaimed files (for
 * {@linkcode SLICE_MS} milliseconds at most) of the oldest batch that has some, answers every
 * batch now fully checked, and comes back on a later turn while files are left to claim.
 */
function help(): void {
  helping = false;
  const oldest = asked.find((a) => unclaimed(a.batch));
  if (oldest) {
    checkHere ??= makeBatchCheck(nodeFs, makeByteSearch().containsBytes, WHOLE_MAX, looksBinary);
    checkHere(oldest.batch, SLICE, performance.now() + SLICE_MS);
  }
  for (const done of asked.filter((a) => fullyChecked(a.batch))) done.settle(true);
  if (asked.some((a) => unclaimed(a.batch))) helpSoon();
}

function fullyChecked(batch: Batch): boolean {
  return Atomics.load(new Int32Array(batch.shared, 0, 2), 1) >= batch.paths.length;
}

function helpSoon(): void {
  if (helping) return;
  helping = true;
  setImmediate(help);
}

/**
 * For each file, 0 when it surely lacks one of `needles` (it was read whole and one is missing)
 * or when the descriptor read does not lie inside one of `roots` (whatever it holds), 1 when it
 * may hold them all (it does, read inside a root, or it could not be read whole). Resolves to `null`
 * where no worker thread can run or /proc/self/fd cannot be used (then every file may). The
 * worker and, when idle, this thread check the files.
 *
 * @param paths The files' real paths.
 * @param needles The literals.
 * @param roots The roots' real paths.
 * @param signal Stops the wait.
 * @returns The flags, or `null`.
 */
export function mayContainAll(
  paths: readonly string[],
  needles: readonly Uint8Array[],
  roots: readonly string[],
  signal?: AbortSignal,
): Promise<Uint8Array | null> {
  if (!fdPathsAvailable() || typeof SharedArrayBuffer !== "function") return Promise.resolve(null);
  const worker = sourceWorker(WORKER_SOURCE);
  if (!worker) return Promise.resolve(null);
  const shared = sharedFor(paths.length);
  const batch: Batch = { paths, needles, roots, shared };
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      entry.settle(false);
      reject(signal!.reason);
    };
    const entry: Asked = {
      batch,
      settle(checked) {
        const at = asked.indexOf(entry);
        if (at === -1) return; // answered already
        asked.splice(at, 1);
        signal?.removeEventListener("abort", onAbort);
        if (checked) resolve(new Uint8Array(batch.shared, HEADER).slice());
      },
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    asked.push(entry);
    helpSoon();
    // The worker answers once it can claim no more; this thread may have checked the last file.
    // Either way the worker is done with the buffer then, and it serves a later batch. A call
    // that fails (an abort) may leave the worker still claiming files of this batch through its
    // counters: the buffer is not kept for another batch then, whose counters the worker would
    // move and whose flags it would set from these paths.
    // The paths as one string: cloned for the worker in one copy, not 256 (issue 33.7).
    worker.call<boolean>({ ...batch, paths: paths.join("\0") }, signal).then(() => {
      entry.settle(true);
      release(shared);
    }, (error) => {
      if (asked.includes(entry)) {
        entry.settle(false);
        reject(error);
      }
    });
  });
}
