// `grep`'s files told apart ahead of the search (CONTRACT C11): batches of the walk's files go
// to the provider's prefilter (`fs.search.mayContain`; the local provider answers from a worker
// thread) while the walk goes on; the files that may match come out in path order, the others
// (surely lacking a literal of the pattern) are counted. Used only by grep (src/tools/grep/).

import { FsError } from "../../fs_error.ts";
import type { FsSearchProvider } from "../../provider/fs_provider.ts";
import type { SearchFile } from "./walk.ts";

/** Files per question to the provider. */
const BATCH = 256;
/** Questions in flight before the walk waits for the oldest answer. */
const AHEAD = 3;

/** Options of {@linkcode prefilter}. */
export interface PrefilterOptions {
  /** The provider's search fast paths, if any (no `mayContain`: no file is ruled out). */
  search?: FsSearchProvider;
  /** The pattern's literals (none: no file is ruled out). */
  needles: readonly Uint8Array[];
  /** Cancels the questions. */
  signal?: AbortSignal;
}

/** The files that may match, in path order, and a count of the others. */
export interface Candidates extends AsyncIterable<SearchFile> {
  /** Files read ahead and found to lack a literal so far: searched, without a match. */
  readonly ruledOut: number;
}

interface Asked {
  files: SearchFile[];
  flags: Promise<Uint8Array | null>;
}

/**
 * The walk's files that may match, in the same order; the others are only counted
 * (`ruledOut`). The provider is asked about batches of {@linkcode BATCH} files, up to
 * {@linkcode AHEAD} batches ahead of the one handed out; a search of fewer files never asks.
 *
 * @param runs The walk's files in runs, in path order.
 * @param options The provider's fast paths, the literals and the signal.
 * @returns The files that may match.
 */
export function prefilter(
  runs: AsyncIterable<readonly SearchFile[]>,
  options: PrefilterOptions,
): Candidates {
  const { needles, signal, search } = options;
  const mayContain = search?.mayContain;
  if (!mayContain || needles.length === 0) {
    return {
      ruledOut: 0,
      async *[Symbol.asyncIterator]() {
        for await (const run of runs) yield* run;
      },
    };
  }
  const candidates = {
    ruledOut: 0,
    async *[Symbol.asyncIterator]() {
      const asked: Asked[] = [];
      let batch: SearchFile[] = [];
      for await (const run of runs) {
        for (const file of run) {
          batch.push(file);
          if (batch.length < BATCH) continue;
          const targets = batch.map((f) => f.target);
          const flags = mayContain.call(search, targets, needles, { signal });
          flags.catch(() => {}); // awaited in order, below
          asked.push({ files: batch, flags });
          batch = [];
          if (asked.length < AHEAD) continue;
          const { files: asked0, flags: flags0 } = asked.shift()!;
          const marks = await answer(flags0, signal);
          for (let i = 0; i < asked0.length; i++) {
            if (marks !== null && marks[i] === 0) candidates.ruledOut++;
            else yield asked0[i];
          }
        }
      }
      for (const { files: left, flags } of asked) {
        const marks = await answer(flags, signal);
        for (let i = 0; i < left.length; i++) {
          if (marks !== null && marks[i] === 0) candidates.ruledOut++;
          else yield left[i];
        }
      }
      yield* batch;
    },
  };
  return candidates;
}

/** A batch's answer, or `null` for none (every file may match). */
async function answer(
  flags: Promise<Uint8Array | null>,
  signal?: AbortSignal,
): Promise<Uint8Array | null> {
  try {
    return await flags;
  } catch {
    if (signal?.aborted) throw new FsError("FS_ABORTED");
    return null; // no answer: every file may match
  }
}
