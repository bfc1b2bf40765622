// `grep`'s files told apart ahead of the search (CONTRACT C11): batches of the walk's files go
// to the provider's prefilter (`fs.search.mayContain`; the local provider answers from a worker
// thread), while the walk goes on; each file comes out in path order, marked when the answer
// says it surely lacks a literal of the pattern. Private to src/tools.

import { FsError } from "../fs_error.ts";
import type { FsSearchProvider } from "../provider/fs_provider.ts";
import type { SearchFile } from "./_search_walk.ts";

/** Files per question to the provider. */
const BATCH = 256;
/** Questions in flight before the walk waits for the oldest answer. */
const AHEAD = 3;

/** A file of the walk with the prefilter's answer. */
export interface Candidate {
  /** The file. */
  file: SearchFile;
  /** `true` when the file surely lacks a literal of the pattern (it has no match). */
  lacksLiteral: boolean;
}

/** Options of {@linkcode prefilter}. */
export interface PrefilterOptions {
  /** The provider's search fast paths, if any (no `mayContain`: no file is marked). */
  search?: FsSearchProvider;
  /** The pattern's literals (none: no file is marked). */
  needles: readonly Uint8Array[];
  /** Cancels the questions. */
  signal?: AbortSignal;
}

interface Asked {
  files: SearchFile[];
  flags: Promise<Uint8Array | null>;
}

/**
 * The walk's files in the same order, each with the prefilter's answer. The provider is asked
 * about batches of {@linkcode BATCH} files, up to {@linkcode AHEAD} batches ahead of the one
 * handed out; a search of fewer files never asks.
 *
 * @param files The walk's files, in path order.
 * @param options The provider's fast paths, the literals and the signal.
 */
export async function* prefilter(
  files: AsyncIterable<SearchFile>,
  options: PrefilterOptions,
): AsyncGenerator<Candidate, void, undefined> {
  const { needles, signal } = options;
  const mayContain = options.search?.mayContain;
  if (!mayContain || needles.length === 0) {
    for await (const file of files) yield { file, lacksLiteral: false };
    return;
  }
  const asked: Asked[] = [];
  let batch: SearchFile[] = [];
  for await (const file of files) {
    batch.push(file);
    if (batch.length < BATCH) continue;
    const targets = batch.map((f) => f.target);
    const flags = mayContain.call(options.search, targets, needles, { signal });
    flags.catch(() => {}); // awaited in order, below
    asked.push({ files: batch, flags });
    batch = [];
    if (asked.length >= AHEAD) yield* answered(asked.shift()!, signal);
  }
  while (asked.length > 0) yield* answered(asked.shift()!, signal);
  for (const file of batch) yield { file, lacksLiteral: false };
}

/** A batch's files with the answer (none: every file may match). */
async function* answered(
  { files, flags }: Asked,
  signal?: AbortSignal,
): AsyncGenerator<Candidate, void, undefined> {
  let marks: Uint8Array | null = null;
  try {
    marks = await flags;
  } catch {
    if (signal?.aborted) throw new FsError("FS_ABORTED");
    // no answer: every file may match
  }
  for (let i = 0; i < files.length; i++) {
    yield { file: files[i], lacksLiteral: marks !== null && marks[i] === 0 };
  }
}
