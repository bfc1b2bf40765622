// The old bytes of a streamed edit (the value's `before`, CONTRACT C6), read only when asked for:
// rebuilt from the file the edit wrote, kept open, by undoing the replacement. Nothing is
// copied into memory on the edit's path, and the replaced file is closed at once, so its page
// cache is freed for the next write to reuse (keeping it open made the next 50 MiB write 5-10x
// slower on this kind of machine: bench/RESULTS.md). Private to src/provider/local.
//
// Why the written file cannot change meanwhile: toolfs never writes into an existing file
// (every write and edit replaces it), and what the advisory lock assumes of other writers, this
// assumes too. A read checks the file's identity, size and modification time against the ones
// its version recorded, all the same, and each undone replacement checks the bytes it undoes.
// When this process replaces the kept file again by a streamed edit, the outcomes reading it
// move on to the new file (one more replacement to undo), so only live files are kept open.

import { identityKey } from "./_version.ts";

/** A committed replacement, as far as undoing it needs. */
export interface KeptPlan {
  /** Where each replaced occurrence started in the old bytes, in order. */
  readonly positions: readonly number[];
  /** The old bytes at each position. */
  readonly needle: Uint8Array;
  /** The new bytes put in their place. */
  readonly replacement: Uint8Array;
}

/** Files kept open at most; past it the oldest is read into memory and closed. */
const MAX_KEPT = 16;

/** A file an edit wrote, open, and the outcomes whose old bytes are rebuilt from it. */
class Source {
  file: Deno.FsFile | null;
  readonly key: string;
  readonly readers = new Set<Entry>();

  constructor(file: Deno.FsFile, key: string) {
    this.file = file;
    this.key = key;
  }

  /** The file's bytes, checked to be the ones written (its identity as `key` says). */
  read(): Uint8Array {
    const file = this.file;
    if (!file) throw new Error("the file an edit wrote is closed");
    const changed = () => identityKey(file.statSync()) !== this.key;
    if (changed()) throw new Error("the file an edit wrote was changed: its old bytes are lost");
    const bytes = readWhole(file, file.statSync().size);
    if (changed()) throw new Error("the file an edit wrote was changed: its old bytes are lost");
    return bytes;
  }

  /** Stops reading for `entry`; the file is closed when no outcome reads it any more. */
  drop(entry: Entry): void {
    this.readers.delete(entry);
    if (this.readers.size === 0) this.close();
  }

  close(): void {
    try {
      this.file?.close();
    } catch {
      // already closed
    }
    this.file = null;
    if (sources.get(this.key) === this) sources.delete(this.key);
  }
}

/** One outcome's old bytes: its source, the replacements to undo (newest first), or the bytes. */
class Entry {
  source: Source | null;
  undo: KeptPlan[];
  #bytes: Uint8Array | null = null;
  #error: unknown = null;

  constructor(
    source: Source | null,
    undo: KeptPlan[],
    bytes: Uint8Array | null = null,
    error: unknown = null,
  ) {
    this.source = source;
    this.undo = undo;
    this.#bytes = bytes;
    this.#error = error;
  }

  /** The old bytes, rebuilt on the first call; the source is let go of then. */
  take(): Uint8Array {
    if (this.#bytes) return this.#bytes;
    if (this.#error !== null || !this.source) throw this.#error ?? new Error("no old bytes");
    try {
      let bytes = this.source.read();
      for (const plan of this.undo) bytes = undoReplacement(bytes, plan);
      return this.#bytes = bytes;
    } catch (error) {
      this.#error = error;
      throw error;
    } finally {
      this.release();
    }
  }

  release(): void {
    const source = this.source;
    this.source = null;
    source?.drop(this);
  }
}

const sources = new Map<string, Source>(); // by identity, oldest first
const registry = new FinalizationRegistry<Entry>((entry) => entry.release());

/**
 * What reads the old bytes of a streamed edit, on its first call (later calls return the same
 * bytes): the file the edit wrote, opened again at `path` just after the commit and checked to
 * be the file of `version`, with `plan` undone. Outcomes of earlier edits that read the file this
 * edit replaced (`replaced`, still open and locked) move on to the written file. Should the
 * written file not open as the one of `version`, the old bytes are read from `replaced` now.
 * Never throws: after the commit nothing may fail the call (C7.2); a failure is thrown by what
 * this returns.
 */
export function keepWritten(
  path: string,
  version: string,
  replaced: { file: Deno.FsFile; info: Deno.FileInfo; length: number },
  plan: KeptPlan,
): () => Uint8Array {
  const written = openWritten(path, version);
  const previous = sources.get(identityKey(replaced.info));
  let entry: Entry;
  if (!written) {
    try {
      entry = new Entry(null, [], readWhole(replaced.file, replaced.length));
    } catch (error) {
      entry = new Entry(null, [], null, error);
    }
  } else {
    const source = new Source(written.file, written.key);
    sources.set(written.key, source);
    entry = new Entry(source, [plan]);
    source.readers.add(entry);
    if (previous) {
      for (const reader of previous.readers) {
        reader.source = source;
        reader.undo.unshift(plan);
        source.readers.add(reader);
      }
      previous.readers.clear();
      previous.close();
    }
    for (const [, oldest] of sources) {
      if (sources.size <= MAX_KEPT || oldest === source) break;
      for (const reader of [...oldest.readers]) {
        try {
          reader.take(); // read into memory; the source is closed with its last reader
        } catch {
          // kept for that reader
        }
      }
      oldest.close();
    }
  }
  const load = () => entry.take();
  registry.register(load, entry);
  return load;
}

/** The file at `path`, open, when it is the file of `version` (its identity, size and mtime). */
function openWritten(path: string, version: string): { file: Deno.FsFile; key: string } | null {
  let file: Deno.FsFile | null = null;
  try {
    file = Deno.openSync(path, { read: true });
    const key = identityKey(file.statSync());
    if (version.startsWith(`${key}:`)) return { file, key };
  } catch {
    // not kept: the old bytes are read now
  }
  try {
    file?.close();
  } catch {
    // nothing to do
  }
  return null;
}

/** The first `length` bytes of `file`, from its start. */
function readWhole(file: Deno.FsFile, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  file.seekSync(0, Deno.SeekMode.Start);
  let filled = 0;
  while (filled < length) {
    const n = file.readSync(bytes.subarray(filled));
    if (n === null) throw new Error("the file an edit replaced shrank: its old bytes are lost");
    filled += n;
  }
  return bytes;
}

/**
 * The bytes before `plan` was applied, from the bytes after it.
 * @throws {Error} When a replacement is not where `plan` put it.
 */
export function undoReplacement(after: Uint8Array, plan: KeptPlan): Uint8Array {
  const { positions, needle, replacement } = plan;
  const grown = replacement.length - needle.length;
  const before = new Uint8Array(after.length - positions.length * grown);
  let from = 0; // in `after`
  let to = 0; // in `before`
  positions.forEach((position, i) => {
    const at = position + i * grown; // where the replacement starts in `after`
    const gap = after.subarray(from, at);
    before.set(gap, to);
    to += gap.length;
    const put = after.subarray(at, at + replacement.length);
    if (put.length !== replacement.length || !put.every((b, j) => b === replacement[j])) {
      throw new Error(
        "the file an edit wrote does not hold its replacement: its old bytes are lost",
      );
    }
    before.set(needle, to);
    to += needle.length;
    from = at + replacement.length;
  });
  before.set(after.subarray(from), to);
  return before;
}
