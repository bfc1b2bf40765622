/**
 * The optional search part of the provider seam (CONTRACT C9.2, C11): fast paths `glob` and
 * `grep` use when a provider offers them as `FsProvider.search`. Without them the tools
 * walk with `listDir` and read with `readText` / `streamText`, with identical results.
 *
 * The security trade-off of these paths (listings that skip their own check, a check after the
 * read, a prefilter's skip) is stated once, in ARCHITECTURE.md, "The search path's trade-off".
 *
 * @module
 */

import type { FsCallOptions, FsDirEntry, FsTarget } from "../types.ts";

/** Options of {@linkcode FsSearchProvider.readChunks}. */
export interface FsSearchReadOptions extends FsCallOptions {
  /**
   * A buffer the provider may read into and hand out (its subarrays) instead of allocating one
   * per file. A chunk stays intact until the one after the next is drawn (the provider reads
   * into the buffer's two halves in turn), so a caller may keep the previous chunk uncopied.
   */
  buffer?: Uint8Array;
}

/** Options of {@linkcode FsSearchProvider.listDir}. */
export interface FsSearchListOptions extends FsCallOptions {
  /**
   * `false` when the caller reports nothing of the listing on its own authority, only files
   * whose reads then pass {@linkcode FsSearchRead.verify} (`grep`): a provider may skip its
   * check that the directory lies inside a root. Default `true` (`glob` reports names).
   */
  verify?: boolean;
}

/**
 * One file opened for a search: its bytes, and the containment check of what was read. The
 * caller draws `chunks` (once), calls `verify()` before it reports anything of the file (a
 * matching line, its name), and calls `close()` in every case.
 */
export interface FsSearchRead {
  /** The file's bytes in chunks; a chunk may be a reused buffer (see `buffer`). */
  readonly chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /**
   * Checks that the file read lies inside a root (the very file the chunks came from, not a
   * file at its name now). Rejects with `FS_OUTSIDE_ROOT` when it does not. Callable while the
   * chunks are drawn or after, until `close()` (after it, it rejects: fail closed).
   */
  verify(): Promise<void>;
  /** Releases the file (idempotent). */
  close(): void;
}

/**
 * The search fast paths a provider may offer (as `FsProvider.search`). Each answers
 * as its slow counterpart would, but may put off its containment check until the caller needs
 * it, so a search of thousands of files pays the check only for the files it reports.
 */
export interface FsSearchProvider {
  /**
   * `listDir` for a traversal: the same entries; with `verify` (the default) the same
   * guarantee that the directory lies inside a root. Read-only: a provider may hand out a
   * listing it keeps for later calls; one it hands out frozen (the array and its entries) is
   * read as never changing, so a caller may work things out from it once.
   */
  listDir(target: FsTarget, options?: FsSearchListOptions): Promise<readonly FsDirEntry[]>;
  /**
   * A regular file opened for a search (`grep`): its bytes in chunks, with no version, and the
   * containment check of what was read put off to {@linkcode FsSearchRead.verify}. Rejects as
   * `streamText` does for a missing file, a directory, a FIFO or a link put where a file was.
   */
  readChunks(target: FsTarget, options?: FsSearchReadOptions): Promise<FsSearchRead>;
  /**
   * Optional prefilter for `grep`: for each file, `0` when it surely lacks one of `needles`
   * (byte strings every matching line contains), `1` when it may hold them all; or `null` for
   * "no answer" (every file may). A hint told ahead of the search, typically on another thread:
   * the tool skips a file marked `0` (counting it as searched) and reads every other one through
   * `readChunks`. A binary file (C4.2: a NUL byte in its first 8 KiB, or a UTF-16 byte order
   * mark) is never marked `0`: the tool reads it and leaves it out of the files searched, a
   * count that must not depend on the pattern (C11). An answer is about content, so neither may
   * depend on what a file outside the roots holds: a file read through a parent swapped for a
   * link to outside gets one answer whatever it holds (the local provider marks it `0`; the tool
   * counts it as searched, as a read failing `verify()` is counted). A `1` is thus given only on
   * a read verified to lie inside a root; a `0` for a text file lacking a needle needs no check.
   */
  mayContain?(
    targets: readonly FsTarget[],
    needles: readonly Uint8Array[],
    options?: FsCallOptions,
  ): Promise<Uint8Array | null>;
}
