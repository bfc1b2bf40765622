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
  globTooLongMessage,
  type GrepFileView,
  invalidPatternMessage,
  renderGrepContent,
  renderGrepFiles,
  SEARCH_MESSAGES,
} from "../render/search_render.ts";
import { compileGlob, GLOB_MAX_LENGTH } from "../text/glob_match.ts";
import { compileGrepPattern, type GrepPattern, GrepScanner } from "../text/grep_scan.ts";
import { invalid, optional, optionalString, requireString } from "./_args.ts";
import { VALIDATION_MESSAGES } from "../render/errors.ts";
import { resolveIn, type Tool, type ToolEnv, type ToolSuccess } from "./_context.ts";
import { AheadFilter } from "./_grep_ahead.ts";
import { scanFile } from "./_grep_feed.ts";
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
  const pattern = requireString(a.pattern, SEARCH_MESSAGES.pattern);
  const path = optionalString(a.path, VALIDATION_MESSAGES.pathWhenGiven);
  const glob = optionalString(a.glob, SEARCH_MESSAGES.globWhenGiven);
  if (glob !== undefined && glob.length > GLOB_MAX_LENGTH) {
    throw invalid(globTooLongMessage("glob", GLOB_MAX_LENGTH));
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
    path,
    glob,
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
  const search = async (file: SearchFile) => {
    await pause(signal);
    if (signal?.aborted) throw new FsError("FS_ABORTED");
    const scanner = new GrepScanner({ pattern: request.compiled, context: request.context, keep });
    try {
      const known = single ? stat : undefined;
      await scanFile(env, file.target, scanner, request.compiled, request.context, single, known);
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
  if (single) {
    if (!glob || glob.match(basename(base.path))) await search({ rel: "", target: base });
  } else {
    // Files that surely lack a literal are told apart ahead, on another thread when the
    // provider can; the others are searched in path order.
    const ahead = AheadFilter.create(env.fs, request.compiled.literals, search, signal);
    // Only files whose reads pass the provider's check are reported (`verifyIf` in scanFile).
    const options = { glob, signal, verifiedReadsOnly: true };
    await walkEach(env.fs, base, options, ahead ? (file) => ahead.add(file) : search);
    await ahead?.finish();
  }
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
