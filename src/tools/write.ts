/**
 * The `write` executor (CONTRACT C4.3): create or atomically replace a file, through the policy.
 *
 * @module
 */

import { FsError } from "../fs_error.ts";
import { displayPath } from "../provider/roots.ts";
import { renderWrite } from "../render/mutation_render.ts";
import {
  bytesToText,
  MAX_TEXT_BYTES,
  resolveIn,
  tooLarge,
  type ToolEnv,
  type ToolSuccess,
  withTexts,
} from "./_context.ts";

/** The structured value of a `write` (C6). */
export interface WriteValue {
  /** The file's absolute lexical path. */
  path: string;
  /** Whether the file was created or replaced. */
  operation: "create" | "update";
  /** The old text without a BOM; `null` for a new file. */
  before: string | null;
  /** The new text without a BOM. */
  after: string;
}

/** Runs `write` with validated arguments. */
export async function writeTool(
  filePath: string,
  content: string,
  env: ToolEnv,
): Promise<ToolSuccess<WriteValue>> {
  const { signal } = env;
  const target = await resolveIn(env, filePath, "write");
  return env.serialize(target.realPath, async () => {
    const stat = await env.fs.stat(target, { signal });
    if (stat && stat.type !== "file") throw new FsError("FS_NOT_REGULAR_FILE");
    if (stat?.size != null && stat.size > MAX_TEXT_BYTES) throw tooLarge(stat.size);
    const shown = displayPath(env.cwd, target.path);
    const precondition = await env.policy.writeIntent({
      op: "write",
      session: env.session,
      path: target.path,
      realPath: target.realPath,
      displayPath: shown,
      exists: stat !== null,
      content,
      signal,
    });
    const outcome = await env.fs.writeText(target, content, { precondition, signal });
    env.emit("write", target, outcome.version);
    return {
      content: renderWrite(shown, outcome.operation),
      value: withTexts({ path: target.path, operation: outcome.operation }, () => ({
        before: outcome.before === null ? null : bytesToText(outcome.before),
        after: content.startsWith("\uFEFF") ? content.slice(1) : content,
      })),
    };
  });
}
