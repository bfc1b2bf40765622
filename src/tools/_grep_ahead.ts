// `grep`'s files told apart ahead of the search (CONTRACT C11): batches of the walk's files go
// to the provider's `searchMayContain` (the local provider answers from a worker thread), and
// only the files that may hold every literal of the pattern are searched, in path order. Private
// to src/tools.

import { FsError } from "../fs_error.ts";
import type { FsProvider } from "../provider/fs_provider.ts";
import type { SearchFile } from "./_search_walk.ts";

/** Files per question to the provider. */
const BATCH = 256;
/** Questions in flight before the walk waits for the oldest answer. */
const AHEAD = 3;

interface Asked {
  files: SearchFile[];
  flags: Promise<Uint8Array | null>;
}

/**
 * Takes the walk's files in path order and hands the ones that may match to `search`, in the
 * same order. A search of fewer than {@linkcode BATCH} files never asks.
 */
export class AheadFilter {
  #batch: SearchFile[] = [];
  #asked: Asked[] = [];
  /** Files read ahead and found to lack a literal: searched, without a match. */
  ruledOut = 0;

  private constructor(
    readonly fs: FsProvider,
    readonly needles: readonly Uint8Array[],
    readonly search: (file: SearchFile) => Promise<void>,
    readonly signal?: AbortSignal,
  ) {}

  /**
   * A filter, or `null` when nothing can be told apart ahead (the provider has no
   * `searchMayContain`, or the pattern has no literal).
   *
   * @param fs The provider.
   * @param needles The pattern's literals.
   * @param search Searches one file.
   * @param signal Cancels the search.
   */
  static create(
    fs: FsProvider,
    needles: readonly Uint8Array[],
    search: (file: SearchFile) => Promise<void>,
    signal?: AbortSignal,
  ): AheadFilter | null {
    return fs.searchMayContain && needles.length > 0
      ? new AheadFilter(fs, needles, search, signal)
      : null;
  }

  /** Takes the walk's next file; waits when enough questions are in flight. */
  add(file: SearchFile): Promise<void> | undefined {
    this.#batch.push(file);
    if (this.#batch.length < BATCH) return;
    const files = this.#batch;
    this.#batch = [];
    const targets = files.map((f) => f.target);
    const flags = this.fs.searchMayContain!(targets, this.needles, { signal: this.signal });
    flags.catch(() => {}); // awaited in order, below
    this.#asked.push({ files, flags });
    if (this.#asked.length >= AHEAD) return this.#next();
  }

  /** Searches what is left once the walk has ended. */
  async finish(): Promise<void> {
    while (this.#asked.length > 0) await this.#next();
    const rest = this.#batch;
    this.#batch = [];
    for (const file of rest) await this.search(file);
  }

  /** Searches the oldest batch's files that may match. */
  async #next(): Promise<void> {
    const { files, flags } = this.#asked.shift()!;
    let marks: Uint8Array | null = null;
    try {
      marks = await flags;
    } catch {
      if (this.signal?.aborted) throw new FsError("FS_ABORTED");
      // no answer: every file may match
    }
    for (let i = 0; i < files.length; i++) {
      if (!marks || marks[i] !== 0) await this.search(files[i]);
      else this.ruledOut++;
    }
  }
}
