/**
 * The Deno file system behind the tools: roots resolved once, containment on real paths,
 * identity checked after every open, atomic replacement, per-file serialization. The pieces
 * live beside this file, one concern each: `_containment.ts` (roots, real paths, descriptor
 * and path checks), `_open.ts` (verified opens, the locked read before a replacement),
 * `_read.ts`, `_read_dir.ts`, `_version.ts`, `_parents.ts` (missing parents), `_replace.ts`
 * (the temporary file, the rename, the stale-file sweep), `_fd_paths.ts` (/proc/self/fd),
 * `_errors.ts` and `_stat.ts` (the one `*OrNull` rule). ARCHITECTURE.md walks the write path.
 *
 * @module
 */

import { basename, dirname, resolve as resolvePath } from "node:path";
import { FsError } from "../../fs_error.ts";
import { IO_DETAILS } from "../../render/errors.ts";
import { editOutcome, editPieces, isReplaceRequest, planReplace } from "../edit_pieces.ts";
import type { FsDirEntry } from "../../types.ts";
import type {
  FsCallOptions,
  FsContentRequest,
  FsEditOutcome,
  FsFileContent,
  FsMoveOutcome,
  FsMutationOptions,
  FsProvider,
  FsReadHandle,
  FsReadTextOptions,
  FsRemoveOptions,
  FsRemoveOutcome,
  FsReplacement,
  FsReplaceOutcome,
  FsReplaceRequest,
  FsResolveOptions,
  FsRootInfo,
  FsSearchProvider,
  FsStat,
  FsTarget,
  FsTreeEntry,
  FsTreeOptions,
  FsWriteOutcome,
  RootSpec,
} from "../fs_provider.ts";
import { entriesNeed, listTreeAt, moveEntryAt, removeEntryAt } from "./_entry_ops.ts";
import { readDirEntries } from "./_read_dir.ts";
import { Containment, readGranted } from "./_containment.ts";
import { guard } from "./_errors.ts";
import { lockCurrent, openVerified, readCurrent, refuseReadOnly } from "./_open.ts";
import { streamOrRead } from "./_edit_stream.ts";
import { ensureParent } from "./_parents.ts";
import { readAll, ReadBufferPool, ReadLease } from "./_read.ts";
import { Replacer } from "./_replace.ts";
import { closeQuietly, statOrNull } from "./_stat.ts";
import { EDGES_SIZE, identityKey, Versioner } from "./_version.ts";
import { searchPaths } from "./_search.ts";

export type { RootSpec } from "../fs_provider.ts";

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

const encoder = new TextEncoder();
/** Linux's PATH_MAX, in bytes with the final NUL (a path of this many UTF-16 units is longer). */
const PATH_MAX = 4096;

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
  /**
   * The search fast paths (`FsSearchProvider`): synchronous listings and reads, checked by the
   * descriptor's kernel path, and the prefilter on a worker thread.
   */
  readonly search: FsSearchProvider;
  #c: Containment;
  #versions: Versioner;
  #replacer: Replacer;
  #readBuffers: ReadBufferPool;

  /**
   * Resolves every root to its real path and checks Deno's permissions for it.
   *
   * @param options The roots and tuning.
   * @throws {Error} Outside Deno (CONTRACT C18.1), or when a root is missing, not a directory, or lacks a permission grant.
   */
  constructor(options: LocalFileSystemOptions) {
    if (typeof (globalThis as { Deno?: unknown }).Deno !== "object") {
      throw new Error(
        "LocalFileSystem needs the Deno runtime: it is not available here; " +
          "use MemoryFileSystem (@toolfs/fs/memory) or your own FsProvider under Node or Bun",
      );
    }
    const specs = options?.roots;
    if (!Array.isArray(specs) || specs.length === 0) {
      throw new TypeError("LocalFileSystem needs at least one root: got none");
    }
    this.#c = new Containment(specs);
    this.roots = this.#c.roots;
    this.#readBuffers = new ReadBufferPool(options.chunkSize ?? 1 << 20, EDGES_SIZE);
    this.#versions = new Versioner(options.fullDigestMaxSize ?? 10 * 1024 * 1024);
    this.#replacer = new Replacer(this.#c, this.#versions);
    this.search = searchPaths(this.#c);
  }

  /** {@inheritDoc FsProvider.resolve} */
  async resolve(path: string, options: FsResolveOptions): Promise<FsTarget> {
    const { cwd, op, signal } = options;
    // No path this long can exist (PATH_MAX is 4096 bytes): refused before any system call,
    // and before a walk over millions of components (issue 19).
    if (path.length >= PATH_MAX) {
      throw new FsError("FS_IO_ERROR", { detail: IO_DETAILS.nameTooLong });
    }
    const lexical = resolvePath(cwd, path);
    if (lexical.length >= PATH_MAX) {
      throw new FsError("FS_IO_ERROR", { detail: IO_DETAILS.nameTooLong });
    }
    const realPath = await guard(() => this.#c.realTarget(lexical, signal), signal);
    const root = this.#c.rootOf(realPath);
    if (!root) throw new FsError("FS_OUTSIDE_ROOT");
    if ((op === "write" || op === "edit") && !root.writable) throw new FsError("FS_READ_ONLY");
    return { path: lexical, realPath, root };
  }

  /** {@inheritDoc FsProvider.realPathSync} */
  realPathSync(path: string): string {
    // C7.3: a path Deno was not granted is never touched; its real path is not ours to know.
    if (!readGranted(path)) return path;
    try {
      return Deno.realPathSync(path);
    } catch {
      return path; // missing, or refused: judged as written
    }
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
        const dir = await this.#c.pin(target.realPath, false);
        try {
          const checked = dir.pinned || this.#c.stillInside(target.realPath, before);
          const entries = await readDirEntries(dir.at, before.size, options.signal);
          if (dir.pinned || (checked && this.#c.stillInside(target.realPath, before))) {
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
  readText(target: FsTarget, options: FsReadTextOptions = {}): Promise<FsFileContent> {
    const { signal, wholeMaxSize, toReplace = false } = options;
    return guard(async () => {
      const file = await openVerified(this.#c, target.realPath, signal);
      try {
        const info = await file.stat();
        if (toReplace) await refuseReadOnly(target.realPath, info); // C4.3b, before any change
        // Decided on the open file's size: a file that grew since the caller's stat is streamed.
        if (wholeMaxSize !== undefined && info.size > wholeMaxSize) {
          return { bytes: new Uint8Array(0), version: "", tooLarge: true };
        }
        // C7.4: never past the size the file had at open (it may be growing).
        const bytes = await readAll(file, info.size, signal);
        return { bytes, version: await this.#versions.version(info, bytes, file) };
      } finally {
        file.close();
      }
    }, signal);
  }

  /** {@inheritDoc FsProvider.streamText} */
  streamText(target: FsTarget, options: FsCallOptions = {}): Promise<FsReadHandle> {
    const { signal } = options;
    return guard(async () => {
      const file = await openVerified(this.#c, target.realPath, signal);
      try {
        const info = await file.stat();
        // Reused buffers (two chunk buffers: the next chunk is read while the caller scans the
        // current one), back to the pool once the handle is closed and no chunk stream of it
        // has a read in flight; a stream left suspended keeps them from the pool for good.
        const buffers = this.#readBuffers.take();
        const { version, head } = await this.#versions.digest(info, null, file, buffers.edges);
        const lease = new ReadLease(this.#readBuffers, buffers, file, head);
        return {
          version,
          cacheKey: identityKey(info),
          size: info.size,
          chunks: (position: number) => lease.chunks(position, signal),
          close: () => lease.close(),
        };
      } catch (error) {
        closeQuietly(file);
        throw error;
      }
    }, signal);
  }

  /**
   * {@inheritDoc FsProvider.writeText}
   *
   * Concurrent calls on one file are serialized by the file's advisory lock (`flock`, taken
   * before its content is read and held until the rename), in this process as across processes;
   * the tools also queue their calls per file (`src/keyed_queue.ts`). A new file has no lock to
   * take: `absent` creates it by `link`, which fails if another call created it first.
   */
  writeText(
    target: FsTarget,
    content: string,
    options: FsMutationOptions = {},
  ): Promise<FsWriteOutcome> {
    const { signal, precondition = { kind: "none" } } = options;
    const bytes = encoder.encode(content);
    return guard(async () => {
      const dir = await ensureParent(this.#c, target, signal);
      try {
        const name = basename(target.realPath);
        const path = `${dir.at}/${name}`;
        const info = await statOrNull(path);
        if (info && !info.isFile) throw new FsError("FS_NOT_REGULAR_FILE");
        if (info && precondition.kind === "absent") throw new FsError("FS_EXISTS");
        if (!info && precondition.kind === "version") throw new FsError("FS_STALE");
        const current = info
          ? await readCurrent(this.#c, this.#versions, path, precondition, signal)
          : null;
        try {
          const version = await this.#replacer.replace(dir, name, bytes, {
            keep: current?.info ?? null,
            createOnly: !info && precondition.kind === "absent",
            signal,
          });
          return { operation: info ? "update" : "create", before: current?.bytes ?? null, version };
        } finally {
          if (current) closeQuietly(current.held);
        }
      } finally {
        dir.close();
      }
    }, signal);
  }

  /** {@inheritDoc FsProvider.editText} */
  editText(
    target: FsTarget,
    request: FsContentRequest,
    options?: FsMutationOptions,
  ): Promise<FsEditOutcome>;
  editText(
    target: FsTarget,
    request: FsReplaceRequest,
    options?: FsMutationOptions,
  ): Promise<FsReplaceOutcome>;
  editText(
    target: FsTarget,
    request: FsContentRequest | FsReplaceRequest,
    options: FsMutationOptions = {},
  ): Promise<FsEditOutcome | FsReplaceOutcome> {
    const { signal, precondition = { kind: "none" } } = options;
    return guard(async () => {
      // No stat first: the verified open stats the file (missing: FS_NOT_FOUND; not a regular
      // file: FS_NOT_REGULAR_FILE, never opened).
      const dir = await this.#c.pin(dirname(target.realPath), true).catch((error) => {
        // C7.1: a parent that is a file makes `edit` report FS_NOT_FOUND.
        throw error instanceof FsError && error.code === "FS_NOT_DIRECTORY"
          ? new FsError("FS_NOT_FOUND", { cause: error })
          : error;
      });
      try {
        const name = basename(target.realPath);
        const locked = await lockCurrent(this.#c, `${dir.at}/${name}`, precondition, signal);
        try {
          const at = { dir, name, locked, precondition, signal };
          const bytes = await streamOrRead(this.#replacer, at, request);
          if (!(bytes instanceof Uint8Array)) return bytes; // streamed and committed
          let [after, replaced]: [Uint8Array | readonly Uint8Array[], FsReplacement?] = [[]];
          if (isReplaceRequest(request)) {
            // A failed match returns: the caller renders it after the `finally` below unlocks.
            const planned = planReplace(bytes, request);
            if (planned.kind === "unmatched") return { ...planned, before: bytes };
            replaced = planned.replaced;
            after = replaced.pieces;
          } else {
            after = request.content;
          }
          const pieces = editPieces(after);
          const version = await this.#replacer.replace(dir, name, pieces, {
            keep: locked.info,
            createOnly: false,
            signal,
          });
          const outcome = editOutcome(bytes, after, pieces, version);
          return replaced ? Object.assign(outcome, { kind: "edited" as const, replaced }) : outcome;
        } finally {
          closeQuietly(locked.held);
        }
      } finally {
        dir.close();
      }
    }, signal);
  }

  /** {@inheritDoc FsProvider.listTree} */
  listTree(target: FsTarget, options: FsTreeOptions = {}): Promise<FsTreeEntry[] | null> {
    const versions = options.versions ? this.#versions : null;
    return guard(() => listTreeAt(this.#c, versions, target, options.signal), options.signal);
  }

  /**
   * {@inheritDoc FsProvider.moveEntry}
   *
   * One rename (a hard link then an unlink for a non-directory, so the kernel refuses an
   * existing destination); across file systems a copy, then the source's removal (`_move.ts`).
   */
  moveEntry(
    source: FsTarget,
    destination: FsTarget,
    options: FsCallOptions = {},
  ): Promise<FsMoveOutcome> {
    const { signal } = options;
    return guard(
      () => moveEntryAt(this.#c, this.#versions, source, destination, signal),
      signal,
    );
  }

  /**
   * {@inheritDoc FsProvider.entriesNeed}
   *
   * `null` on Linux under `--allow-all`, where moves and deletes go through directories held
   * open by descriptors; `"Deno's --allow-all"` on Linux otherwise (Deno grants /proc/self/fd
   * only then); `"Linux and Deno's --allow-all"` elsewhere.
   */
  entriesNeed(): string | null {
    return entriesNeed();
  }

  /** {@inheritDoc FsProvider.removeEntry} */
  removeEntry(target: FsTarget, options: FsRemoveOptions = {}): Promise<FsRemoveOutcome> {
    return guard(() => removeEntryAt(this.#c, this.#versions, target, options), options.signal);
  }
}

/**
 * C15.5: what `move` and `delete` on a {@linkcode LocalFileSystem} need and this process lacks
 * (`"Deno's --allow-all"`), or `null`; the same for every instance of this process, so a host
 * can decide which tools to offer before it has roots.
 *
 * @returns What is lacking, or `null`.
 */
export function localEntriesNeed(): string | null {
  return entriesNeed();
}

function typeOf(info: Deno.FileInfo): FsStat["type"] {
  return info.isFile ? "file" : info.isDirectory ? "directory" : "other";
}
