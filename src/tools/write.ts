/**
 * The `write` executor (CONTRACT C4.3): create or atomically replace a file, through the policy.
 *
 * @module
 */

import { renderWrite } from "../render/mutation_render.ts";
import { bytesToText, type ToolEnv, type ToolSuccess, withTexts } from "./_context.ts";
import { gated } from "./_mutation.ts";
import type { WriteValue } from "../types.ts";

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
