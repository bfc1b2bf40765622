/**
 * The `glob` executor (CONTRACT C10): files whose path matches a pattern.
 *
 * @module
 */

import { FsError } from "../fs_error.ts";
import { displayPath } from "../provider/roots.ts";
import { globTooLongMessage, renderGlob, SEARCH_MESSAGES } from "../render/search_render.ts";
import { compileGlob, GLOB_MAX_LENGTH } from "../text/glob_match.ts";
import { invalid, optionalString, requireString } from "./_args.ts";
import { VALIDATION_MESSAGES } from "../render/errors.ts";
import { resolveIn, type Tool, type ToolEnv, type ToolSuccess } from "./_context.ts";
import { walkFiles } from "./_search_walk.ts";

import type { GlobValue } from "../types.ts";

/** Validated `glob` arguments. */
export interface GlobRequest {
  /** The glob. */
  pattern: string;
  /** The search directory as the caller gave it, or `undefined` for the session cwd. */
  path?: string;
}

/** `glob`: its arguments checked, then the files below the directory matched. */
export const globTool: Tool<GlobRequest, GlobValue> = { parse: parseGlob, run: runGlob };

/**
 * Checks `glob` arguments in the contract's order (C10).
 *
 * @param a The arguments object.
 * @returns The request.
 */
function parseGlob(a: Record<string, unknown>): GlobRequest {
  const pattern = requireString(a.pattern, SEARCH_MESSAGES.pattern);
  if (pattern.length > GLOB_MAX_LENGTH) {
    throw invalid(globTooLongMessage("pattern", GLOB_MAX_LENGTH));
  }
  return { pattern, path: optionalString(a.path, VALIDATION_MESSAGES.pathWhenGiven) };
}

/** Runs `glob` with validated arguments. */
async function runGlob(
  request: GlobRequest,
  env: ToolEnv,
): Promise<ToolSuccess<GlobValue>> {
  const { signal, config } = env;
  const base = await resolveIn(env, request.path ?? ".", "glob");
  const shown = displayPath(env.cwd, base.path);
  const stat = await env.fs.stat(base, { signal });
  if (!stat) throw new FsError("FS_NOT_FOUND");
  if (stat.type !== "directory") throw new FsError("FS_NOT_DIRECTORY");
  const files = await walkFiles(env.fs, base, { glob: compileGlob(request.pattern), signal });
  if (signal?.aborted) throw new FsError("FS_ABORTED");
  const view = renderGlob(
    shown,
    request.pattern,
    files.map((f) => displayPath(env.cwd, f.target.path)),
    config.globMaxFiles,
    config.readMaxBytes,
  );
  return {
    content: view.text,
    value: {
      path: base.path,
      pattern: request.pattern,
      files: files.slice(0, view.shown).map((f) => f.target.path),
      total: files.length,
    },
  };
}
