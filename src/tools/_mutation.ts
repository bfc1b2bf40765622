// The common front of `write` and `edit`. Private to src/tools.

import { FsError } from "../fs_error.ts";
import type { FsPrecondition, FsTarget } from "../provider/fs_provider.ts";
import { displayPath } from "../provider/roots.ts";
import type { EditRequest } from "../text/edit_apply.ts";
import { MAX_TEXT_BYTES, resolveIn, tooLarge, type ToolEnv } from "./_context.ts";
import { edited, fileIntent, readChange } from "./_intents.ts";

/** What a write or edit proceeds with once the checks before it have passed. */
export interface MutationGate {
  target: FsTarget;
  /** The display path (C3.4). */
  shown: string;
  /** The policy's condition, for the provider to check under its lock. */
  precondition: FsPrecondition;
}

/**
 * Resolves `filePath`, then, queued behind this instance's other mutations of the same file,
 * checks existence and type, the size limit and the policy, in the order of C3.8, and runs
 * `mutation` with the outcome. `edit` is `edit`'s request, which the intent shows.
 */
export async function gated<T>(
  env: ToolEnv,
  op: "write" | "edit",
  filePath: string,
  content: string,
  mutation: (gate: MutationGate) => Promise<T>,
  edit?: EditRequest,
): Promise<T> {
  const { signal } = env;
  const target = await resolveIn(env, filePath, op);
  return env.serialize(target.realPath, async () => {
    const stat = await env.fs.stat(target, { signal });
    if (!stat && op === "edit") throw new FsError("FS_NOT_FOUND");
    if (stat && stat.type !== "file") throw new FsError("FS_NOT_REGULAR_FILE");
    if (stat?.size != null && stat.size > MAX_TEXT_BYTES) throw tooLarge(stat.size);
    const shown = displayPath(env.cwd, target.path);
    const file = { target, shown };
    const intent = fileIntent(env, file, {
      op,
      tool: op,
      exists: stat !== null,
      content,
      edit,
      change: readChange(env, file, edit ? edited(edit) : () => content),
    });
    const precondition =
      await (op === "write" ? env.policy.writeIntent(intent) : env.policy.editIntent(intent));
    return mutation({ target, shown, precondition });
  });
}
