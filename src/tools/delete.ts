/**
 * The `delete` executor (CONTRACT C15.3): a file, a link itself, an empty directory, or with
 * `recursive` a tree, through the policy; never a root.
 *
 * @module
 */

import { FsError } from "../fs_error.ts";
import { ENTRY_MESSAGES, renderDelete } from "../render/entry_render.ts";
import type { DeleteValue } from "../types.ts";
import { invalid, optional, requireString } from "./_args.ts";
import type { Tool, ToolEnv, ToolSuccess } from "./_context.ts";
import { resolveEntry } from "./_entry.ts";
import { entryIntent, readChange } from "./_intents.ts";

/** Validated `delete` arguments. */
interface DeleteRequest {
  /** The path as the caller gave it. */
  path: string;
  /** Whether a non-empty directory goes with its contents. */
  recursive: boolean;
}

/** `delete`: its arguments checked, then the entry removed through the policy. */
export const deleteTool: Tool<DeleteRequest, DeleteValue> = { parse, run };

/** Checks `delete` arguments in the contract's order (C15.3). */
function parse(a: Record<string, unknown>): DeleteRequest {
  const path = requireString(a.path, ENTRY_MESSAGES.path);
  const recursive = optional(a.recursive) ?? false;
  if (typeof recursive !== "boolean") throw invalid(ENTRY_MESSAGES.recursive);
  return { path, recursive };
}

/** Runs `delete` with validated arguments. */
async function run(
  { path, recursive }: DeleteRequest,
  env: ToolEnv,
): Promise<ToolSuccess<DeleteValue>> {
  const { signal } = env;
  const { target, named } = await resolveEntry(env, path, "delete", true);
  return env.serialize(target.realPath, async () => {
    const entries = await env.fs.listTree(target, { versions: true, signal });
    if (!entries) throw new FsError("FS_NOT_FOUND");
    const type = entries[0].type;
    if (type === "directory" && entries.length > 1 && !recursive) {
      throw new FsError("FS_NOT_EMPTY");
    }
    const files = entries.filter((e) => e.type === "file").map(({ realPath, version }) => ({
      realPath,
      version,
    }));
    const file = { target, shown: named.displayPath };
    const condition = await env.policy.deleteIntent?.(entryIntent(env, named, {
      op: "delete",
      type,
      recursive,
      files,
      // A file's text, for a reviewer (a tree is its file count and list).
      change: type === "file" ? readChange(env, file, () => null) : undefined,
    })) ?? { kind: "none" };
    const removed = await env.fs.removeEntry(target, {
      recursive,
      expect: condition.kind === "versions" ? condition.versions : undefined,
      signal,
    });
    env.emit("delete", target, "");
    return {
      content: renderDelete(named.displayPath, removed),
      value: {
        path: target.path,
        type: removed.type,
        files: removed.files,
        directories: removed.directories,
      },
    };
  });
}
