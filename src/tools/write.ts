/**
 * The `write` executor (CONTRACT C4.3): create or atomically replace a file, through the policy.
 *
 * @module
 */

import { renderWrite } from "../render/mutation_render.ts";
import { VALIDATION_MESSAGES } from "../render/errors.ts";
import { invalid, requirePath } from "./_args.ts";
import { bytesToText, type Tool, type ToolEnv, type ToolSuccess, withTexts } from "./_context.ts";
import { gated } from "./_mutation.ts";
import { textBounds, withBounds } from "../present/text_bounds.ts";
import type { WriteValue } from "../types.ts";

/** Validated `write` arguments. */
interface WriteRequest {
  /** The path as the caller gave it. */
  filePath: string;
  /** The whole new content. */
  content: string;
}

/** `write`: its arguments checked, then the file created or replaced through the policy. */
export const writeTool: Tool<WriteRequest, WriteValue> = { parse, run };

/** Checks `write` arguments in the contract's order (C4.3). */
function parse(a: Record<string, unknown>): WriteRequest {
  const filePath = requirePath(a.file_path);
  if (typeof a.content !== "string") throw invalid(VALIDATION_MESSAGES.content);
  return { filePath, content: a.content };
}

/** Runs `write` with validated arguments. */
function run({ filePath, content }: WriteRequest, env: ToolEnv): Promise<ToolSuccess<WriteValue>> {
  const { signal } = env;
  return gated(env, "write", filePath, content, async ({ target, shown, precondition }) => {
    const outcome = await env.fs.writeText(target, content, { precondition, signal });
    env.emit("write", target, outcome.version);
    return {
      content: renderWrite(shown, outcome.operation),
      value: withBounds(
        withTexts({ path: target.path, operation: outcome.operation }, () => ({
          before: outcome.before === null ? null : bytesToText(outcome.before),
          after: content.startsWith("\uFEFF") ? content.slice(1) : content,
        })),
        textBounds(
          outcome.before === null ? [] : [outcome.before.length],
          content.length - (content.startsWith("\uFEFF") ? 1 : 0),
        ),
      ),
    };
  });
}
