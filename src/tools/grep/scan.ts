// How `grep` reads a file (CONTRACT C11): chunks cut into blocks of whole lines, a block without
// the pattern's literals skipped undecoded, a large file streamed with bounded memory, a binary
// file refused, a file whose search outlasts `grepFileTimeMs` given up. Used only by grep (src/tools/grep/).

import { FsError } from "../../fs_error.ts";
import type { FsStat, FsTarget } from "../../provider/fs_provider.ts";
import { concatBytes } from "../../text/bytes.ts";
import { countNewlines } from "../../text/newlines.ts";
import { firstCandidate, type GrepPattern, type GrepScanner } from "../../text/grep_scan.ts";
import { looksBinary, type ToolEnv } from "../_context.ts";
import { YieldClock } from "../yield_clock.ts";

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** One read buffer per call (its files are read one after another), not one per file. */
const buffers = new WeakMap<ToolEnv, Uint8Array>();
function bufferOf(env: ToolEnv): Uint8Array {
  let buffer = buffers.get(env);
  if (!buffer) buffers.set(env, buffer = new Uint8Array(1 << 20));
  return buffer;
}
const LF = 0x0a;

/** A file's search outlasted its deadline (`grepFileTimeMs`, issue 19): it is given up. */
export class FileTimedOut extends Error {
  constructor() {
    super("the file's search outlasted its deadline");
    this.name = "FileTimedOut";
  }
}

/** How {@linkcode scanChunks} feeds a file. */
export interface ScanOptions {
  /** The compiled pattern. */
  pattern: GrepPattern;
  /** Context lines (0: a block is tested for the pattern's literals before it is decoded). */
  context: number;
  /**
   * The chunks come from the provider's shared buffer: each stays intact until the one after
   * the next is drawn, so the previous one is kept uncopied.
   * @default {false}
   */
  reusedChunks?: boolean;
  /**
   * With `reusedChunks`: the binary check waits until a block may match (or the second chunk
   * comes), for a caller that treats a binary file as one without matches.
   * @default {false}
   */
  lazyBinary?: boolean;
  /** The call's yield clock (and its signal). Default: a clock of its own, without a signal. */
  clock?: YieldClock;
  /** `performance.now()` past which the scan throws {@linkcode FileTimedOut}. */
  deadline?: number;
}

/** How {@linkcode scanFile} reads a file: {@linkcode ScanOptions} and what the caller knows. */
export interface ScanFileOptions extends Omit<ScanOptions, "reusedChunks" | "lazyBinary"> {
  /**
   * The file was named as grep's `path`: a binary file is an error told at once, and what was
   * read is checked to lie inside a root whatever the outcome.
   */
  single: boolean;
  /** The file's stat when the caller has it already (a file named directly). */
  known?: FsStat;
}

/**
 * Feeds one file to a scanner: a small file whole, a large one streamed in blocks cut at line
 * ends (bounded memory). Throws `FS_BINARY` for a binary file and {@linkcode FileTimedOut}
 * past the deadline. Through the provider's search fast path, what was read is checked to lie
 * inside a root (`verify()`) before anything of the file can be reported: when it matched, was
 * given up, is binary, or was named directly (`FS_OUTSIDE_ROOT` then).
 */
export async function scanFile(
  env: ToolEnv,
  target: FsTarget,
  scanner: GrepScanner,
  options: ScanFileOptions,
): Promise<void> {
  const { signal } = env;
  const { single } = options;
  const search = env.fs.search;
  if (search) {
    const read = await search.readChunks(target, { signal, buffer: bufferOf(env) });
    // In a directory search a binary file is skipped, which shows as a file without a match:
    // it is told apart only once it may match.
    const { pattern, context, clock, deadline } = options;
    const scan = { pattern, context, reusedChunks: true, lazyBinary: !single, clock, deadline };
    try {
      await scanChunks(read.chunks, scanner, scan);
      if (single || scanner.matches > 0) await read.verify();
    } catch (error) {
      // A file given up is named, and a binary one left out of the count: both are told from
      // what was read, so it is checked first (FS_OUTSIDE_ROOT instead).
      const binary = error instanceof FsError && error.code === "FS_BINARY";
      if (single || binary || error instanceof FileTimedOut) await read.verify();
      throw error;
    } finally {
      read.close();
    }
    return;
  }
  const stat = options.known ?? await env.fs.stat(target, { signal });
  if (!stat || stat.type !== "file") throw new FsError("FS_NOT_REGULAR_FILE");
  if (stat.size !== null && stat.size < env.config.readStreamMinSize) {
    // Decided again on the open file: one that grew past the limit is streamed (C7.4).
    const wholeMaxSize = env.config.readStreamMinSize - 1;
    const { bytes, tooLarge } = await env.fs.readText(target, { signal, wholeMaxSize });
    if (!tooLarge) {
      await scanChunks([bytes], scanner, options);
      return;
    }
  }
  const handle = await env.fs.streamText(target, { signal });
  try {
    await scanChunks(handle.chunks(0), scanner, options);
  } finally {
    handle.close();
  }
}

/**
 * Scans chunks in blocks of whole lines.
 *
 * A chunk is fed in pieces of at most `pattern.lineChars` bytes (so one piece's tests take about
 * the engine's work budget, `GREP_TEST_WORK`), and between pieces timers and the signal run at
 * least every 10 ms (`clock.pause()`), and the deadline is checked: a costly pattern neither
 * freezes the thread nor outlives an abort, nor keeps one file searched for ever (issue 19).
 */
export async function scanChunks(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  scanner: GrepScanner,
  options: ScanOptions,
): Promise<void> {
  const { pattern, deadline } = options;
  const clock = options.clock ?? new YieldClock();
  const blocks = new BlockFeeder(scanner, options);
  const piece = Math.max(PIECE_MIN, pattern.lineChars);
  // The deadline is checked before each piece but the first: a file of one piece (most files)
  // costs one engine budget at most, and is never given up.
  let fed = false;
  const feed = async (chunk: Uint8Array) => {
    for (let at = 0; at < chunk.length; at += piece) {
      if (at > 0) await clock.pause();
      if (fed && deadline !== undefined && performance.now() > deadline) throw new FileTimedOut();
      fed = true;
      blocks.chunk(at === 0 && chunk.length <= piece ? chunk : chunk.subarray(at, at + piece));
    }
  };
  if (Symbol.asyncIterator in chunks) {
    for await (const chunk of chunks) {
      await clock.pause();
      await feed(chunk);
    }
  } else {
    // A synchronous source (the provider's fast path): no promise per chunk; timers and the
    // abort signal still run between the chunks of a large file.
    let first = true;
    for (const chunk of chunks) {
      if (!first) await clock.pause();
      first = false;
      await feed(chunk);
    }
  }
  blocks.end();
}

/** The smallest piece of a chunk fed at once. */
const PIECE_MIN = 16 * 1024;
/**
 * Bytes of one line held for matching (issue 19, C11 "bounded memory"): a longer line is
 * matched on its first `LINE_MAX` bytes, and the rest is only scanned for its end.
 */
export const LINE_MAX = 1 << 20;
/** A run of NUL bytes this long makes a file binary (CONTRACT C4.2, a sparse file). */
const NUL_RUN = 1 << 20;

/**
 * Feeds blocks of whole lines to a scanner. A block without the pattern's literal is not
 * decoded; its lines are counted only when a later block of the file needs the numbers (most
 * files have no match at all, and then nothing is counted).
 */
class BlockFeeder {
  readonly pattern: GrepPattern;
  readonly context: number;
  /** The chunks are reused buffers (kept uncopied until the one after the next comes). */
  readonly keeps: boolean;
  readonly lazyBinary: boolean;
  #deferred: Uint8Array | null = null;
  #blocks = 0;
  /**
   * The partial line at the end of the last chunk, in parts (joined once its end comes): only
   * it is copied, never a whole chunk, and at most `LINE_MAX` bytes of it.
   */
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** NUL bytes ending the partial line (C4.2's run rule). */
  #nulRun = 0;
  #first = true;
  /** The first chunk's head while its binary check waits (`lazyBinary`). */
  #head: Uint8Array | null = null;
  constructor(readonly scanner: GrepScanner, options: ScanOptions) {
    this.pattern = options.pattern;
    this.context = options.context;
    this.keeps = options.reusedChunks === true;
    this.lazyBinary = this.keeps && options.lazyBinary === true;
  }

  /** Takes the file's next chunk (the first one is checked for binary content). */
  chunk(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (this.#first) {
      this.#first = false;
      const head = chunk.subarray(0, 8192);
      if (this.lazyBinary) this.#head = head;
      else if (looksBinary(head)) throw new FsError("FS_BINARY");
    } else this.settle();
    let start = 0;
    if (this.#pending.length > 0) {
      const lf = chunk.indexOf(LF);
      if (lf === -1) {
        this.#hold(chunk);
        return;
      }
      this.#hold(chunk.subarray(0, lf + 1));
      this.feed(this.#takePending(), false);
      start = lf + 1;
    }
    const end = chunk.lastIndexOf(LF);
    if (end >= start) this.feed(chunk.subarray(start, end + 1), false);
    const rest = Math.max(start, end + 1);
    if (rest < chunk.length) this.#hold(chunk.subarray(rest));
  }

  /** Feeds the last partial line, if any; a binary file is told apart even without a match. */
  end(): void {
    this.#checkHead();
    if (this.#pending.length > 0) this.feed(this.#takePending(), true);
  }

  /**
   * Keeps (a copy of) the start of a partial line, up to `LINE_MAX` bytes in all (a line's end
   * is kept whatever its length); a run of `NUL_RUN` NUL bytes makes the file binary.
   */
  #hold(bytes: Uint8Array): void {
    let zeros = 0;
    while (zeros < bytes.length && bytes[bytes.length - 1 - zeros] === 0) zeros++;
    this.#nulRun = zeros === bytes.length ? this.#nulRun + zeros : zeros;
    if (this.#nulRun >= NUL_RUN) throw new FsError("FS_BINARY");
    const room = LINE_MAX - this.#pendingBytes;
    const endsLine = bytes.length > 0 && bytes[bytes.length - 1] === LF;
    if (bytes.length <= room) {
      this.#pending.push(bytes.slice());
      this.#pendingBytes += bytes.length;
    } else {
      if (room > 0) this.#pending.push(bytes.slice(0, room));
      this.#pendingBytes = LINE_MAX;
      if (endsLine) this.#pending.push(new Uint8Array([LF]));
    }
  }

  #takePending(): Uint8Array {
    const line = this.#pending.length === 1 ? this.#pending[0] : concatBytes(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#nulRun = 0;
    return line;
  }

  feed(bytes: Uint8Array, final: boolean): void {
    const { scanner, pattern, context } = this;
    const first = this.#blocks++ === 0;
    const firstAt = context === 0 ? firstCandidate(bytes, pattern) : 0;
    if (firstAt === -1) {
      this.#flush();
      if (final) return;
      // The first block is kept (the chunk may be a reused buffer) and counted only if a later
      // one matches: copying is far cheaper than counting, and most files end after it. Later
      // blocks of a big file are counted at once, so memory stays bounded.
      if (first) this.#deferred = this.keeps ? bytes : bytes.slice();
      else this.scanner.skipLines(countNewlines(bytes));
      return;
    }
    this.#flush();
    this.#checkHead();
    if (!scanner.feedBytes(bytes, context === 0 ? firstAt : undefined)) {
      scanner.feed(decoder.decode(bytes));
    }
  }

  /**
   * Settles what the first chunk left waiting (a new chunk arrived: the first chunk's bytes may
   * be reused after it): its binary check, and the count of a deferred block.
   */
  settle(): void {
    this.#checkHead();
    this.#flush();
  }

  #checkHead(): void {
    const head = this.#head;
    if (!head) return;
    this.#head = null;
    if (looksBinary(head)) throw new FsError("FS_BINARY");
  }

  #flush(): void {
    const bytes = this.#deferred;
    if (!bytes) return;
    this.#deferred = null;
    this.scanner.skipLines(countNewlines(bytes));
  }
}
