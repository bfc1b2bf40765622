/**
 * The Deno file system behind the tools: roots resolved once, containment on real paths,
 * identity checked after every open, atomic replacement, per-file serialization.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { constants as fsConstants, promises as nodeFs } from "node:fs";
import { basename, dirname, isAbsolute, resolve as resolvePath } from "node:path";
import { FsError } from "../fs_error.ts";
import type { FsDirEntry } from "../render/list_render.ts";
import type {
  FsCallOptions,
  FsEditFunction,
  FsEditOutcome,
  FsFileContent,
  FsMutationOptions,
  FsPrecondition,
  FsProvider,
  FsReadHandle,
  FsResolveOptions,
  FsRootInfo,
  FsStat,
  FsTarget,
  FsWriteOutcome,
} from "./fs_provider.ts";
import { KeyedLock } from "./_lock.ts";
import { readDirEntries } from "./_read_dir.ts";
import { fdPathsAvailable, type OpenLocation, openLocation, pinnedLocation } from "./_fd_paths.ts";
import { findRoot } from "./roots.ts";

/** A root: a path (readable and writable) or an object with `write: false` for read-only. */
export type RootSpec = string | {
  /** The directory. */
  path: string;
  /**
   * Whether `write` and `edit` may change files under it.
   * @default {true}
   */
  write?: boolean;
};

/** Options of {@linkcode LocalFileSystem}. */
export interface LocalFileSystemOptions {
  /** The roots every path must lie in. At least one. */
  roots: readonly RootSpec[];
  /**
   * Bytes per chunk of a streamed read.
   * @default {1048576}
   */
  chunkSize?: number;
  /**
   * Files up to this size are versioned by a digest of their whole content; larger ones by a
   * digest of their first and last 256 KiB (CONTRACT C5.7).
   * @default {10485760}
   */
  fullDigestMaxSize?: number;
}

/**
 * A directory the provider creates, replaces and lists files in. `at` is the prefix names are
 * joined to: `/proc/self/fd/<n>` for a directory pinned by an open descriptor (then a swap of
 * one of its parents for a symlink cannot redirect the call), else its real path.
 */
interface WorkDir {
  at: string;
  pinned: boolean;
  close(): void;
}

/** A file's identity: device and inode. */
interface FileId {
  dev: number;
  ino: number | null;
}

const EDGE = 256 * 1024;
/** `open(2)` flags of a temporary file: write-only, created here, never an existing name. */
const CREATE_NEW = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL;
/** Temporary files of a killed process older than this are removed (C4.3a). */
const STALE_AFTER_MS = 60 * 60 * 1000;
/** How often one instance sweeps one directory. */
const SWEEP_INTERVAL_MS = 60 * 1000;
/** This version's temporary names, and 0.1.0's (`.<target name>.toolfs-<8 hex>.tmp`). */
const STALE_TEMP = /^\.(?:.*\.)?toolfs-[0-9a-f]{8}\.tmp$/;
/** How long a lock wait sleeps between tries at most (C7.2: an abort is seen within it). */
const LOCK_POLL_MAX_MS = 20;
const MAX_LINK_HOPS = 40;
const encoder = new TextEncoder();

/**
 * The Deno implementation of {@linkcode FsProvider}.
 *
 * @example Two roots, one read-only
 * ```ts ignore
 * import { LocalFileSystem } from "./local_fs.ts";
 *
 * const fs = new LocalFileSystem({ roots: ["./workspace", { path: "/usr/share/doc", write: false }] });
 * console.log(fs.roots);
 * ```
 */
export class LocalFileSystem implements FsProvider {
  /** The roots as real paths, in the order given. */
  readonly roots: readonly FsRootInfo[];
  #chunkSize: number;
  #fullDigestMaxSize: number;
  #locks = new KeyedLock();
  #swept = new Map<string, number>();

  /**
   * Resolves every root to its real path and checks Deno's permissions for it.
   *
   * @param options The roots and tuning.
   * @throws {Error} When a root is missing, not a directory, or lacks a permission grant.
   */
  constructor(options: LocalFileSystemOptions) {
    const specs = options?.roots;
    if (!Array.isArray(specs) || specs.length === 0) {
      throw new TypeError("LocalFileSystem needs at least one root: got none");
    }
    this.roots = Object.freeze(specs.map((spec) => checkRoot(spec)));
    this.#chunkSize = options.chunkSize ?? 1 << 20;
    this.#fullDigestMaxSize = options.fullDigestMaxSize ?? 10 * 1024 * 1024;
  }

  /** {@inheritDoc FsProvider.resolve} */
  async resolve(path: string, options: FsResolveOptions): Promise<FsTarget> {
    const { cwd, op, signal } = options;
    const lexical = resolvePath(cwd, path);
    const realPath = await guard(() => this.#realTarget(lexical, signal), signal);
    const root = findRoot(this.roots, realPath);
    if (!root) throw new FsError("FS_OUTSIDE_ROOT");
    if ((op === "write" || op === "edit") && !root.writable) throw new FsError("FS_READ_ONLY");
    return { path: lexical, realPath, root };
  }

  /** {@inheritDoc FsProvider.stat} */
  async stat(target: FsTarget, options: FsCallOptions = {}): Promise<FsStat | null> {
    const info = await guard(() => statOrNull(target.realPath), options.signal);
    if (!info) return null;
    return { type: typeOf(info), size: info.size, mtimeMs: info.mtime?.getTime() ?? null };
  }

  /** {@inheritDoc FsProvider.listDir} */
  listDir(target: FsTarget, options: FsCallOptions = {}): Promise<FsDirEntry[]> {
    return guard(async () => {
      for (let attempt = 0;; attempt++) {
        const before = await Deno.stat(target.realPath);
        if (!before.isDirectory) throw new FsError("FS_NOT_DIRECTORY");
        // The directory listed must be inside the root: pinned by a descriptor whose kernel
        // path is checked where the runtime allows, else the same identity at a real path
        // inside the root just before and after the listing (a parent swapped for a link).
        const dir = await this.#pin(target.realPath, false);
        try {
          const checked = dir.pinned || this.#stillInside(target.realPath, before);
          const entries = await readDirEntries(dir.at, before.size, options.signal);
          if (dir.pinned || (checked && this.#stillInside(target.realPath, before))) {
            return entries;
          }
        } finally {
          dir.close();
        }
        if (attempt >= 2) throw new FsError("FS_OUTSIDE_ROOT");
      }
    }, options.signal);
  }

  /** {@inheritDoc FsProvider.readText} */
  readText(target: FsTarget, options: FsCallOptions = {}): Promise<FsFileContent> {
    const { signal } = options;
    return guard(async () => {
      const file = await this.#openVerified(target.realPath, signal);
      try {
        const info = await file.stat();
        // C7.4: never past the size the file had at open (it may be growing).
        const bytes = await readAll(file, info.size, signal);
        return { bytes, version: await this.#version(info, bytes, file) };
      } finally {
        file.close();
      }
    }, signal);
  }

  /** {@inheritDoc FsProvider.streamText} */
  streamText(target: FsTarget, options: FsCallOptions = {}): Promise<FsReadHandle> {
    const { signal } = options;
    return guard(async () => {
      const file = await this.#openVerified(target.realPath, signal);
      try {
        const info = await file.stat();
        const { version, head } = await this.#digest(info, null, file);
        // Two buffers: the next chunk is read while the caller scans the current one.
        const buffers = [new Uint8Array(this.#chunkSize), new Uint8Array(this.#chunkSize)];
        return {
          version,
          cacheKey: identityKey(info),
          size: info.size,
          chunks: (position: number) => chunksOf(file, buffers, position, signal, head),
          close: () => closeQuietly(file),
        };
      } catch (error) {
        closeQuietly(file);
        throw error;
      }
    }, signal);
  }

  /** {@inheritDoc FsProvider.version} */
  version(target: FsTarget, options: FsCallOptions = {}): Promise<string | null> {
    const { signal } = options;
    return guard(async () => {
      const info = await statOrNull(target.realPath);
      if (!info) return null;
      if (!info.isFile) throw new FsError("FS_NOT_REGULAR_FILE");
      const file = await this.#openVerified(target.realPath, signal);
      try {
        return await this.#version(await file.stat(), null, file);
      } finally {
        file.close();
      }
    }, signal);
  }

  /** {@inheritDoc FsProvider.writeText} */
  writeText(
    target: FsTarget,
    content: string,
    options: FsMutationOptions = {},
  ): Promise<FsWriteOutcome> {
    const { signal, precondition = { kind: "none" } } = options;
    const bytes = encoder.encode(content);
    return guard(() =>
      this.#locks.run(target.realPath, async () => {
        signal?.throwIfAborted();
        const dir = await this.#ensureParent(target, signal);
        try {
          const name = basename(target.realPath);
          const path = `${dir.at}/${name}`;
          const info = await statOrNull(path);
          if (info && !info.isFile) throw new FsError("FS_NOT_REGULAR_FILE");
          let before: Uint8Array | null = null;
          let keep: Deno.FileInfo | null = null;
          let held: Deno.FsFile | null = null;
          if (info) {
            if (precondition.kind === "absent") throw new FsError("FS_EXISTS");
            const current = await this.#readCurrent(path, precondition, signal);
            before = current.bytes;
            keep = current.info;
            held = current.held;
          } else if (precondition.kind === "version") {
            throw new FsError("FS_STALE");
          }
          try {
            const createOnly = !info && precondition.kind === "absent";
            const version = await this.#replace(dir, name, bytes, { keep, createOnly, signal });
            return { operation: info ? "update" : "create", before, version };
          } finally {
            if (held) closeQuietly(held);
          }
        } finally {
          dir.close();
        }
      }, signal), signal);
  }

  /** {@inheritDoc FsProvider.editText} */
  editText(
    target: FsTarget,
    edit: FsEditFunction,
    options: FsMutationOptions = {},
  ): Promise<FsEditOutcome> {
    const { signal, precondition = { kind: "none" } } = options;
    return guard(() =>
      this.#locks.run(target.realPath, async () => {
        signal?.throwIfAborted();
        const info = await statOrNull(target.realPath);
        if (!info) throw new FsError("FS_NOT_FOUND");
        if (!info.isFile) throw new FsError("FS_NOT_REGULAR_FILE");
        const dir = await this.#pin(dirname(target.realPath), true);
        try {
          const name = basename(target.realPath);
          const current = await this.#readCurrent(`${dir.at}/${name}`, precondition, signal);
          try {
            const after = edit(current.bytes);
            const pieces = editPieces(after);
            const version = await this.#replace(dir, name, pieces, {
              keep: current.info,
              createOnly: false,
              signal,
            });
            return editOutcome(current.bytes, after, pieces, version);
          } finally {
            closeQuietly(current.held);
          }
        } finally {
          dir.close();
        }
      }, signal), signal);
  }

  // --- internals -------------------------------------------------------------------------

  /** The real path of `path`: links followed; for a missing path, its nearest existing ancestor's. */
  async #realTarget(path: string, signal?: AbortSignal, hops = 0): Promise<string> {
    signal?.throwIfAborted();
    // C7.3: a path Deno was not granted is never touched (a terminal would get a permission
    // prompt, a headless run a PermissionDenied). Paths inside a root are granted (checked at
    // construction), so such a path is outside: its lexical form fails the containment check.
    if (!readGranted(path)) return path;
    try {
      return await Deno.realPath(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) {
        throw error;
      }
    }
    const link = await lstatOrNull(path);
    if (link?.isSymlink) {
      // A dangling link: follow it by hand so its target, not the link, is checked.
      if (hops >= MAX_LINK_HOPS) {
        throw new FsError("FS_IO_ERROR", { detail: "too many levels of symbolic links" });
      }
      const to = await Deno.readLink(path);
      const next = isAbsolute(to) ? resolvePath(to) : resolvePath(dirname(path), to);
      return this.#realTarget(next, signal, hops + 1);
    }
    const parent = dirname(path);
    if (parent === path) return path;
    const realParent = await this.#realTarget(parent, signal, hops);
    return realParent === "/" ? "/" + basename(path) : `${realParent}/${basename(path)}`;
  }

  /**
   * Whether `path` still resolves to itself, inside a root (a writable one when `write`), with
   * the identity of `info`. Path-based, so each system call can be raced by a concurrent swap of
   * a parent for a symlink; the check is repeated, back to back (synchronous calls, a few
   * microseconds), so that a racing swap must win every round. Used only where the kernel's path
   * of a descriptor is unavailable (see `_fd_paths.ts` and the README's "Security and reliability").
   */
  #stillInside(path: string, info: FileId, write = false): boolean {
    for (let round = 0; round < 3; round++) {
      const real = realPathOrNull(path);
      const root = real === path ? findRoot(this.roots, real) : undefined;
      if (!root || (write && !root.writable)) return false;
      const now = statSyncOrNull(path);
      if (now === null || now.dev !== info.dev || now.ino !== info.ino) return false;
    }
    return true;
  }

  /** Whether a descriptor's location lies inside a root (a writable one when `write`). */
  #locatedInside(where: OpenLocation | null, write: boolean): boolean {
    const root = where?.path == null ? undefined : findRoot(this.roots, where.path);
    return root !== undefined && (!write || root.writable);
  }

  /**
   * Whether the file `info`, just opened at `path`, is the file at `path` and lies inside a
   * root. Judged on the kernel's path of the open descriptor where the runtime allows it (a
   * swap cannot fool that), else by {@linkcode #stillInside}.
   */
  #isInside(path: string, info: FileId, write = false): boolean {
    if (!fdPathsAvailable()) return this.#stillInside(path, info, write);
    if (!this.#locatedInside(openLocation(info), write)) return false;
    const now = statSyncOrNull(path);
    return now !== null && now.dev === info.dev && now.ino === info.ino;
  }

  /**
   * Opens the directory `dir` and checks it lies inside a root: a {@linkcode WorkDir} whose
   * `at` names the open directory itself (`/proc/self/fd/<n>`), so names joined to it resolve
   * inside that directory whatever its path turns into. Without /proc/self/fd (or on a file
   * system where the descriptor cannot be told apart, see `pinnedLocation`), `at` is `dir` and
   * the callers check each step by path.
   */
  async #pin(dir: string, write: boolean): Promise<WorkDir> {
    const unpinned = { at: dir, pinned: false, close() {} };
    if (!fdPathsAvailable()) return unpinned;
    const file = await Deno.open(dir, { read: true });
    try {
      const info = await file.stat();
      if (!info.isDirectory) throw new FsError("FS_NOT_DIRECTORY");
      const where = pinnedLocation(file, info);
      if (where === null) {
        // Not markable here: judge the directory by any descriptor of it, then work by path.
        const any = openLocation(info);
        if (!this.#locatedInside(any, false)) throw new FsError("FS_OUTSIDE_ROOT");
        closeQuietly(file);
        return unpinned;
      }
      if (!this.#locatedInside(where, false)) throw new FsError("FS_OUTSIDE_ROOT");
      if (!this.#locatedInside(where, write)) throw new FsError("FS_READ_ONLY");
      return { at: where.handle, pinned: true, close: () => closeQuietly(file) };
    } catch (error) {
      closeQuietly(file);
      throw error;
    }
  }

  /**
   * Opens a regular file for reading and verifies that the open file is the one at `path`,
   * inside a root (no parent was swapped for a link between the check and the open).
   */
  async #openVerified(path: string, signal?: AbortSignal, write = false): Promise<Deno.FsFile> {
    for (let attempt = 0;; attempt++) {
      signal?.throwIfAborted();
      const info = await Deno.stat(path);
      if (!info.isFile) throw new FsError("FS_NOT_REGULAR_FILE"); // never open a FIFO
      const file = await Deno.open(path, { read: true });
      try {
        const opened = await file.stat();
        if (opened.isFile && this.#isInside(path, opened, write)) return file;
      } catch (error) {
        file.close();
        throw error;
      }
      file.close();
      // A concurrent writer replacing the file also fails the check: try again, a few times.
      if (attempt >= 9) {
        const real = await Deno.realPath(path).catch(() => path);
        if (!findRoot(this.roots, real)) throw new FsError("FS_OUTSIDE_ROOT");
        throw new FsError("FS_IO_ERROR", { detail: "the file was replaced while being opened" });
      }
    }
  }

  /**
   * Opens the current file at `path`, takes an exclusive advisory lock on it (serializing
   * toolfs processes too), reads it and checks the precondition against its version. The caller
   * keeps the file open, and so locked, until its replacement is committed.
   */
  async #readCurrent(
    path: string,
    precondition: FsPrecondition,
    signal?: AbortSignal,
  ): Promise<{ bytes: Uint8Array; info: Deno.FileInfo; held: Deno.FsFile }> {
    for (let attempt = 0;; attempt++) {
      const file = await this.#openVerified(path, signal, true);
      try {
        await lockAbortably(file, signal);
        const info = await file.stat();
        // Another process may have replaced the file while we waited for the lock: lock the
        // new one. (Busy writers can win this race a few times in a row; give up only after
        // many rounds.)
        if (!(this.#isInside(path, info, true))) {
          if (attempt >= 100) throw new FsError("FS_STALE");
          file.close();
          continue;
        }
        const bytes = await readAll(file, info.size, signal);
        if (precondition.kind === "version") {
          const version = await this.#version(info, bytes, file);
          if (version !== precondition.version) throw new FsError("FS_STALE");
        }
        return { bytes, info, held: file };
      } catch (error) {
        closeQuietly(file);
        throw error;
      }
    }
  }

  /**
   * Creates the missing parent directories of a target one level at a time, each inside the
   * one before (pinned where the runtime allows, else checked by path), and returns the parent.
   */
  async #ensureParent(target: FsTarget, signal?: AbortSignal): Promise<WorkDir> {
    const parent = dirname(target.realPath);
    const info = await statOrNull(parent);
    if (info && !info.isDirectory) throw new FsError("FS_NOT_DIRECTORY");
    if (info) return await this.#pin(parent, true);
    const missing: string[] = [];
    let dir = parent;
    for (; !(await statOrNull(dir)); dir = dirname(dir)) missing.unshift(basename(dir));
    let work = await this.#pin(dir, true);
    try {
      for (const name of missing) {
        signal?.throwIfAborted();
        const next = `${work.at}/${name}`;
        const started = Date.now();
        let created = false;
        try {
          await Deno.mkdir(next);
          created = true;
        } catch (error) {
          if (error instanceof Deno.errors.NotADirectory) throw new FsError("FS_NOT_DIRECTORY");
          if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
        }
        if (work.pinned) {
          const child = await this.#pin(next, true);
          work.close();
          work = child;
        } else {
          await this.#checkMadeDir(next, created, started);
          work = { at: next, pinned: false, close() {} };
        }
      }
      return work;
    } catch (error) {
      work.close();
      throw error;
    }
  }

  /**
   * Checks by path that the directory just made (or found) at `dir` is the one it names, inside
   * a writable root. When it is not (a parent was swapped for a link, so this call may have made
   * the directory outside), removes what this call made, if it can find it.
   */
  async #checkMadeDir(dir: string, created: boolean, started: number): Promise<void> {
    const real = await Deno.realPath(dir).catch(() => null);
    const root = real === dir ? findRoot(this.roots, real) : undefined;
    if (root?.writable) {
      const made = await Deno.stat(real!);
      if (!made.isDirectory) throw new FsError("FS_NOT_DIRECTORY");
      return;
    }
    if (created) this.#removeStrayDir(dir, started);
    throw new FsError(real === null ? "FS_NOT_DIRECTORY" : "FS_OUTSIDE_ROOT");
  }

  /**
   * Looks a few times for a directory this call made at `dir` and that resolves outside every
   * root, and removes it: only an empty one made since `started`, never one that was there
   * before. Path-based, so best effort (the README's "Security and reliability").
   */
  #removeStrayDir(dir: string, started: number): void {
    huntAndRemove(dir, (real, made) => {
      const born = made.birthtime?.getTime() ?? made.ctime?.getTime() ?? -Infinity;
      return !findRoot(this.roots, real) && made.isDirectory && born >= started - 1000;
    });
  }

  /**
   * Writes `bytes` (one buffer, or slices in order) to a temporary file beside `name` in `dir`,
   * flushes it, then renames it over the target (or links it, for create-only). The temporary
   * file never outlives the call, and is never written to before it is known to lie inside a
   * root. C4.3a: it is created owner-only under a short name; its final mode (and owner and
   * group of `keep`, the file it replaces, when the process may) is set through the open
   * descriptor, never by path; before the rename its name must still be the file written.
   */
  async #replace(
    dir: WorkDir,
    name: string,
    bytes: Uint8Array | readonly Uint8Array[],
    options: { keep: Deno.FileInfo | null; createOnly: boolean; signal?: AbortSignal },
  ): Promise<string> {
    const { keep, createOnly, signal } = options;
    await this.#sweepStale(dir);
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
        if (!(this.#isInside(tmp, opened, true))) {
          created = false;
          await this.#removeStray(tmp, opened); // made outside through a swapped parent
          throw new FsError("FS_OUTSIDE_ROOT");
        }
        made = opened;
        for (const piece of bytes instanceof Uint8Array ? [bytes] : bytes) {
          await writeAll(file, piece, signal);
        }
        await setOwnerAndMode(file, keep, opened);
        await file.datasync();
        version = await this.#version(fileInfoOf(await file.stat()), bytes, null);
      } finally {
        await file.close();
      }
      signal?.throwIfAborted(); // the last moment to give up: after the rename it is done
      // The name must still be the file written: a link or another file renamed over it would
      // otherwise be committed in its place.
      const now = await lstatOrNull(tmp);
      if (!sameFile(now, made)) {
        throw new FsError("FS_IO_ERROR", { detail: "the temporary file was replaced" });
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
      if (!dir.pinned) this.#checkLanded(target, made);
      return version;
    } finally {
      if (!committed && made) await this.#removeTemp(tmp, made, dir.pinned);
      // Created but never identified (its stat failed): the random name is this call's alone.
      else if (!committed && created) await Deno.remove(tmp).catch(() => {});
    }
  }

  /**
   * C4.3a: removes the temporary files (`.toolfs-*.tmp`, and 0.1.0's `.<name>.toolfs-*.tmp`)
   * that killed processes left in `dir`, once they are more than an hour old. Regular files
   * only, removed only while still the file judged stale. At most once a minute per directory
   * and instance, so a busy directory is not listed on every write.
   */
  async #sweepStale(dir: WorkDir): Promise<void> {
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
        await removeIfSame(path, info).catch(() => false);
      }
    } catch {
      // best effort: a sweep never fails a write
    }
  }

  /**
   * Path checks only: the committed file must have landed inside a root. `rename` looks up the
   * source and the destination directories separately, so a parent swapped for a link between
   * the two lookups moves the file outside. Seen inside (its inode can be in one place only): done.
   * Found outside: removed there, and the call fails as an escape. Never removes anything inside.
   */
  #checkLanded(target: string, info: FileId): void {
    const ours = (now: Deno.FileInfo | null) =>
      now !== null && now.dev === info.dev && now.ino === info.ino;
    for (let round = 0; round < 3; round++) {
      const real = realPathOrNull(target);
      if (real !== null && findRoot(this.roots, real) && ours(lstatSyncOrNull(real))) return;
    }
    const outside = (real: string, now: Deno.FileInfo) => ours(now) && !findRoot(this.roots, real);
    if (huntAndRemove(target, outside)) throw new FsError("FS_OUTSIDE_ROOT");
  }

  /** Removes the temporary file `info` at `tmp`; by path, it may take a few tries under a race. */
  async #removeTemp(tmp: string, info: FileId, pinned: boolean): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await removeIfSame(tmp, info).catch(() => false)) return;
    }
    if (!pinned) huntAndRemove(tmp, (_, now) => now.dev === info.dev && now.ino === info.ino);
  }

  /**
   * Removes a temporary file that was created outside every root (a parent was swapped for a
   * link between the check and the create). With /proc/self/fd the kernel says exactly where it
   * is; otherwise the path is followed again a few times, in case the swap is undone.
   */
  async #removeStray(tmp: string, info: FileId): Promise<void> {
    if (fdPathsAvailable()) {
      const path = openLocation(info)?.path;
      if (path) await removeIfSame(path, info).catch(() => false);
      return;
    }
    huntAndRemove(tmp, (_, now) => now.dev === info.dev && now.ino === info.ino);
  }

  /** The C5.7 version: identity, size, mtime and a digest of the content. */
  async #version(
    info: Deno.FileInfo,
    bytes: Uint8Array | readonly Uint8Array[] | null,
    file: Deno.FsFile | null,
  ): Promise<string> {
    return (await this.#digest(info, bytes, file)).version;
  }

  /**
   * The C5.7 version, and the file's first bytes when they had to be read for it (the whole
   * file up to `fullDigestMaxSize`, else its first 256 KiB), so a streamed read can start from
   * them without reading them again. `bytes`, when known, may be slices of the content in
   * order: the digest is the same as of the joined bytes.
   */
  async #digest(
    info: Deno.FileInfo,
    bytes: Uint8Array | readonly Uint8Array[] | null,
    file: Deno.FsFile | null,
  ): Promise<{ version: string; head: Uint8Array | null }> {
    if (!bytes && !file) throw new TypeError("a version needs the bytes or the file");
    const hash = createHash("sha256"); // synchronous and native: no hop to a worker thread
    let head: Uint8Array | null = null;
    const pieces = bytes instanceof Uint8Array ? [bytes] : bytes;
    const length = pieces?.reduce((sum, piece) => sum + piece.length, 0) ?? 0;
    if (pieces && length <= this.#fullDigestMaxSize) hashRange(hash, pieces, 0, length);
    else if (info.size <= this.#fullDigestMaxSize) {
      head = await readRange(file!, 0, info.size);
      hash.update(head);
    } else if (pieces) {
      // As `subarray` would take them from one buffer (a negative start counts from the end).
      const tail = length - EDGE >= 0 ? length - EDGE : Math.max(2 * length - EDGE, 0);
      hashRange(hash, pieces, 0, Math.min(EDGE, length));
      hashRange(hash, pieces, tail, length);
    } else {
      // Head and tail read straight into one buffer; the head is hashed while the tail is read.
      const edges = new Uint8Array(2 * EDGE);
      head = await readRange(file!, 0, EDGE, edges.subarray(0, EDGE));
      const tail = readRange(file!, info.size - EDGE, EDGE, edges.subarray(EDGE));
      hash.update(head).update(await tail);
    }
    return { version: `${identityKey(info)}:${hash.digest("hex").slice(0, 24)}`, head };
  }
}

// --- helpers -------------------------------------------------------------------------------

function checkRoot(spec: RootSpec): FsRootInfo {
  const given = typeof spec === "string" ? spec : spec?.path;
  if (typeof given !== "string" || given === "" || given.includes("\0")) {
    throw new TypeError(`root must be a non-empty path string: got ${JSON.stringify(spec)}`);
  }
  const writable = typeof spec === "string" ? true : spec.write !== false;
  const absolute = resolvePath(given);
  for (const name of writable ? ["read", "write"] as const : ["read"] as const) {
    const state = Deno.permissions.querySync({ name, path: absolute }).state;
    if (state !== "granted") {
      throw new Error(
        `root "${given}" needs ${name} permission: run Deno with --allow-${name}=${absolute}`,
      );
    }
  }
  let real: string;
  try {
    real = Deno.realPathSync(absolute);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(`root "${given}" does not exist: create it or pass another directory`);
    }
    throw new Error(`root "${given}" cannot be resolved: ${osMessage(error)}`);
  }
  if (!Deno.statSync(real).isDirectory) {
    throw new Error(`root "${given}" is not a directory: ${real}`);
  }
  return Object.freeze({ path: real, writable });
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

function sameFile(now: FileId | null, made: FileId): boolean {
  return now !== null && now.dev === made.dev && now.ino === made.ino;
}

/** Whether Deno grants reading `path`, asked without prompting (C7.3). */
function readGranted(path: string): boolean {
  return Deno.permissions.querySync({ name: "read", path }).state === "granted";
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
 * and group) of the file it replaces, through its descriptor; a new file gets what `open`
 * would have given it. Set-user-ID and set-group-ID bits whose owner or group could not be
 * kept are dropped. `chown` goes first: the kernel clears set-ID bits on it.
 */
async function setOwnerAndMode(
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

/**
 * Takes an exclusive advisory lock on `file`, waiting for other holders (other processes
 * included) as long as it takes, yet giving up within {@linkcode LOCK_POLL_MAX_MS} of an abort
 * (C7.2). Polls `tryLock`, so a blocked `flock` never pins a thread the abort cannot reach.
 */
async function lockAbortably(file: Deno.FsFile, signal?: AbortSignal): Promise<void> {
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

function typeOf(info: Deno.FileInfo): FsStat["type"] {
  return info.isFile ? "file" : info.isDirectory ? "directory" : "other";
}

function identityKey(info: Deno.FileInfo): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtime?.getTime() ?? "?"}`;
}

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    throw error;
  }
}

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    throw error;
  }
}

/**
 * The file's first `size` bytes (its size when it was opened): never more, so a file another
 * process keeps growing cannot make the read hold more than it had (C7.4). Fewer when it shrank.
 */
async function readAll(
  file: Deno.FsFile,
  size: number,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const buffer = new Uint8Array(Math.max(size, 0));
  let length = 0;
  while (length < buffer.length) {
    signal?.throwIfAborted();
    const n = await file.read(buffer.subarray(length));
    if (n === null) break;
    length += n;
  }
  return buffer.subarray(0, length);
}

async function readRange(
  file: Deno.FsFile,
  position: number,
  length: number,
  out: Uint8Array = new Uint8Array(length),
): Promise<Uint8Array> {
  file.seekSync(position, Deno.SeekMode.Start); // lseek does no I/O: no need for a thread hop
  let filled = 0;
  while (filled < length) {
    const n = await file.read(out.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return out.subarray(0, filled);
}

/** The first read of a chunk stream; each next read is four times larger, up to the chunk size. */
const FIRST_CHUNK = 64 * 1024;

/**
 * The file's bytes from `position` on, alternating between two reused buffers: the read of the
 * next chunk is in flight while the caller works on the current one (the caller is done with a
 * chunk when it asks for the next), so disk and scan overlap. Reads start small and grow, so a
 * window near `position` costs a few pages, not two full chunks. Bytes already in `head` (the
 * file's first bytes, read for its version) are served from it.
 */
async function* chunksOf(
  file: Deno.FsFile,
  buffers: readonly Uint8Array[],
  position: number,
  signal?: AbortSignal,
  head?: Uint8Array | null,
): AsyncGenerator<Uint8Array> {
  const chunkSize = buffers[0].length;
  let size = Math.min(FIRST_CHUNK, chunkSize);
  if (head && position < head.length) {
    for (; position < head.length; position += chunkSize) {
      signal?.throwIfAborted();
      yield head.subarray(position, position + chunkSize);
    }
    position = head.length;
    size = chunkSize;
  }
  file.seekSync(position, Deno.SeekMode.Start); // lseek does no I/O: no need for a thread hop
  let current = 0;
  let ahead: Promise<number | null> | null = file.read(buffers[current].subarray(0, size));
  try {
    for (;;) {
      signal?.throwIfAborted();
      const n = await ahead;
      ahead = null;
      if (n === null) return;
      const chunk = buffers[current].subarray(0, n);
      current ^= 1;
      size = Math.min(size * 4, buffers[0].length);
      ahead = file.read(buffers[current].subarray(0, size));
      yield chunk;
    }
  } finally {
    // Never leave a read in flight into a buffer the next call will reuse.
    if (ahead) await ahead.catch(() => null);
  }
}

/** The slices an edit function returned, checked: one buffer, or an array of buffers. */
function editPieces(after: Uint8Array | readonly Uint8Array[]): readonly Uint8Array[] {
  if (after instanceof Uint8Array) return [after];
  if (Array.isArray(after) && after.every((piece) => piece instanceof Uint8Array)) {
    return Object.freeze([...after]);
  }
  throw new TypeError("an edit function must return a Uint8Array or an array of Uint8Arrays");
}

/** An edit's outcome; slices are joined into `after` only when it is first read. */
function editOutcome(
  before: Uint8Array,
  after: Uint8Array | readonly Uint8Array[],
  pieces: readonly Uint8Array[],
  version: string,
): FsEditOutcome {
  if (after instanceof Uint8Array) return { before, after, version };
  let joined: Uint8Array | undefined;
  const join = () => {
    if (joined) return joined;
    joined = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
    let at = 0;
    for (const piece of pieces) {
      joined.set(piece, at);
      at += piece.length;
    }
    return joined;
  };
  return Object.defineProperty({ before, version }, "after", {
    get: join,
    enumerable: true,
  }) as FsEditOutcome;
}

/** Feeds bytes `start` to `end` of the content `pieces` (in order) to `hash`. */
function hashRange(
  hash: ReturnType<typeof createHash>,
  pieces: readonly Uint8Array[],
  start: number,
  end: number,
): void {
  let at = 0; // where the current piece starts in the content
  for (const piece of pieces) {
    const from = Math.max(start - at, 0);
    const to = Math.min(end - at, piece.length);
    if (from < to) hash.update(piece.subarray(from, to));
    at += piece.length;
    if (at >= end) break;
  }
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

/** Removes `path` when it is still the file `info` (never a file that replaced it). */
async function removeIfSame(path: string, info: FileId): Promise<boolean> {
  const now = await lstatOrNull(path).catch(() => null);
  if (!now || now.dev !== info.dev || now.ino !== info.ino) return false;
  await Deno.remove(path);
  return true;
}

function realPathOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

function statSyncOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

/**
 * Finds and removes an entry this call made at `path` while a parent of `path` may be swapped
 * for a link (path-based checks only): resolves `path` again and again, back to back, for up
 * to `budgetMs`, and removes what it resolves to once `mine` recognizes it. Best effort: a swap
 * that is not undone within the budget hides the entry (the README's "Security and reliability").
 */
function huntAndRemove(
  path: string,
  mine: (real: string, info: Deno.FileInfo) => boolean,
  budgetMs = 5,
): boolean {
  const until = performance.now() + budgetMs;
  do {
    const real = realPathOrNull(path);
    const info = real === null ? null : lstatSyncOrNull(real);
    if (real !== null && info !== null && mine(real, info)) {
      try {
        Deno.removeSync(real); // `real` itself may resolve elsewhere by now: then try again
        return true;
      } catch {
        // keep looking
      }
    }
  } while (performance.now() < until);
  return false;
}

function lstatSyncOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

function closeQuietly(file: Deno.FsFile): void {
  try {
    file.close();
  } catch {
    // already closed
  }
}

function osMessage(error: unknown): string {
  let text: string;
  try {
    text = String(error instanceof Error ? error.message : error);
  } catch {
    text = "unknown error"; // an object that cannot be made a string
  }
  // Deno appends ": <syscall> '<path>'"; the path is the tool's to show, not the OS's.
  return text.replace(/(\(os error \d+\)).*$/s, "$1");
}

/** Deno's error classes by the `code` of a `node:fs` error (the temporary file's calls). */
const NODE_CODES: Record<string, new (message: string) => Error> = {
  ENOENT: Deno.errors.NotFound,
  ENOTDIR: Deno.errors.NotADirectory,
  EACCES: Deno.errors.PermissionDenied,
  EPERM: Deno.errors.PermissionDenied,
  EISDIR: Deno.errors.IsADirectory,
  EEXIST: Deno.errors.AlreadyExists,
};

/**
 * A `node:fs` error (`EACCES: permission denied, open '<path>'`) as the Deno error it stands
 * for, with Deno's message form (`Permission denied (os error 13)`) and no path; anything else
 * unchanged.
 */
function fromNodeError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof Deno.errors.NotCapable) return error;
  const { code, errno } = error as Error & { code?: unknown; errno?: unknown };
  if (typeof code !== "string" || typeof errno !== "number" || !/^E[A-Z]+$/.test(code)) {
    return error;
  }
  const described = /^E[A-Z]+: ([^,]*)/.exec(error.message)?.[1] ?? code;
  const message = `${described.charAt(0).toUpperCase()}${described.slice(1)} (os error ${
    Math.abs(errno)
  })`;
  const Class = NODE_CODES[code] ?? Error;
  return new Class(message);
}

/** Runs `task`, turning every failure into an `FsError` with a contract code. */
async function guard<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    signal?.throwIfAborted();
    return await task();
  } catch (error) {
    throw toFsError(error, signal);
  }
}

/**
 * Maps a thrown value to an `FsError`: aborts, Deno's error classes, anything else as I/O.
 *
 * @param error What was thrown.
 * @param signal The call's signal, to recognize an abort.
 * @returns The equivalent `FsError`.
 */
export function toFsError(error: unknown, signal?: AbortSignal): FsError {
  if (error instanceof FsError) return error;
  error = fromNodeError(error);
  if (signal?.aborted || (error instanceof DOMException && error.name === "AbortError")) {
    return new FsError("FS_ABORTED", { cause: error });
  }
  if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
    return new FsError("FS_NOT_FOUND", { cause: error });
  }
  if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
    return new FsError("FS_PERMISSION_DENIED", { cause: error });
  }
  if (error instanceof Deno.errors.IsADirectory) {
    return new FsError("FS_NOT_REGULAR_FILE", { cause: error });
  }
  return new FsError("FS_IO_ERROR", { detail: osMessage(error), cause: error });
}
