/**
 * The `grep` executor (CONTRACT C11): lines matching a regular expression (RE2 syntax, linear
 * time), in a file or below a directory.
 *
 * @module
 */

import { basename } from "node:path";
import { FsError } from "../fs_error.ts";
import type { FsTarget } from "../provider/fs_provider.ts";
import { displayPath } from "../provider/roots.ts";
import {
  type GrepFileView,
  invalidPatternMessage,
  renderGrepContent,
  renderGrepFiles,
  SEARCH_MESSAGES,
} from "../render/search_render.ts";
import { compileGlob } from "../text/glob_match.ts";
import {
  compileGrepPattern,
  type GrepPattern,
  GrepScanner,
  mayMatchBytes,
} from "../text/grep_scan.ts";
import { invalid, optional } from "./_args.ts";
import { looksBinary, resolveIn, type Tool, type ToolEnv, type ToolSuccess } from "./_context.ts";
import { pause, type SearchFile, walkEach } from "./_search_walk.ts";

/** The output modes of `grep`. */
export type GrepOutputMode = "content" | "files_with_matches" | "count";

const MODES: readonly GrepOutputMode[] = ["content", "files_with_matches", "count"];

import type { GrepValue } from "../types.ts";

/** Validated `grep` arguments. */
export interface GrepRequest {
  /** The pattern as given. */
  pattern: string;
  /** The compiled pattern. */
  compiled: GrepPattern;
  /** The search path as the caller gave it, or `undefined` for the session cwd. */
  path?: string;
  /** The file filter. */
  glob?: string;
  /** The output mode. */
  outputMode: GrepOutputMode;
  /** Context lines. */
  context: number;
}

/** `grep`: its arguments checked and the pattern compiled, then the lines matched. */
export const grepTool: Tool<GrepRequest, GrepValue> = { parse: parseGrep, run: runGrep };

/**
 * Checks `grep` arguments in the contract's order (C11) and compiles the pattern.
 *
 * @param a The arguments object.
 * @returns The request.
 */
function parseGrep(a: Record<string, unknown>): GrepRequest {
  const pattern = a.pattern;
  if (typeof pattern !== "string" || pattern === "") throw invalid(SEARCH_MESSAGES.pattern);
  const path = optional(a.path);
  if (path !== undefined && (typeof path !== "string" || path === "")) {
    throw invalid(SEARCH_MESSAGES.pathWhenGiven);
  }
  const glob = optional(a.glob);
  if (glob !== undefined && (typeof glob !== "string" || glob === "")) {
    throw invalid(SEARCH_MESSAGES.globWhenGiven);
  }
  const ignoreCase = optional(a.ignore_case) ?? false;
  if (typeof ignoreCase !== "boolean") throw invalid(SEARCH_MESSAGES.ignoreCase);
  const outputMode = optional(a.output_mode) ?? "content";
  if (!(MODES as readonly unknown[]).includes(outputMode)) {
    throw invalid(SEARCH_MESSAGES.outputMode);
  }
  const context = optional(a.context) ?? 0;
  if (
    typeof context !== "number" || !Number.isInteger(context) || context < 0 || context > 10
  ) {
    throw invalid(SEARCH_MESSAGES.context);
  }
  let compiled: GrepPattern;
  try {
    compiled = compileGrepPattern(pattern, ignoreCase);
  } catch (error) {
    throw invalid(invalidPatternMessage((error as Error).message));
  }
  return {
    pattern,
    compiled,
    path: path as string | undefined,
    glob: glob as string | undefined,
    outputMode: outputMode as GrepOutputMode,
    context,
  };
}

/** Runs `grep` with validated arguments. */
async function runGrep(
  request: GrepRequest,
  env: ToolEnv,
): Promise<ToolSuccess<GrepValue>> {
  const { signal, config } = env;
  const base = await resolveIn(env, request.path ?? ".", "grep");
  const shown = displayPath(env.cwd, base.path);
  const stat = await env.fs.stat(base, { signal });
  if (!stat) throw new FsError("FS_NOT_FOUND");
  const glob = request.glob === undefined ? null : compileGlob(request.glob);
  const single = stat.type === "file";
  if (!single && stat.type !== "directory") throw new FsError("FS_NOT_REGULAR_FILE");
  const content = request.outputMode === "content";
  let keep = content ? config.grepMaxMatches : 0;
  const views: (GrepFileView & { target: FsTarget; matches: number })[] = [];
  let totalMatches = 0;
  // Each file is searched as the walk reaches it, in path order (C9.4).
  const visit = async (file: SearchFile) => {
    await pause(signal);
    if (signal?.aborted) throw new FsError("FS_ABORTED");
    const scanner = new GrepScanner({ pattern: request.compiled, context: request.context, keep });
    try {
      await scanFile(env, file.target, scanner, request.compiled, request.context);
    } catch (error) {
      if (signal?.aborted) throw new FsError("FS_ABORTED");
      if (single) throw error;
      return; // unreadable or binary: skipped in a directory search
    }
    if (scanner.matches === 0) return;
    totalMatches += scanner.matches;
    keep = Math.max(0, keep - scanner.kept);
    views.push({
      path: displayPath(env.cwd, file.target.path),
      lines: scanner.lines,
      target: file.target,
      matches: scanner.matches,
    });
  };
  if (!single) await walkEach(env.fs, base, { glob, signal }, visit);
  else if (!glob || glob.match(basename(base.path))) await visit({ rel: "", target: base });
  const totals = { matches: totalMatches, files: views.length };
  const value: GrepValue = {
    path: base.path,
    pattern: request.pattern,
    matches: [],
    totalMatches,
    totalFiles: views.length,
  };
  if (content) {
    const view = renderGrepContent(shown, request.pattern, views, totals, {
      maxMatches: config.grepMaxMatches,
      maxBytes: config.readMaxBytes,
      maxLineLength: config.readMaxLineLength,
      context: request.context,
    });
    value.matches = view.rendered.map((r) => ({
      path: views[r.file].target.path,
      line: r.number,
      text: r.text,
    }));
    return { content: view.text, value };
  }
  const mode = request.outputMode as "files_with_matches" | "count";
  const view = renderGrepFiles(shown, request.pattern, views, totals, {
    mode,
    maxFiles: config.globMaxFiles,
    maxBytes: config.readMaxBytes,
  });
  value.matches = views.slice(0, view.shown).map((v) => ({
    path: v.target.path,
    line: 0,
    text: mode === "count" ? String(v.matches) : "",
  }));
  return { content: view.text, value };
}

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
 * ends (bounded memory). Throws `FS_BINARY` for a binary file.
 */
async function scanFile(
  env: ToolEnv,
  target: FsTarget,
  scanner: GrepScanner,
  pattern: GrepPattern,
  context: number,
): Promise<void> {
  const { signal } = env;
  const fast = env.fs.searchChunks;
  if (fast) {
    const chunks = await fast.call(env.fs, target, {
      signal,
      verifyIf: () => scanner.matches > 0,
      buffer: bufferOf(env),
    });
    await scanChunks(chunks, scanner, pattern, context, true);
    return;
  }
  const stat = await env.fs.stat(target, { signal });
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
 */
export async function scanChunks(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  scanner: GrepScanner,
  pattern: GrepPattern,
  context: number,
  keeps = false,
): Promise<void> {
  const blocks = new BlockFeeder(scanner, pattern, context, keeps);
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

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
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
  constructor(
    readonly scanner: GrepScanner,
    readonly pattern: GrepPattern,
    readonly context: number,
    readonly keeps: boolean,
  ) {}

  /** Takes the file's next chunk (the first one is checked for binary content). */
  chunk(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (this.#first) {
      this.#first = false;
      if (looksBinary(chunk.subarray(0, 8192))) throw new FsError("FS_BINARY");
    } else this.settle();
    let start = 0;
    const pending = this.#pending;
    if (pending) {
      const lf = chunk.indexOf(LF);
      if (lf === -1) {
        this.#pending = join(pending, chunk);
        return;
      }
      this.feed(join(pending, chunk.subarray(0, lf + 1)), false);
      this.#pending = null;
      start = lf + 1;
    }
    const end = chunk.lastIndexOf(LF);
    if (end >= start) this.feed(chunk.subarray(start, end + 1), false);
    const rest = Math.max(start, end + 1);
    if (rest < chunk.length) this.#pending = chunk.slice(rest);
  }

  /** Feeds the last partial line, if any. */
  end(): void {
    if (this.#pending) this.feed(this.#pending, true);
    this.#pending = null;
  }

  feed(bytes: Uint8Array, final: boolean): void {
    const { scanner, pattern, context } = this;
    const first = this.#blocks++ === 0;
    if (context === 0 && !mayMatchBytes(bytes, pattern)) {
      this.#flush();
      if (final) return;
      // The first block is kept (the chunk may be a reused buffer) and counted only if a later
      // one matches: copying is far cheaper than counting, and most files end after it. Later
      // blocks of a big file are counted at once, so memory stays bounded.
      if (first) this.#deferred = this.keeps ? bytes : bytes.slice();
      else this.scanner.skipLines(countLines(bytes));
      return;
    }
    this.#flush();
    if (!scanner.feedBytes(bytes, final)) scanner.feed(decoder.decode(bytes), final);
  }

  /** Counts a deferred block now (a new chunk arrived: the block's bytes may be reused next). */
  settle(): void {
    this.#flush();
  }

  #flush(): void {
    const bytes = this.#deferred;
    if (!bytes) return;
    this.#deferred = null;
    this.scanner.skipLines(countLines(bytes));
  }
}

function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (let i = bytes.indexOf(LF); i !== -1; i = bytes.indexOf(LF, i + 1)) lines++;
  return lines;
}
