/**
 * The `list` executor (CONTRACT C4.1): one directory's direct children.
 *
 * @module
 */

import { FsError } from "../fs_error.ts";
import { renderList } from "../render/list_render.ts";
import { displayPath } from "../provider/roots.ts";
import { VALIDATION_MESSAGES } from "../render/errors.ts";
import { optionalString } from "./_args.ts";
import { resolveIn, type Tool, type ToolEnv, type ToolSuccess } from "./_context.ts";
import type { ListValue } from "../types.ts";

/** `list`: its arguments checked, then the directory listed. */
export const listTool: Tool<string, ListValue> = { parse, run };

/** The directory as the caller gave it, or `.` for the session cwd (C4.1). */
function parse(a: Record<string, unknown>): string {
  return optionalString(a.path, VALIDATION_MESSAGES.pathWhenGiven) ?? ".";
}

/** Runs `list` with validated arguments: `path` is the directory, or the session cwd. */
async function run(path: string, env: ToolEnv): Promise<ToolSuccess<ListValue>> {
  const target = await resolveIn(env, path, "list");
  const stat = await env.fs.stat(target, { signal: env.signal });
  if (!stat) throw new FsError("FS_NOT_FOUND");
  if (stat.type !== "directory") throw new FsError("FS_NOT_DIRECTORY");
  const entries = await env.fs.listDir(target, { signal: env.signal });
  const view = renderList(displayPath(env.cwd, target.path), entries, env.config.listMaxEntries);
  return {
    content: view.text,
    value: { path: target.path, entries: view.entries, total: view.total },
  };
}
