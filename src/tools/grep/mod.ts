/**
 * The `grep` executor (CONTRACT C11): lines matching a regular expression (RE2 syntax, linear
 * time), in a file or below a directory.
 *
 * @module
 */

import { basename } from "node:path";
import { FsError } from "../../fs_error.ts";
import type { FsStat, FsTarget } from "../../provider/fs_provider.ts";
import { displayPath } from "../../provider/roots.ts";
import {
  globTooLongMessage,
  grepContextMessage,
  type GrepFileView,
  grepOffsetMessage,
  grepOutputModeMessage,
  grepTimeDetail,
  invalidPatternMessage,
  patternTooLargeMessage,
  renderGrepContent,
  renderGrepFiles,
  repeatBudgetMessage,
  SEARCH_MESSAGES,
  unsupportedPatternMessage,
} from "../../render/search_render.ts";
import { GLOB_MAX_LENGTH } from "../../text/glob_match.ts";
import { compileGlobSet } from "../../text/glob_set.ts";
import { repeatTotal, unsupportedConstruct } from "../../text/re2_limits.ts";
import {
  compileGrepPattern,
  type GrepPattern,
  GrepPatternTooLarge,
  GrepScanner,
} from "../../text/grep_scan.ts";
import {
  invalid,
  isPositiveInteger,
  longestGlob,
  optional,
  optionalString,
  requireGlobs,
  requireString,
} from "../_args.ts";
import { VALIDATION_MESSAGES } from "../../render/errors.ts";
import { resolveIn, type Tool, type ToolEnv, type ToolSuccess } from "../_context.ts";
import { prefilter } from "./prefilter.ts";
import { FileTimedOut, scanFile } from "./scan.ts";
import { observeRendered, type RenderedFile } from "./observe.ts";
import { walk } from "./walk.ts";
import { YieldClock } from "../yield_clock.ts";
import {
  GREP_MAX_CONTEXT,
  GREP_OUTPUT_MODES,
  type GrepOutputMode,
} from "../../present/specs/mod.ts";

export type { GrepOutputMode } from "../../present/specs/mod.ts";

import type { GrepValue } from "../../types.ts";

/** Validated `grep` arguments. */
export interface GrepRequest {
  /** The pattern as given. */
  pattern: string;
  /** The compiled pattern. */
  compiled: GrepPattern;
  /** The search path as the caller gave it, or `undefined` for the session cwd. */
  path?: string;
  /** The file filter as given: one glob or several (C9.3). */
  glob?: string | string[];
  /** The output mode. */
  outputMode: GrepOutputMode;
  /** Context lines. */
  context: number;
  /** The first matching line (`content`) or file (other modes) to show, 1-based. */
  offset: number;
  /** The most matching lines (`content`) or files (other modes) to show, or `undefined`. */
  limit?: number;
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
  const pattern = requireString(a.pattern, SEARCH_MESSAGES.pattern);
  const path = optionalString(a.path, VALIDATION_MESSAGES.pathWhenGiven);
  const globGiven = optional(a.glob);
  const glob = globGiven === undefined
    ? undefined
    : requireGlobs(globGiven, SEARCH_MESSAGES.globWhenGiven, SEARCH_MESSAGES.globList);
  if (glob !== undefined && longestGlob(glob) > GLOB_MAX_LENGTH) {
    throw invalid(globTooLongMessage("glob", GLOB_MAX_LENGTH));
  }
  const ignoreCase = optional(a.ignore_case) ?? false;
  if (typeof ignoreCase !== "boolean") throw invalid(SEARCH_MESSAGES.ignoreCase);
  const outputMode = optional(a.output_mode) ?? GREP_OUTPUT_MODES[0];
  if (!(GREP_OUTPUT_MODES as readonly unknown[]).includes(outputMode)) {
    throw invalid(grepOutputModeMessage(GREP_OUTPUT_MODES));
  }
  const context = optional(a.context) ?? 0;
  if (
    typeof context !== "number" || !Number.isInteger(context) || context < 0 ||
    context > GREP_MAX_CONTEXT
  ) {
    throw invalid(grepContextMessage(GREP_MAX_CONTEXT));
  }
  const offset = optional(a.offset) ?? 1;
  if (!isPositiveInteger(offset)) throw invalid(SEARCH_MESSAGES.offset);
  const limit = optional(a.limit);
  if (limit !== undefined && !isPositiveInteger(limit)) throw invalid(VALIDATION_MESSAGES.limit);
  let compiled: GrepPattern;
  try {
    compiled = compileGrepPattern(pattern, ignoreCase);
  } catch (error) {
    if (error instanceof GrepPatternTooLarge) {
      throw invalid(patternTooLargeMessage(error.kind, error.size, error.max));
    }
    const message = (error as Error).message;
    const total = repeatTotal(pattern);
    if (total > 1000 && /invalid repeat count/.test(message) && !unsupportedConstruct(pattern)) {
      throw invalid(repeatBudgetMessage(total)); // every count is within the limit (C11)
    }
    const construct = unsupportedConstruct(pattern, message);
    throw invalid(
      construct ? unsupportedPatternMessage(construct) : invalidPatternMessage(message),
    );
  }
  return {
    pattern,
    compiled,
    path,
    glob,
    outputMode: outputMode as GrepOutputMode,
    context,
    offset,
    limit,
  };
}

/** The most items a view shows: `limit` shows fewer than the cap, never more (C11). */
function shownMax(request: GrepRequest, cap: number): number {
  return Math.min(request.limit ?? Infinity, cap);
}

/** What the search found, file by file. */
interface Found {
  /** Files with a match, in path order. */
  views: (GrepFileView & { target: FsTarget; matches: number })[];
  totalMatches: number;
  /** Files searched (C11 `<s>`). */
  searched: number;
  /** Files given up for time (`grepFileTimeMs`). */
  skipped: FsTarget[];
  /** Matching lines still kept with their text (`content` mode). */
  keep: number;
}

/** Runs `grep` with validated arguments: resolve, walk, prefilter, search each file, render. */
async function runGrep(
  request: GrepRequest,
  env: ToolEnv,
): Promise<ToolSuccess<GrepValue>> {
  const { signal, config } = env;
  const base = await resolveIn(env, request.path ?? ".", "grep");
  const stat = await env.fs.stat(base, { signal });
  if (!stat) throw new FsError("FS_NOT_FOUND");
  if (stat.type !== "file" && stat.type !== "directory") throw new FsError("FS_NOT_REGULAR_FILE");
  const glob = request.glob === undefined ? null : compileGlobSet(request.glob);
  const content = request.outputMode === "content";
  const found: Found = {
    views: [],
    totalMatches: 0,
    searched: 0,
    skipped: [],
    // Matching lines before the window are kept too: the view skips them.
    keep: content ? request.offset - 1 + shownMax(request, config.grepMaxMatches) : 0,
  };
  const clock = new YieldClock(signal);
  const search = (target: FsTarget, single: boolean) =>
    searchFile(env, request, found, { target, single, clock, known: single ? stat : undefined });
  if (stat.type === "file") {
    if (!glob || glob.match(basename(base.path))) await search(base, true);
  } else {
    // Only files whose reads pass the provider's check are reported (`verify()` in scanFile),
    // so the listings below `base` skip their own (ARCHITECTURE.md, the search's trade-off).
    const files = walk(env.fs, base, { glob, signal, clock, verifiedReadsOnly: true });
    // Files that surely lack a literal are told apart ahead, on another thread when the
    // provider can; the others are searched in path order (C9.4).
    const needles = request.compiled.literals;
    const candidates = prefilter(files, { search: env.fs.search, needles, signal });
    for await (const file of candidates) await search(file.target, false);
    found.searched += candidates.ruledOut; // read ahead: searched, without a match
  }
  return renderFound(request, env, base, found);
}

/** What {@linkcode searchFile} searches. */
interface FileSearch {
  target: FsTarget;
  /** The file named as `path` (its errors are the call's). */
  single: boolean;
  /** The call's yield clock. */
  clock: YieldClock;
  /** Its stat, when known. */
  known?: FsStat;
}

/**
 * Searches one file within `grepFileTimeMs` and adds what it holds to `found`. In a directory
 * search an unreadable or binary file is skipped, and one whose search takes too long is given
 * up and named after the footer; named as `path`, either is the call's error.
 */
async function searchFile(
  env: ToolEnv,
  request: GrepRequest,
  found: Found,
  file: FileSearch,
): Promise<void> {
  const { signal, config } = env;
  const { target, single, clock } = file;
  await clock.pause();
  if (signal?.aborted) throw new FsError("FS_ABORTED");
  const pattern = request.compiled;
  const context = request.context;
  const scanner = new GrepScanner({ pattern, context, keep: found.keep });
  const deadline = performance.now() + config.grepFileTimeMs;
  try {
    await scanFile(env, target, scanner, {
      pattern,
      context,
      single,
      known: file.known,
      clock,
      deadline,
    });
  } catch (error) {
    if (signal?.aborted) throw new FsError("FS_ABORTED");
    if (error instanceof FileTimedOut) {
      if (single) {
        throw new FsError("FS_IO_ERROR", { detail: grepTimeDetail(config.grepFileTimeMs) });
      }
      found.skipped.push(target);
      return;
    }
    if (single) throw error;
    if (error instanceof FsError && error.code === "FS_OUTSIDE_ROOT") {
      // Read through a directory swapped for a link out: counted as a file without a match,
      // whatever it holds, so not even the count tells its content (ARCHITECTURE.md).
      found.searched++;
    }
    return; // unreadable or binary: skipped in a directory search
  }
  found.searched++;
  if (scanner.matches === 0) return;
  found.totalMatches += scanner.matches;
  found.keep = Math.max(0, found.keep - scanner.kept);
  found.views.push({
    path: displayPath(env.cwd, target.path),
    lines: scanner.lines,
    target,
    matches: scanner.matches,
  });
}

/** The view of what was found, in the request's mode and window (C9.6–C9.8, C11). */
async function renderFound(
  request: GrepRequest,
  env: ToolEnv,
  base: FsTarget,
  found: Found,
): Promise<ToolSuccess<GrepValue>> {
  const { config } = env;
  const { views, totalMatches, searched } = found;
  const shown = displayPath(env.cwd, base.path);
  const content = request.outputMode === "content";
  const skipped = found.skipped.length === 0 ? undefined : {
    paths: found.skipped.map((target) => displayPath(env.cwd, target.path)),
    ms: config.grepFileTimeMs,
  };
  const counts = { matches: totalMatches, files: views.length, searched, skipped };
  const mode = request.outputMode;
  // `offset` counts matching lines in `content` mode, files in the others.
  const items = content ? totalMatches : views.length;
  if (request.offset > Math.max(items, 1)) {
    throw new FsError("FS_OFFSET_OUT_OF_RANGE", {
      message: grepOffsetMessage(request.offset, request.pattern, counts, mode),
    });
  }
  const value: GrepValue = {
    path: base.path,
    pattern: request.pattern,
    matches: [],
    totalMatches,
    totalFiles: views.length,
  };
  const window = { offset: request.offset, maxBytes: config.readMaxBytes };
  if (content) {
    const view = renderGrepContent(
      shown,
      request.pattern,
      views,
      counts,
      { ...window, max: shownMax(request, config.grepMaxMatches) },
      { maxLineLength: config.readMaxLineLength, context: request.context },
    );
    value.matches = view.rendered.map((r) => ({
      path: views[r.file].target.path,
      line: r.number,
      text: r.text,
    }));
    // C9.6: the files whose lines this view shows count as read, at the version searched.
    const rendered = new Map<number, RenderedFile>();
    for (const r of view.rendered) {
      const file = rendered.get(r.file) ?? { target: views[r.file].target, lines: [] };
      (file.lines as { number: number; text: string }[]).push(r);
      rendered.set(r.file, file);
    }
    await observeRendered(env, [...rendered.values()]);
    return { content: view.text, value };
  }
  const filesMode = mode as "files_with_matches" | "count";
  const view = renderGrepFiles(shown, request.pattern, views, counts, filesMode, {
    ...window,
    max: shownMax(request, config.globMaxFiles),
  });
  const from = request.offset - 1;
  value.matches = views.slice(from, from + view.shown).map((v) => ({
    path: v.target.path,
    line: 0,
    text: filesMode === "count" ? String(v.matches) : "",
  }));
  return { content: view.text, value };
}
