// Opening files of the local provider: verified opens (the open file is the checked one,
// inside a root) and the locked read of a file about to be replaced. Private to
// src/provider/local.

import { constants as fsConstants, promises as nodeFs } from "node:fs";
import { FsError } from "../../fs_error.ts";
import { IO_DETAILS, PERMISSION_DETAILS } from "../../render/errors.ts";
import type { FsPrecondition } from "../fs_provider.ts";
import type { Containment } from "./_containment.ts";
import { fdPathsAvailable, openLocation } from "./_fd_paths.ts";
import { fromNodeError } from "./_errors.ts";
import { readAll } from "./_read.ts";
import { closeQuietly, sameFile } from "./_stat.ts";
import type { Versioner } from "./_version.ts";

/** How long a lock wait sleeps between tries at most (C7.2: an abort is seen within it). */
const LOCK_POLL_MAX_MS = 20;

/**
 * Opens a regular file for reading and verifies that the open file is the one at `path`,
 * inside a root (no parent was swapped for a link between the check and the open).
 */
export async function openVerified(
  c: Containment,
  path: string,
  signal?: AbortSignal,
  write = false,
): Promise<Deno.FsFile> {
  for (let attempt = 0;; attempt++) {
    signal?.throwIfAborted();
    const info = await Deno.stat(path);
    if (!info.isFile) throw new FsError("FS_NOT_REGULAR_FILE"); // never open a FIFO
    const file = await openNoWait(path);
    try {
      const opened = await file.stat();
      if (opened.isFile && c.isInside(path, opened, write)) return file;
    } catch (error) {
      file.close();
      throw error;
    }
    file.close();
    // A concurrent writer replacing the file also fails the check: try again, a few times.
    if (attempt >= 9) {
      const real = await Deno.realPath(path).catch(() => path);
      if (!c.rootOf(real)) throw new FsError("FS_OUTSIDE_ROOT");
      throw new FsError("FS_IO_ERROR", { detail: IO_DETAILS.replacedWhileOpening });
    }
  }
}

/** `open(2)` flags of a file opened for reading that must not wait (a FIFO, a terminal). */
const READ_NO_WAIT = fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOCTTY;

/**
 * Opens `path` for reading (links followed). Where /proc/self/fd is usable, first without ever
 * waiting (`O_NONBLOCK`): a FIFO exchanged in for the file between its `stat` and this open
 * would otherwise block the call past any abort; anything but a regular file is refused, and a
 * regular file is opened again through its descriptor, so the Deno file is that very file
 * (reading it blocks as usual). Elsewhere a plain open (the README names that residue).
 */
async function openNoWait(path: string): Promise<Deno.FsFile> {
  if (!fdPathsAvailable()) return await Deno.open(path, { read: true });
  let probe: nodeFs.FileHandle;
  try {
    probe = await nodeFs.open(path, READ_NO_WAIT);
  } catch (error) {
    throw fromNodeError(error);
  }
  try {
    if (!(await probe.stat()).isFile()) throw new FsError("FS_NOT_REGULAR_FILE");
    return await Deno.open(`/proc/self/fd/${probe.fd}`, { read: true });
  } finally {
    await probe.close();
  }
}

/**
 * Opens the current file at `path`, takes an exclusive advisory lock on it (serializing
 * toolfs processes too), reads it and checks the precondition against its version. The caller
 * keeps the file open, and so locked, until its replacement is committed.
 */
export async function readCurrent(
  c: Containment,
  versions: Versioner,
  path: string,
  precondition: FsPrecondition,
  signal?: AbortSignal,
): Promise<{ bytes: Uint8Array; info: Deno.FileInfo; held: Deno.FsFile }> {
  const locked = await lockCurrent(c, path, precondition, signal);
  try {
    return { ...locked, bytes: await readLocked(versions, locked, precondition, signal) };
  } catch (error) {
    closeQuietly(locked.held);
    throw error;
  }
}

/**
 * The whole of a file {@linkcode lockCurrent} locked, read from its current position (its start,
 * unless the caller read it already), its version checked against the precondition.
 */
export async function readLocked(
  versions: Versioner,
  locked: { info: Deno.FileInfo; held: Deno.FsFile },
  precondition: FsPrecondition,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const { info, held } = locked;
  const bytes = await readAll(held, info.size, signal);
  if (precondition.kind === "version") {
    const version = await versions.version(info, bytes, held);
    if (version !== precondition.version) throw new FsError("FS_STALE");
  }
  return bytes;
}

/**
 * Opens the current file at `path` and takes an exclusive advisory lock on it (serializing
 * toolfs processes too), reading nothing. The caller keeps the file open, and so locked, until
 * its replacement is committed, and checks the precondition (`readLocked`, or as it streams).
 */
export async function lockCurrent(
  c: Containment,
  path: string,
  precondition: FsPrecondition,
  signal?: AbortSignal,
): Promise<{ info: Deno.FileInfo; held: Deno.FsFile }> {
  for (let attempt = 0;; attempt++) {
    const file = await openVerified(c, path, signal, true);
    try {
      await lockAbortably(file, signal);
      const info = await file.stat();
      // Another process may have replaced the file while we waited for the lock: lock the
      // new one. A busy writer can win this race many times in a row (this call sleeps between
      // tries of the lock, the other takes it the moment it is free). A versioned call gives up
      // after many rounds, since the file it read is gone anyway; an unconditional one waits
      // its turn as long as it takes (each round means another writer committed; an abort
      // ends the wait).
      if (!(c.isInside(path, info, true))) {
        if (precondition.kind === "version" && attempt >= 100) throw new FsError("FS_STALE");
        file.close();
        continue;
      }
      await refuseReadOnly(path, info);
      return { info, held: file };
    } catch (error) {
      closeQuietly(file);
      throw error;
    }
  }
}

/** `open(2)` flags of the write probe by path: no link followed, no FIFO waited on, no tty. */
const PROBE_BY_PATH = fsConstants.O_WRONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK |
  fsConstants.O_NOCTTY;

/**
 * C4.3b: refuses to replace or remove the open regular file `info` (held by the caller, found at
 * `path`) when its permission bits deny this process writing it: exactly when an in-place open
 * for writing is refused (mode `0444` for anyone but the superuser), though the rename or
 * unlink that replaces or removes it would succeed. The open file is opened again for writing
 * (through /proc/self/fd where Deno allows, so it is that very file; else by `path`, never
 * following a link, and checked to be the same file); nothing is written, truncated or
 * created. Only a refusal by permission (EACCES, EPERM) counts: any other failure of the probe
 * leaves the decision to the call itself.
 *
 * @throws {FsError} `FS_PERMISSION_DENIED` with the read-only detail.
 */
export async function refuseReadOnly(path: string, info: Deno.FileInfo): Promise<void> {
  let refused = false;
  try {
    const where = fdPathsAvailable() ? openLocation(info) : null;
    if (where) {
      (await Deno.open(where.handle, { write: true })).close();
    } else {
      const probe = await nodeFs.open(path, PROBE_BY_PATH);
      try {
        if (!sameFile(await probe.stat(), info)) {
          throw new FsError("FS_IO_ERROR", { detail: IO_DETAILS.replacedWhileOpening });
        }
      } finally {
        await probe.close();
      }
    }
  } catch (error) {
    if (error instanceof FsError) throw error;
    const code = (error as { code?: unknown })?.code;
    refused = error instanceof Deno.errors.PermissionDenied || code === "EACCES" ||
      code === "EPERM";
  }
  if (refused) {
    throw new FsError("FS_PERMISSION_DENIED", { detail: PERMISSION_DETAILS.readOnlyFile });
  }
}

/**
 * Takes an exclusive advisory lock on `file`, waiting for other holders (other processes
 * included) as long as it takes, yet giving up within {@linkcode LOCK_POLL_MAX_MS} of an abort
 * (C7.2). Polls `tryLock`, so a blocked `flock` never pins a thread the abort cannot reach.
 */
export async function lockAbortably(file: Deno.FsFile, signal?: AbortSignal): Promise<void> {
  for (let wait = 1;; wait = Math.min(wait * 2, LOCK_POLL_MAX_MS)) {
    signal?.throwIfAborted();
    if (await file.tryLock(true)) return;
    await sleep(wait, signal);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
