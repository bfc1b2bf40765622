/**
 * The provider seam (CONTRACT C1.6): the only way the tools touch files. `LocalFileSystem` is
 * the Deno implementation; a host can supply another backend (a remote sandbox, an in-memory
 * tree) by implementing this interface.
 *
 * @module
 */

import type {
  FsCallOptions,
  FsDirEntry,
  FsEntryType,
  FsOp,
  FsRootInfo,
  FsTarget,
} from "../types.ts";
import type { FsSearchProvider } from "./fs_search.ts";

export type {
  FsCallOptions,
  FsDirEntry,
  FsEntryType,
  FsOp,
  FsRootInfo,
  FsTarget,
} from "../types.ts";
export type {
  FsSearchListOptions,
  FsSearchProvider,
  FsSearchRead,
  FsSearchReadOptions,
} from "./fs_search.ts";

/** Options of {@linkcode FsProvider.resolve}. */
export interface FsResolveOptions extends FsCallOptions {
  /** The absolute session directory a relative path resolves against. */
  cwd: string;
  /** The operation, for the out-of-root and read-only checks. */
  op: FsOp;
}

/**
 * A root as a provider's options give it: a directory path (readable and writable), or an object
 * with `write: false` for a read-only one. `LocalFileSystem` resolves a relative path against the
 * process's working directory; `MemoryFileSystem` takes absolute POSIX paths.
 */
export type RootSpec = string | {
  /** The directory. */
  path: string;
  /**
   * Whether `write` and `edit` may change files under it.
   * @default {true}
   */
  write?: boolean;
};

/** What `stat` reports. `type` is the target's own after following in-root links. */
export interface FsStat {
  /** `file`, `directory`, or `other` (FIFO, socket, device). */
  type: "file" | "directory" | "other";
  /** Size in bytes; `null` when unknown. */
  size: number | null;
  /** Modification time in milliseconds since the epoch, when known. */
  mtimeMs?: number | null;
}

/** A whole file's bytes with the version they were read at. */
export interface FsFileContent {
  /** The raw bytes. */
  bytes: Uint8Array;
  /** The file's version (C5.7) for these bytes. */
  version: string;
  /**
   * `true` when the call gave `wholeMaxSize` and the open file was larger: then nothing was
   * read (`bytes` is empty) and the caller streams the file instead (C7.4).
   */
  tooLarge?: boolean;
}

/** Options of {@linkcode FsProvider.readText}. */
export interface FsReadTextOptions extends FsCallOptions {
  /**
   * The largest file to read whole, judged on the open file (not on an earlier `stat`, which a
   * growing file outdates): a larger one resolves to `{ tooLarge: true }` without being read.
   * A provider whose files cannot change between `stat` and the read may ignore it.
   */
  wholeMaxSize?: number;
  /**
   * The caller means to replace or remove the file after this read (`patch` checks every file
   * before it changes any, C16.2): refuse, as C4.3b, a file this process may not write
   * (`FS_PERMISSION_DENIED`, `permission denied (the file is read-only)`). A provider without
   * permission bits may ignore it.
   * @default {false}
   */
  toReplace?: boolean;
}

/** An open file for windowed, streamed reading. Close it when done. */
export interface FsReadHandle {
  /** The file's version (C5.7) at open. */
  readonly version: string;
  /** A key that changes whenever the bytes may have changed (for caching a line index). */
  readonly cacheKey: string;
  /** Size in bytes at open; `null` when unknown. */
  readonly size: number | null;
  /** The bytes from `position` on, in chunks; a chunk may be a reused buffer. */
  chunks(position: number): AsyncIterable<Uint8Array>;
  /** Releases the file. */
  close(): void;
}

/**
 * A condition a write or edit is applied under, checked by the provider under its per-file lock.
 * `absent`: create only if no file exists; `version`: replace only at that version.
 */
export type FsPrecondition =
  | { kind: "none" }
  | { kind: "absent" }
  | { kind: "version"; version: string };

/** Options of {@linkcode FsProvider.writeText} and {@linkcode FsProvider.editText}. */
export interface FsMutationOptions extends FsCallOptions {
  /** Checked under the lock; a failed check throws `FS_EXISTS` or `FS_STALE`. */
  precondition?: FsPrecondition;
}

/** What a write produced. */
export interface FsWriteOutcome {
  /** Whether the file was created or replaced. */
  operation: "create" | "update";
  /** The old bytes; `null` for a new file. */
  before: Uint8Array | null;
  /** The file's version after the write. */
  version: string;
}

/** What an edit produced. */
export interface FsEditOutcome {
  /**
   * The bytes before. A provider may read them only on first access (a getter), say from the
   * replaced file kept open, so a caller that never reads `before` does not pay for them.
   */
  readonly before: Uint8Array;
  /**
   * The bytes after. When the request gave slices, a provider may join them only on
   * first access (a getter), so a caller that never reads `after` does not pay for the copy.
   */
  readonly after: Uint8Array;
  /** The file's version after the edit. */
  version: string;
}

/**
 * A file's whole new contents for {@linkcode FsProvider.editText} (`patch` computes them from
 * the bytes it checked, and passes the version it checked as the precondition).
 */
export interface FsContentRequest {
  /**
   * The new bytes, as one buffer or as slices whose concatenation, in order, is the new content
   * (say, subarrays of the old bytes around a change), which spares building a copy of a large
   * file. A provider must accept both and write the slices in order; they must not be changed
   * until `editText` settles.
   */
  content: Uint8Array | readonly Uint8Array[];
}

/**
 * The literal replacement `edit` asks for (CONTRACT C4.4), applied by the provider under the
 * file's lock with no call back into the caller: `oldString` must occur once (or, with
 * `replaceAll`, at least once); in a file whose line breaks are mostly `\r\n`, an `oldString`
 * or `newString` written with `\n` is matched and written with `\r\n`; every byte outside the
 * replacements is kept. A file that looks binary (C4.2: a NUL in its first 8 KiB, or a UTF-16
 * byte order mark) is refused with `FS_BINARY`; one larger than `maxBytes` before or after with
 * `FS_IO_ERROR`. A provider can apply it with `planReplace` (`provider.ts`).
 */
export interface FsReplaceRequest {
  /** The exact text to replace (not empty). */
  oldString: string;
  /** The text put in its place. */
  newString: string;
  /** Replace every occurrence instead of requiring exactly one. */
  replaceAll: boolean;
  /** The largest size, before and after, the file may have. */
  maxBytes: number;
}

/** Where a replacement went: what the caller needs to render its result (C12.8) and texts. */
export interface FsReplacement {
  /** Where each replaced occurrence started in the old bytes, in order. */
  positions: number[];
  /** The bytes replaced at each position (`oldString`, maybe with `\r\n` breaks). */
  needle: Uint8Array;
  /** The bytes put in their place. */
  replacement: Uint8Array;
  /**
   * The new bytes as slices: stretches of the old bytes and the replacement between them (made
   * on first access when the old bytes are, see {@linkcode FsEditOutcome.before}).
   */
  readonly pieces: Uint8Array[];
  /** The new bytes, joined from `pieces` on first access. */
  readonly after: Uint8Array;
  /** The length of the new bytes, known without joining or reading them. */
  readonly length: number;
  /** The old bytes as text, when the provider decoded them (all ASCII: offsets agree). */
  text?: string;
}

/**
 * What a replacement ({@linkcode FsReplaceRequest}) produced. `edited`: committed. `unmatched`:
 * `oldString` occurs `count` times (0, or more than one without `replaceAll`) at `positions`
 * (listed when more than one); nothing was written, and the lock is released, so the caller
 * renders its hints (C12.3, C12.4) from `before` without holding up other writers.
 */
export type FsReplaceOutcome =
  | FsEditOutcome & { kind: "edited"; replaced: FsReplacement }
  | { kind: "unmatched"; before: Uint8Array; count: number; positions: readonly number[] };

/**
 * One entry of what a `move` or `delete` is about to change (C15): the entry itself and, for a
 * directory, each entry below it.
 */
export interface FsTreeEntry {
  /** The entry's real path: its parent's real path and its own name (a link is not followed). */
  realPath: string;
  /** Its own type; a symbolic link is `other`. */
  type: FsEntryType;
  /** A regular file's version (C5.7), when {@linkcode FsTreeOptions.versions} asked for it. */
  version?: string;
}

/** Options of {@linkcode FsProvider.listTree}. */
export interface FsTreeOptions extends FsCallOptions {
  /**
   * Whether to compute each regular file's version (which reads it).
   * @default {false}
   */
  versions?: boolean;
}

/** Options of {@linkcode FsProvider.removeEntry}. */
export interface FsRemoveOptions extends FsCallOptions {
  /**
   * Remove a non-empty directory with everything in it; without it such a directory is
   * `FS_NOT_EMPTY`.
   * @default {false}
   */
  recursive?: boolean;
  /**
   * The policy's condition: every regular file in what is removed, by real path, must be at this
   * version, and no other regular file may be there; else `FS_STALE`, and nothing is removed.
   * Absent: unconditional.
   */
  expect?: ReadonlyMap<string, string>;
}

/** What {@linkcode FsProvider.removeEntry} removed. */
export interface FsRemoveOutcome {
  /** The entry's own type. */
  type: FsEntryType;
  /** Files removed; symbolic links and other entries count as files. */
  files: number;
  /** Directories removed, the named one included. */
  directories: number;
}

/** What {@linkcode FsProvider.moveEntry} moved. */
export interface FsMoveOutcome {
  /** The entry's own type. */
  type: FsEntryType;
  /** A regular file's version (C5.7) at its new name; absent for any other entry. */
  version?: string;
}

/**
 * The file system the tools run on. Every method takes an `AbortSignal` through its options.
 * Every member is used by a tool; the conformance suite (`./testing`) checks each.
 */
export interface FsProvider {
  /**
   * The roots, as real paths (C3): the first is the tools' default session directory, and
   * `createFsTools` checks its `cwd` against them.
   */
  readonly roots: readonly FsRootInfo[];
  /**
   * Resolves a path against `cwd`, follows symlinks and checks it lies inside a root.
   * Throws `FS_OUTSIDE_ROOT` otherwise, and `FS_READ_ONLY` for `write`/`edit` in a read-only root.
   */
  resolve(path: string, options: FsResolveOptions): Promise<FsTarget>;
  /** Stats a resolved target, following in-root links; `null` when it does not exist. */
  stat(target: FsTarget, options?: FsCallOptions): Promise<FsStat | null>;
  /** The direct children of a directory with their own types (links not followed). */
  listDir(target: FsTarget, options?: FsCallOptions): Promise<FsDirEntry[]>;
  /** The whole file's bytes and version. */
  readText(target: FsTarget, options?: FsReadTextOptions): Promise<FsFileContent>;
  /** Opens a file for streamed reading with bounded memory. */
  streamText(target: FsTarget, options?: FsCallOptions): Promise<FsReadHandle>;
  /** Creates or atomically replaces a file (creating missing parents inside the root). */
  writeText(
    target: FsTarget,
    content: string,
    options?: FsMutationOptions,
  ): Promise<FsWriteOutcome>;
  /**
   * Atomically replaces a file's bytes under the file's lock with the new contents given
   * ({@linkcode FsContentRequest}: `patch`, under a `version` precondition).
   */
  editText(
    target: FsTarget,
    request: FsContentRequest,
    options?: FsMutationOptions,
  ): Promise<FsEditOutcome>;
  /**
   * Applies a literal replacement ({@linkcode FsReplaceRequest}: `edit`) under the file's lock
   * and commits it atomically; a failed match is returned (`unmatched`), the file untouched and
   * its lock released. Nothing calls back into the caller.
   */
  editText(
    target: FsTarget,
    request: FsReplaceRequest,
    options?: FsMutationOptions,
  ): Promise<FsReplaceOutcome>;
  /**
   * The entry at `target` itself (never followed: `target.realPath` names the entry, its
   * parent's real path and its name) and, for a directory, every entry below it, parents before
   * children; `null` when missing. Links below are listed, never followed.
   */
  listTree(target: FsTarget, options?: FsTreeOptions): Promise<FsTreeEntry[] | null>;
  /**
   * Moves the entry at `source` (a file, a link itself, or a directory) to `destination`,
   * creating missing parents, never replacing anything there (`FS_EXISTS`); a directory into
   * itself is `FS_INVALID_ARGUMENT`. Both `realPath`s name the entries themselves. Where one
   * rename cannot do it (another file system), the source is removed only after its copy is
   * complete. Both parents must lie inside writable roots. A moved regular file's outcome
   * carries its version at the new name (`patch` records it).
   */
  moveEntry(
    source: FsTarget,
    destination: FsTarget,
    options?: FsCallOptions,
  ): Promise<FsMoveOutcome>;
  /**
   * Removes the entry at `target` (a file, a link itself, an empty directory, or with
   * `recursive` a tree), checking `expect` first; nothing is removed when a check fails. Its
   * parent must lie inside a writable root.
   */
  removeEntry(target: FsTarget, options?: FsRemoveOptions): Promise<FsRemoveOutcome>;
  /**
   * Optional (C15.5): what {@linkcode FsProvider.moveEntry} and
   * {@linkcode FsProvider.removeEntry} need and this process lacks (a permission, such as
   * `"Deno's --allow-all"`) for no race to make them rename or remove an entry outside the
   * roots, or `null` when nothing is lacking. Absent: nothing is. While it is not `null`,
   * `createFsTools` does not offer `move` and `delete`, a call to them says what they need, and
   * the provider refuses both methods itself.
   */
  entriesNeed?(): string | null;
  /**
   * Optional fast paths of the search tools (C9.2, C11): a traversal's listing, a file's bytes
   * with the containment check put off until the tool reports from it, and a prefilter. Without
   * them the tools use `listDir`, `readText` and `streamText`, with identical results. Their
   * security trade-off: ARCHITECTURE.md, "The search path's trade-off".
   */
  readonly search?: FsSearchProvider;
  /**
   * Optional: the real path of an absolute path, synchronously (links followed; a missing path
   * as given), for `createFsTools` to check its `cwd` at construction (C1.2): a `cwd` that is
   * a link inside a root to a directory outside every root is refused. A provider without
   * links need not have it.
   */
  realPathSync?(path: string): string;
}
