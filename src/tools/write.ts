/**
 * The `write` executor (CONTRACT C4.3): create or atomically replace a file, through the policy.
 *
 * @module
 */

import { renderWrite } from "../render/mutation_render.ts";
import { bytesToText, type ToolEnv, type ToolSuccess, withTexts } from "./_context.ts";
import { gated } from "./_mutation.ts";

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
export function writeTool(
  filePath: string,
  content: string,
  env: ToolEnv,
): Promise<ToolSuccess<WriteValue>> {
  const { signal } = env;
  return gated(env, "write", filePath, content, async ({ target, shown, precondition }) => {
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
