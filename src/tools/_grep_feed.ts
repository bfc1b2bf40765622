// How `grep` reads a file (CONTRACT C11): chunks cut into blocks of whole lines, a block without
// the pattern's literals skipped undecoded, a large file streamed with bounded memory, a binary
// file refused. Private to src/tools.

import { FsError } from "../fs_error.ts";
import type { FsStat, FsTarget } from "../provider/fs_provider.ts";
import { concatBytes } from "../text/bytes.ts";
import { countNewlines } from "../text/newlines.ts";
import { firstCandidate, type GrepPattern, type GrepScanner } from "../text/grep_scan.ts";
import { looksBinary, type ToolEnv } from "./_context.ts";
import { pause } from "./_search_walk.ts";

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** One read buffer per call (its files are read one after another), not one per file. */
const buffers = new WeakMap<ToolEnv, Uint8Array>();
function bufferOf(env: ToolEnv): Uint8Array {
  let buffer = buffers.get(env);
  if (!buffer) buffers.set(env, buffer = new Uint8Array(1 << 20));
  return buffer;
}
const LF = 0x0a;

/**
 * Feeds one file to a scanner: a small file whole, a large one streamed in blocks cut at line
 * ends (bounded memory). Throws `FS_BINARY` for a binary file. `known`: the file's stat when the
 * caller has it already (a file named directly), so it is not asked for again.
 */
export async function scanFile(
  env: ToolEnv,
  target: FsTarget,
  scanner: GrepScanner,
  pattern: GrepPattern,
  context: number,
  single: boolean,
  known?: FsStat,
): Promise<void> {
  const { signal } = env;
  const fast = env.fs.searchChunks;
  if (fast) {
    const chunks = await fast.call(env.fs, target, {
      signal,
      verifyIf: () => scanner.matches > 0,
      buffer: bufferOf(env),
    });
    // In a directory search a binary file is skipped, which shows as a file without a match:
    // it is told apart only once it may match.
    await scanChunks(chunks, scanner, pattern, context, true, !single);
    return;
  }
  const stat = known ?? await env.fs.stat(target, { signal });
  if (!stat || stat.type !== "file") throw new FsError("FS_NOT_REGULAR_FILE");
  if (stat.size !== null && stat.size < env.config.readStreamMinSize) {
    const { bytes } = await env.fs.readText(target, { signal });
    await scanChunks([bytes], scanner, pattern, context);
    return;
  }
  const handle = await env.fs.streamText(target, { signal });
  try {
    await scanChunks(handle.chunks(0), scanner, pattern, context);
  } finally {
    handle.close();
  }
}

/**
 * Scans chunks (possibly reused buffers) in blocks of whole lines. `keeps`: each chunk stays
 * intact until the one after the next is drawn (then the previous one is kept uncopied).
 * `lazyBinary` (with `keeps`): the binary check waits until a block may match (or the second
 * chunk comes), for a caller that treats a binary file as one without matches.
 */
export async function scanChunks(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  scanner: GrepScanner,
  pattern: GrepPattern,
  context: number,
  keeps = false,
  lazyBinary = false,
): Promise<void> {
  const blocks = new BlockFeeder(scanner, pattern, context, keeps, keeps && lazyBinary);
  if (Symbol.asyncIterator in chunks) {
    for await (const chunk of chunks) blocks.chunk(chunk);
  } else {
    // A synchronous source (the provider's fast path): no promise per chunk; timers and the
    // abort signal still run between the chunks of a large file.
    let first = true;
    for (const chunk of chunks) {
      if (!first) await pause();
      first = false;
      blocks.chunk(chunk);
    }
  }
  blocks.end();
}

/**
 * Feeds blocks of whole lines to a scanner. A block without the pattern's literal is not
 * decoded; its lines are counted only when a later block of the file needs the numbers (most
 * files have no match at all, and then nothing is counted).
 */
class BlockFeeder {
  #deferred: Uint8Array | null = null;
  #blocks = 0;
  /** The partial line at the end of the last chunk: only it is copied, never a whole chunk. */
  #pending: Uint8Array | null = null;
  #first = true;
  /** The first chunk's head while its binary check waits (`lazyBinary`). */
  #head: Uint8Array | null = null;
  constructor(
    readonly scanner: GrepScanner,
    readonly pattern: GrepPattern,
    readonly context: number,
    readonly keeps: boolean,
    readonly lazyBinary = false,
  ) {}

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
    const pending = this.#pending;
    if (pending) {
      const lf = chunk.indexOf(LF);
      if (lf === -1) {
        this.#pending = concatBytes([pending, chunk]);
        return;
      }
      this.feed(concatBytes([pending, chunk.subarray(0, lf + 1)]), false);
      this.#pending = null;
      start = lf + 1;
    }
    const end = chunk.lastIndexOf(LF);
    if (end >= start) this.feed(chunk.subarray(start, end + 1), false);
    const rest = Math.max(start, end + 1);
    if (rest < chunk.length) this.#pending = chunk.slice(rest);
  }

  /** Feeds the last partial line, if any; a binary file is told apart even without a match. */
  end(): void {
    this.#checkHead();
    if (this.#pending) this.feed(this.#pending, true);
    this.#pending = null;
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
