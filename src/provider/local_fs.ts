/**
 * The Deno file system behind the tools: roots resolved once, containment on real paths,
 * identity checked after every open, atomic replacement, per-file serialization.
 *
 * @module
 */

import { basename, dirname, isAbsolute, resolve as resolvePath } from "node:path";
import { FsError } from "../fs_error.ts";
import type { FsDirEntry, FsEntryType } from "../render/list_render.ts";
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
        const entries: FsDirEntry[] = [];
        for await (const entry of Deno.readDir(target.realPath)) {
          const type: FsEntryType = entry.isDirectory
            ? "directory"
            : entry.isFile
            ? "file"
            : "other";
          entries.push({ name: entry.name, type });
        }
        // The directory listed must be the one checked: same identity, still at a real path
        // inside the root (a parent swapped for a link meanwhile shows up here).
        if (await this.#stillInside(target.realPath, before)) return entries;
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
        const version = await this.#version(info, null, file);
        const buffer = new Uint8Array(this.#chunkSize);
        return {
          version,
          cacheKey: identityKey(info),
          size: info.size,
          chunks: (position: number) => chunksOf(file, buffer, position, signal),
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
        await this.#ensureParent(target, signal);
        const info = await statOrNull(target.realPath);
        if (info && !info.isFile) throw new FsError("FS_NOT_REGULAR_FILE");
        let before: Uint8Array | null = null;
        let mode: number | null = null;
        let held: Deno.FsFile | null = null;
        if (info) {
          if (precondition.kind === "absent") throw new FsError("FS_EXISTS");
          const current = await this.#readCurrent(target.realPath, precondition, signal);
          before = current.bytes;
          mode = current.mode;
          held = current.held;
        } else if (precondition.kind === "version") {
          throw new FsError("FS_STALE");
        }
        try {
          const createOnly = !info && precondition.kind === "absent";
          const version = await this.#replace(target.realPath, bytes, { mode, createOnly, signal });
          return { operation: info ? "update" : "create", before, version };
        } finally {
          if (held) closeQuietly(held);
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
        const current = await this.#readCurrent(target.realPath, precondition, signal);
        try {
          const after = edit(current.bytes);
          const version = await this.#replace(target.realPath, after, {
            mode: current.mode,
            createOnly: false,
            signal,
          });
          return { before: current.bytes, after, version };
        } finally {
          closeQuietly(current.held);
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

  /** Whether `path` still resolves to itself, inside a root, with the identity of `info`. */
  async #stillInside(path: string, info: Deno.FileInfo): Promise<boolean> {
    const real = await Deno.realPath(path).catch(() => null);
    if (real !== path || !findRoot(this.roots, real)) return false;
    const now = await Deno.stat(real).catch(() => null);
    return now !== null && now.dev === info.dev && now.ino === info.ino;
  }

  /**
   * Opens a regular file for reading and verifies that the open file is the one at the checked
   * real path (no parent was swapped for a link between the check and the open).
   */
  async #openVerified(realPath: string, signal?: AbortSignal): Promise<Deno.FsFile> {
    for (let attempt = 0;; attempt++) {
      signal?.throwIfAborted();
      const info = await Deno.stat(realPath);
      if (!info.isFile) throw new FsError("FS_NOT_REGULAR_FILE"); // never open a FIFO
      const file = await Deno.open(realPath, { read: true });
      try {
        const opened = await file.stat();
        if (opened.isFile && await this.#stillInside(realPath, opened)) return file;
      } catch (error) {
        file.close();
        throw error;
      }
      file.close();
      if (attempt >= 2) {
        const real = await Deno.realPath(realPath).catch(() => realPath);
        if (!findRoot(this.roots, real)) throw new FsError("FS_OUTSIDE_ROOT");
        throw new FsError("FS_IO_ERROR", { detail: "the file was replaced while being opened" });
      }
    }
  }

  /**
   * Opens the current file, takes an exclusive advisory lock on it (serializing toolfs
   * processes too), reads it and checks the precondition against its version. The caller keeps
   * the file open, and so locked, until its replacement is committed.
   */
  async #readCurrent(
    realPath: string,
    precondition: FsPrecondition,
    signal?: AbortSignal,
  ): Promise<{ bytes: Uint8Array; mode: number | null; held: Deno.FsFile }> {
    for (let attempt = 0;; attempt++) {
      const file = await this.#openVerified(realPath, signal);
      try {
        await file.lock(true);
        const info = await file.stat();
        // Another process may have replaced the file while we waited for the lock.
        if (!(await this.#stillInside(realPath, info))) {
          if (attempt >= 10) throw new FsError("FS_STALE");
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

  /** Creates the missing parent directories of a target, checking each stays inside the root. */
  async #ensureParent(target: FsTarget, signal?: AbortSignal): Promise<void> {
    const parent = dirname(target.realPath);
    const info = await statOrNull(parent);
    if (info?.isDirectory) return;
    if (info) throw new FsError("FS_NOT_DIRECTORY");
    // Walk down from the root, creating one level at a time.
    const missing: string[] = [];
    for (let dir = parent; !(await statOrNull(dir)); dir = dirname(dir)) missing.unshift(dir);
    for (const dir of missing) {
      signal?.throwIfAborted();
      try {
        await Deno.mkdir(dir);
      } catch (error) {
        if (error instanceof Deno.errors.NotADirectory) throw new FsError("FS_NOT_DIRECTORY");
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      }
      const real = await Deno.realPath(dir).catch(() => null);
      if (real === null) throw new FsError("FS_NOT_DIRECTORY");
      if (real !== dir || !findRoot(this.roots, real)) {
        if (real && !findRoot(this.roots, real)) await Deno.remove(real).catch(() => {});
        throw new FsError("FS_OUTSIDE_ROOT");
      }
      const made = await Deno.stat(real);
      if (!made.isDirectory) throw new FsError("FS_NOT_DIRECTORY");
    }
  }

  /**
   * Writes `bytes` to a temporary file beside `realPath`, flushes it, then renames it over the
   * target (or links it, for create-only). The temporary file never outlives the call.
   */
  async #replace(
    realPath: string,
    bytes: Uint8Array,
    options: { mode: number | null; createOnly: boolean; signal?: AbortSignal },
  ): Promise<string> {
    const { mode, createOnly, signal } = options;
    const dir = dirname(realPath);
    const tmp = `${dir}/.${basename(realPath)}.toolfs-${crypto.randomUUID().slice(0, 8)}.tmp`;
    let tmpReal: string | null = tmp;
    let committed = false;
    try {
      signal?.throwIfAborted();
      const file = await Deno.open(tmp, { write: true, createNew: true });
      let version: string;
      try {
        const opened = await file.stat();
        if (!(await this.#stillInside(tmp, opened))) {
          tmpReal = await Deno.realPath(tmp).catch(() => null);
          throw new FsError("FS_OUTSIDE_ROOT");
        }
        await writeAll(file, bytes, signal);
        if (mode !== null) await Deno.chmod(tmp, mode);
        await file.syncData();
        version = await this.#version(await file.stat(), bytes, file);
      } finally {
        file.close();
      }
      signal?.throwIfAborted(); // the last moment to give up: after the rename it is done
      if (createOnly) {
        try {
          await Deno.link(tmp, realPath);
        } catch (error) {
          if (error instanceof Deno.errors.AlreadyExists) throw new FsError("FS_EXISTS");
          throw error;
        }
        committed = true;
        await Deno.remove(tmp).catch(() => {});
      } else {
        await Deno.rename(tmp, realPath);
        committed = true;
      }
      return version;
    } finally {
      if (!committed && tmpReal) await Deno.remove(tmpReal).catch(() => {});
    }
  }

  /** The C5.7 version: identity, size, mtime and a digest of the content. */
  async #version(
    info: Deno.FileInfo,
    bytes: Uint8Array | null,
    file: Deno.FsFile,
  ): Promise<string> {
    let data: Uint8Array;
    if (bytes && bytes.length <= this.#fullDigestMaxSize) data = bytes;
    else if (info.size <= this.#fullDigestMaxSize) data = await readRange(file, 0, info.size);
    else {
      data = new Uint8Array(2 * EDGE);
      data.set(bytes ? bytes.subarray(0, EDGE) : await readRange(file, 0, EDGE));
      data.set(
        bytes ? bytes.subarray(bytes.length - EDGE) : await readRange(file, info.size - EDGE, EDGE),
        EDGE,
      );
    }
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data as BufferSource));
    let hex = "";
    for (let i = 0; i < 12; i++) hex += digest[i].toString(16).padStart(2, "0");
    return `${identityKey(info)}:${hex}`;
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

async function readRange(file: Deno.FsFile, position: number, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  await file.seek(position, Deno.SeekMode.Start);
  let filled = 0;
  while (filled < length) {
    const n = await file.read(out.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return out.subarray(0, filled);
}

async function* chunksOf(
  file: Deno.FsFile,
  buffer: Uint8Array,
  position: number,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  await file.seek(position, Deno.SeekMode.Start);
  for (;;) {
    signal?.throwIfAborted();
    const n = await file.read(buffer);
    if (n === null) return;
    yield buffer.subarray(0, n);
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array, signal?: AbortSignal): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    signal?.throwIfAborted();
    written += await file.write(bytes.subarray(written, written + (1 << 24)));
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
  const text = error instanceof Error ? error.message : String(error);
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
