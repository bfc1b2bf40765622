// The atomic replacement of the local provider (CONTRACT C4.3, C4.3a): a temporary file
// beside the target, created owner-only under a short name, its mode and owner set through
// its descriptor, flushed, checked and renamed over the target; and the sweep of temporary
// files that killed processes left behind. Private to src/provider/local.

import { constants as fsConstants, promises as nodeFs } from "node:fs";
import { FsError } from "../../fs_error.ts";
import { IO_DETAILS } from "../../render/errors.ts";
import { type Containment, huntAndRemove, readGranted, type WorkDir } from "./_containment.ts";
import { fdPathsAvailable, openLocation } from "./_fd_paths.ts";
import {
  type FileId,
  lstatOrNull,
  lstatSyncOrNull,
  realPathSyncOrNull,
  removeIfSame,
  sameFile,
  statSyncOrNull,
} from "./_stat.ts";
import type { Versioner } from "./_version.ts";

/** `open(2)` flags of a temporary file: write-only, created here, never an existing name. */
const CREATE_NEW = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL;
/** Temporary files of a killed process older than this are removed (C4.3a). */
const STALE_AFTER_MS = 60 * 60 * 1000;
/** How often one instance sweeps one directory. */
const SWEEP_INTERVAL_MS = 60 * 1000;
/**
 * Exactly the names `tempName` makes (`.toolfs-<8 hex>.tmp`). 0.1.0's longer form
 * (`.<target name>.toolfs-<8 hex>.tmp`) is no longer swept: a user's own file can have that
 * shape (issue 19).
 */
const STALE_TEMP = /^\.toolfs-[0-9a-f]{8}\.tmp$/;

/** What a replacement keeps and how it commits. */
export interface ReplaceOptions {
  /** The file replaced: its mode, owner and group are kept. `null` for a new file. */
  keep: Deno.FileInfo | null;
  /** Link instead of rename: fail with `FS_EXISTS` when the target exists by then. */
  createOnly: boolean;
  signal?: AbortSignal;
}

/**
 * New contents made chunk by chunk (a streamed edit): `emit` calls `write` with each chunk in
 * order, `length` bytes in all; a chunk may be a reused buffer, done with once `write` resolves.
 */
export interface ContentStream {
  length: number;
  emit(write: (chunk: Uint8Array) => Promise<void>): Promise<void>;
}

/** Commits new contents of files atomically, within the roots of one provider. */
export class Replacer {
  #c: Containment;
  /** How the provider computes versions. */
  readonly versions: Versioner;
  #sweeper = new StaleSweeper();

  /**
   * @param containment The provider's roots and checks.
   * @param versions How the provider computes versions.
   */
  constructor(containment: Containment, versions: Versioner) {
    this.#c = containment;
    this.versions = versions;
  }

  /**
   * Writes `bytes` (one buffer, slices in order, or a stream) to a temporary file beside `name` in `dir`,
   * flushes it, then renames it over the target (or links it, for create-only). The temporary
   * file never outlives the call, and is never written to before it is known to lie inside a
   * root. C4.3a: it is created owner-only under a short name; its final mode (and owner and
   * group of `keep`, the file it replaces, when the process may) is set through the open
   * descriptor, never by path; before the rename its name must still be the file written.
   */
  async replace(
    dir: WorkDir,
    name: string,
    bytes: Uint8Array | readonly Uint8Array[] | ContentStream,
    options: ReplaceOptions,
  ): Promise<string> {
    const { keep, createOnly, signal } = options;
    const c = this.#c;
    await this.#sweeper.sweep(dir, c);
    const target = `${dir.at}/${name}`;
    const tmp = `${dir.at}/${tempName()}`;
    let created = false; // the temporary file exists: this call must remove it unless committed
    let made: FileId | null = null; // its identity, once known
    let committed = false;
    try {
      signal?.throwIfAborted();
      const file = await nodeFs.open(tmp, CREATE_NEW, 0o600);
      created = true;
      let version: string;
      try {
        const opened = await file.stat();
        if (!(c.isInside(tmp, opened, true))) {
          created = false;
          await removeStray(tmp, opened); // made outside through a swapped parent
          throw new FsError("FS_OUTSIDE_ROOT");
        }
        made = opened;
        const digest = isStream(bytes) ? this.versions.stream(bytes.length) : null;
        if (isStream(bytes)) {
          await bytes.emit(async (chunk) => {
            digest!.update(chunk);
            await writeAll(file, chunk, signal);
          });
        } else {
          for (const piece of bytes instanceof Uint8Array ? [bytes] : bytes) {
            await writeAll(file, piece, signal);
          }
        }
        await setOwnerAndMode(file, keep, opened);
        await file.datasync();
        const info = fileInfoOf(await file.stat());
        version = digest
          ? digest.version(info)
          : await this.versions.version(info, bytes as Uint8Array | readonly Uint8Array[], null);
      } finally {
        await file.close();
      }
      signal?.throwIfAborted(); // the last moment to give up: after the rename it is done
      // The name must still be the file written: a link or another file renamed over it would
      // otherwise be committed in its place.
      const now = await lstatOrNull(tmp);
      if (!sameFile(now, made)) {
        throw new FsError("FS_IO_ERROR", { detail: IO_DETAILS.temporaryReplaced });
      }
      if (createOnly) {
        try {
          await Deno.link(tmp, target);
        } catch (error) {
          if (error instanceof Deno.errors.AlreadyExists) throw new FsError("FS_EXISTS");
          throw error;
        }
        committed = true;
        await Deno.remove(tmp).catch(() => Deno.remove(tmp)).catch(() => {});
      } else {
        await Deno.rename(tmp, target);
        committed = true;
      }
      if (!dir.pinned) checkLanded(c, target, made);
      return version;
    } finally {
      if (!committed && made) await removeTemp(tmp, made, dir.pinned);
      // Created but never identified (its stat failed): the random name is this call's alone.
      else if (!committed && created) await Deno.remove(tmp).catch(() => {});
    }
  }
}

function isStream(
  bytes: Uint8Array | readonly Uint8Array[] | ContentStream,
): bytes is ContentStream {
  return !(bytes instanceof Uint8Array) && !Array.isArray(bytes);
}

/**
 * C4.3a: removes the temporary files (`.toolfs-<8 hex>.tmp`, exactly as `tempName` makes them) that
 * killed processes left in a directory, once they are more than an hour old. Regular files
 * only, removed only while still the file judged stale. At most once a minute per directory and
 * instance, so a busy directory is not listed on every write.
 */
class StaleSweeper {
  #swept = new Map<string, number>();

  /**
   * Sweeps `dir` unless this instance did so within the last minute. Never fails. Under path
   * checks each file is checked again, just before its removal, to resolve to itself inside
   * a writable root (a swap of a parent can still win that race: README, "What is not
   * guaranteed").
   */
  async sweep(dir: WorkDir, c: Containment): Promise<void> {
    const key = dir.pinned ? dirKeyOf(dir.at) : dir.at;
    const now = Date.now();
    if (key === null || now - (this.#swept.get(key) ?? -Infinity) < SWEEP_INTERVAL_MS) return;
    this.#swept.set(key, now);
    if (this.#swept.size > 4096) this.#swept.clear();
    try {
      for await (const entry of Deno.readDir(dir.at)) {
        if (!entry.isFile || !STALE_TEMP.test(entry.name)) continue;
        const path = `${dir.at}/${entry.name}`;
        const info = await lstatOrNull(path);
        const mtime = info?.mtime?.getTime();
        if (!info?.isFile || mtime === undefined || now - mtime < STALE_AFTER_MS) continue;
        if (!dir.pinned && !c.stillInside(path, info, true)) continue;
        await removeIfSame(path, info).catch(() => false);
      }
    } catch {
      // best effort: a sweep never fails a write
    }
  }
}

/**
 * Path checks only: the committed file must have landed inside a root. `rename` looks up the
 * source and the destination directories separately, so a parent swapped for a link between
 * the two lookups moves the file outside. Seen inside (its inode can be in one place only): done.
 * Found outside: removed there, and the call fails as an escape. Never removes anything inside.
 * A file system error while looking is not a finding: the call has committed and succeeds.
 */
function checkLanded(c: Containment, target: string, info: FileId): void {
  for (let round = 0; round < 3; round++) {
    try {
      const real = realPathSyncOrNull(target);
      if (real !== null && c.rootOf(real) && sameFile(lstatSyncOrNull(real), info)) return;
    } catch {
      // after the commit nothing may fail the call (C7.2): a failed look is no finding
    }
  }
  const outside = (real: string, now: Deno.FileInfo) => sameFile(now, info) && !c.rootOf(real);
  if (huntAndRemove(target, outside)) throw new FsError("FS_OUTSIDE_ROOT");
}

/** Removes the temporary file `info` at `tmp`; by path, it may take a few tries under a race. */
async function removeTemp(tmp: string, info: FileId, pinned: boolean): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await removeIfSame(tmp, info).catch(() => false)) return;
  }
  if (!pinned) huntAndRemove(tmp, (_, now) => sameFile(now, info));
}

/**
 * Removes a temporary file that was created outside every root (a parent was swapped for a
 * link between the check and the create). With /proc/self/fd the kernel says exactly where it
 * is; otherwise the path is followed again a few times, in case the swap is undone.
 */
async function removeStray(tmp: string, info: FileId): Promise<void> {
  if (fdPathsAvailable()) {
    const path = openLocation(info)?.path;
    if (path) await removeIfSame(path, info).catch(() => false);
    return;
  }
  huntAndRemove(tmp, (_, now) => sameFile(now, info));
}

/** A short temporary name: it fits NAME_MAX beside any valid target name (C4.3a). */
function tempName(): string {
  return `.toolfs-${crypto.randomUUID().slice(0, 8)}.tmp`;
}

/** A key naming a pinned directory by identity (its handle's number is reused). */
function dirKeyOf(at: string): string | null {
  const info = statSyncOrNull(at);
  return info === null ? null : `${info.dev}:${info.ino}`;
}

/** The fields of node's `Stats` the version needs, as a `Deno.FileInfo`. */
function fileInfoOf(stats: { dev: number; ino: number; size: number; mtime: Date }): Deno.FileInfo {
  const { dev, ino, size, mtime } = stats;
  return { dev, ino, size, mtime } as Deno.FileInfo;
}

let cachedUmask: number | undefined;

/**
 * The process's umask, without asking for a permission Deno was not granted: through
 * `process.umask()` when `--allow-sys` covers it, else /proc/self/status, else the usual 022.
 */
function umask(): number {
  if (cachedUmask !== undefined) return cachedUmask;
  cachedUmask = 0o022;
  try {
    const sys = { name: "sys", kind: "umask" } as Deno.PermissionDescriptor;
    if (Deno.permissions.querySync(sys).state === "granted") {
      return cachedUmask = Deno.umask();
    }
    const status = "/proc/self/status";
    if (readGranted(status)) {
      const found = /^Umask:\s+([0-7]+)$/m.exec(Deno.readTextFileSync(status));
      if (found) cachedUmask = parseInt(found[1], 8);
    }
  } catch {
    // keep 022
  }
  return cachedUmask;
}

/**
 * C4.3a: gives the temporary file the permission bits (and, when the process may, the owner
 * and group) of the file it replaces, through its descriptor (and a file copied across file
 * systems those of its source, C15.2); a new file gets what `open`
 * would have given it. Set-user-ID and set-group-ID bits whose owner or group could not be
 * kept are dropped. `chown` goes first: the kernel clears set-ID bits on it.
 */
export async function setOwnerAndMode(
  file: nodeFs.FileHandle,
  keep: Deno.FileInfo | null,
  made: { uid: number; gid: number },
): Promise<void> {
  let mode = keep?.mode == null ? 0o666 & ~umask() : keep.mode & 0o7777;
  if (keep && keep.uid !== null && keep.gid !== null) {
    let uidKept = keep.uid === made.uid;
    let gidKept = keep.gid === made.gid;
    if (!uidKept || !gidKept) {
      try {
        await file.chown(keep.uid, keep.gid);
        uidKept = gidKept = true;
      } catch {
        if (!gidKept) {
          try {
            await file.chown(made.uid, keep.gid);
            gidKept = true;
          } catch {
            // the group stays the process's
          }
        }
      }
    }
    if (!uidKept) mode &= ~0o4000;
    if (!gidKept) mode &= ~0o2000;
  }
  await file.chmod(mode);
}

async function writeAll(
  file: nodeFs.FileHandle,
  bytes: Uint8Array,
  signal?: AbortSignal,
): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    signal?.throwIfAborted();
    const length = Math.min(bytes.length - written, 1 << 24);
    written += (await file.write(bytes, written, length)).bytesWritten;
  }
}
