/**
 * The Deno file system behind the tools: roots resolved once, containment on real paths,
 * identity checked after every open, atomic replacement, per-file serialization.
 *
 * @module
 */

import { createHash } from "node:crypto";
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
  FsSearchReadOptions,
  FsStat,
  FsTarget,
  FsWriteOutcome,
} from "./fs_provider.ts";
import { KeyedLock } from "./_lock.ts";
import { readDirEntries } from "./_read_dir.ts";
import { fdPathsAvailable, type OpenLocation, openLocation, pinnedLocation } from "./_fd_paths.ts";
import { findRoot } from "./roots.ts";
import { searchChunks, searchListDir } from "./local/search.ts";

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

const EDGE = 256 * 1024;
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

  /** {@inheritDoc FsProvider.searchListDir} */
  searchListDir(target: FsTarget, options: FsCallOptions = {}): Promise<FsDirEntry[]> {
    return guard(() => Promise.resolve(searchListDir(this.roots, target)), options.signal);
  }

  /** {@inheritDoc FsProvider.searchChunks} */
  searchChunks(target: FsTarget, options: FsSearchReadOptions = {}): Promise<Iterable<Uint8Array>> {
    return guard(() => Promise.resolve(searchChunks(this.roots, target, options)), options.signal);
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
          let mode: number | null = null;
          let held: Deno.FsFile | null = null;
          if (info) {
            if (precondition.kind === "absent") throw new FsError("FS_EXISTS");
            const current = await this.#readCurrent(path, precondition, signal);
            before = current.bytes;
            mode = current.mode;
            held = current.held;
          } else if (precondition.kind === "version") {
            throw new FsError("FS_STALE");
          }
          try {
            const createOnly = !info && precondition.kind === "absent";
            const version = await this.#replace(dir, name, bytes, { mode, createOnly, signal });
            return { operation: info ? "update" : "create", before, version };
          } finally {
            if (held) closeQuietly(held);
          }
        } finally {
          dir.close();
        }
      }), signal);
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
              mode: current.mode,
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
      }), signal);
  }

  // --- internals -------------------------------------------------------------------------

  /** The real path of `path`: links followed; for a missing path, its nearest existing ancestor's. */
  async #realTarget(path: string, signal?: AbortSignal, hops = 0): Promise<string> {
    signal?.throwIfAborted();
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
  #stillInside(path: string, info: Deno.FileInfo, write = false): boolean {
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
  #isInside(path: string, info: Deno.FileInfo, write = false): boolean {
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
  ): Promise<{ bytes: Uint8Array; mode: number | null; held: Deno.FsFile }> {
    for (let attempt = 0;; attempt++) {
      const file = await this.#openVerified(path, signal, true);
      try {
        await file.lock(true);
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
        return { bytes, mode: info.mode === null ? null : info.mode & 0o7777, held: file };
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
   * root.
   */
  async #replace(
    dir: WorkDir,
    name: string,
    bytes: Uint8Array | readonly Uint8Array[],
    options: { mode: number | null; createOnly: boolean; signal?: AbortSignal },
  ): Promise<string> {
    const { mode, createOnly, signal } = options;
    const target = `${dir.at}/${name}`;
    const tmp = `${dir.at}/.${name}.toolfs-${crypto.randomUUID().slice(0, 8)}.tmp`;
    let created = false; // the temporary file exists: this call must remove it unless committed
    let made: Deno.FileInfo | null = null; // its identity, once known
    let committed = false;
    try {
      signal?.throwIfAborted();
      const file = await Deno.open(tmp, { write: true, createNew: true });
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
        if (mode !== null) await Deno.chmod(tmp, mode);
        await file.syncData();
        version = await this.#version(await file.stat(), bytes, file);
      } finally {
        file.close();
      }
      signal?.throwIfAborted(); // the last moment to give up: after the rename it is done
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
   * Path checks only: the committed file must have landed inside a root. `rename` looks up the
   * source and the destination directories separately, so a parent swapped for a link between
   * the two lookups moves the file outside. Seen inside (its inode can be in one place only): done.
   * Found outside: removed there, and the call fails as an escape. Never removes anything inside.
   */
  #checkLanded(target: string, info: Deno.FileInfo): void {
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
  async #removeTemp(tmp: string, info: Deno.FileInfo, pinned: boolean): Promise<void> {
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
  async #removeStray(tmp: string, info: Deno.FileInfo): Promise<void> {
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
    file: Deno.FsFile,
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
    file: Deno.FsFile,
  ): Promise<{ version: string; head: Uint8Array | null }> {
    const hash = createHash("sha256"); // synchronous and native: no hop to a worker thread
    let head: Uint8Array | null = null;
    const pieces = bytes instanceof Uint8Array ? [bytes] : bytes;
    const length = pieces?.reduce((sum, piece) => sum + piece.length, 0) ?? 0;
    if (pieces && length <= this.#fullDigestMaxSize) hashRange(hash, pieces, 0, length);
    else if (info.size <= this.#fullDigestMaxSize) {
      head = await readRange(file, 0, info.size);
      hash.update(head);
    } else if (pieces) {
      // As `subarray` would take them from one buffer (a negative start counts from the end).
      const tail = length - EDGE >= 0 ? length - EDGE : Math.max(2 * length - EDGE, 0);
      hashRange(hash, pieces, 0, Math.min(EDGE, length));
      hashRange(hash, pieces, tail, length);
    } else {
      // Head and tail read straight into one buffer; the head is hashed while the tail is read.
      const edges = new Uint8Array(2 * EDGE);
      head = await readRange(file, 0, EDGE, edges.subarray(0, EDGE));
      const tail = readRange(file, info.size - EDGE, EDGE, edges.subarray(EDGE));
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

async function readAll(
  file: Deno.FsFile,
  sizeHint: number,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  let buffer = new Uint8Array(Math.max(sizeHint, 0) + 1);
  let length = 0;
  for (;;) {
    signal?.throwIfAborted();
    if (length === buffer.length) {
      const grown = new Uint8Array(buffer.length * 2);
      grown.set(buffer);
      buffer = grown;
    }
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

async function writeAll(file: Deno.FsFile, bytes: Uint8Array, signal?: AbortSignal): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    signal?.throwIfAborted();
    written += await file.write(bytes.subarray(written, written + (1 << 24)));
  }
}

/** Removes `path` when it is still the file `info` (never a file that replaced it). */
async function removeIfSame(path: string, info: Deno.FileInfo): Promise<boolean> {
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
