/**
 * The `list` executor (CONTRACT C4.1): one directory's direct children.
 *
 * @module
 */

import { FsError } from "../fs_error.ts";
import { renderList } from "../render/list_render.ts";
import { displayPath } from "../provider/roots.ts";
import { resolveIn, type ToolEnv, type ToolSuccess } from "./_context.ts";
import type { ListValue } from "../types.ts";

/** Runs `list` with validated arguments: `path` is the directory, or the session cwd. */
export async function listTool(path: string, env: ToolEnv): Promise<ToolSuccess<ListValue>> {
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
