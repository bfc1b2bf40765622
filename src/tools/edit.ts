/**
 * The `edit` executor (CONTRACT C4.4): a literal, unique (or `replace_all`) replacement,
 * applied on bytes under the file's lock and committed atomically.
 *
 * @module
 */

import { FsError } from "../fs_error.ts";
import { displayPath } from "../provider/roots.ts";
import { matchMessage } from "../render/errors.ts";
import { renderEdit } from "../render/mutation_render.ts";
import { bytesToText, looksBinary, resolveIn, type ToolEnv, type ToolSuccess } from "./_context.ts";
import { applyEdit, type EditRequest, MatchError } from "./_edit_apply.ts";

/** The structured value of an `edit` (C6). */
export interface EditValue {
  /** The file's absolute lexical path. */
  path: string;
  /** The text before, without a BOM. */
  before: string;
  /** The text after, without a BOM. */
  after: string;
}

/** Runs `edit` with validated arguments. */
export async function editTool(
  filePath: string,
  request: EditRequest,
  env: ToolEnv,
): Promise<ToolSuccess<EditValue>> {
  const { signal } = env;
  const target = await resolveIn(env, filePath, "edit");
  const stat = await env.fs.stat(target, { signal });
  if (!stat) throw new FsError("FS_NOT_FOUND");
  if (stat.type !== "file") throw new FsError("FS_NOT_REGULAR_FILE");
  const shown = displayPath(env.cwd, target.path);
  const precondition = await env.policy.editIntent({
    op: "edit",
    session: env.session,
    path: target.path,
    realPath: target.realPath,
    displayPath: shown,
    exists: true,
    content: request.newString,
    signal,
  });
  const outcome = await env.fs.editText(target, (before) => {
    if (looksBinary(before)) throw new FsError("FS_BINARY");
    try {
      return applyEdit(before, request);
    } catch (error) {
      if (!(error instanceof MatchError)) throw error;
      throw new FsError(error.count === 0 ? "FS_NO_MATCH" : "FS_AMBIGUOUS_MATCH", {
        message: matchMessage(shown, error.count),
      });
    }
  }, { precondition, signal });
  env.emit("edit", target, outcome.version);
  return {
    content: renderEdit(shown, request.replaceAll),
    value: {
      path: target.path,
      before: bytesToText(outcome.before),
      after: bytesToText(outcome.after),
    },
  };
}
