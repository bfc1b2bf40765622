/**
 * The `edit` executor (CONTRACT C4.4): a literal, unique (or `replace_all`) replacement, which
 * the provider applies on bytes under the file's lock and commits atomically; a failed match
 * comes back as an outcome, and its hints (C12.3, C12.4) are rendered after the lock is released.
 *
 * @module
 */

import { VALIDATION_MESSAGES } from "../render/errors.ts";
import { EMPTY_OLD_STRING } from "../render/hints.ts";
import { renderEdit } from "../render/mutation_render.ts";
import { invalid, optional, requirePath } from "./_args.ts";
import {
  MAX_TEXT_BYTES,
  type Tool,
  type ToolEnv,
  type ToolSuccess,
  withTexts,
} from "./_context.ts";
import { type EditRequest, editTexts } from "../text/edit_apply.ts";
import { matchFailure, withSnippet } from "./_edit_hints.ts";
import { gated } from "./_mutation.ts";
import { textBounds, withBounds } from "../present/text_bounds.ts";
import type { EditValue } from "../types.ts";

/** Validated `edit` arguments. */
interface EditArgs extends EditRequest {
  /** The path as the caller gave it. */
  filePath: string;
}

/** `edit`: its arguments checked, then the replacement applied through the policy. */
export const editTool: Tool<EditArgs, EditValue> = { parse, run };

/** Checks `edit` arguments in the contract's order (C4.4). */
function parse(a: Record<string, unknown>): EditArgs {
  const filePath = requirePath(a.file_path);
  const oldString = a.old_string;
  const newString = a.new_string;
  if (typeof oldString !== "string" || oldString === "") throw invalid(EMPTY_OLD_STRING);
  if (typeof newString !== "string") throw invalid(VALIDATION_MESSAGES.newString);
  const replaceAll = optional(a.replace_all) ?? false;
  if (typeof replaceAll !== "boolean") throw invalid(VALIDATION_MESSAGES.replaceAll);
  if (oldString === newString) throw invalid(VALIDATION_MESSAGES.sameStrings);
  return { filePath, oldString, newString, replaceAll };
}

/** Runs `edit` with validated arguments. */
function run(args: EditArgs, env: ToolEnv): Promise<ToolSuccess<EditValue>> {
  const { signal } = env;
  const { filePath, ...request } = args;
  return gated(
    env,
    "edit",
    filePath,
    request.newString,
    async ({ target, shown, precondition }) => {
      // The provider applies the replacement under the file's lock and calls nothing back.
      const outcome = await env.fs.editText(target, { ...request, maxBytes: MAX_TEXT_BYTES }, {
        precondition,
        signal,
      });
      // Rendered with the lock released: C12.3's loose scan of a large file holds up no writer.
      if (outcome.kind === "unmatched") {
        throw matchFailure(outcome.before, request.oldString, shown, outcome);
      }
      env.emit("edit", target, outcome.version);
      const { replaced } = outcome;
      // The lengths are known without the bytes: a provider may read `before` only when asked.
      const grown = replaced.positions.length *
        (replaced.replacement.length - replaced.needle.length);
      return {
        content: await withSnippet(
          renderEdit(
            shown,
            request.replaceAll,
            replaced.positions.length,
            env.config.detailedFooters,
          ),
          replaced,
          env,
        ),
        // Decoded once and shared, on first access only (C6).
        value: withBounds(
          withTexts({ path: target.path }, () => editTexts(outcome.before, replaced)),
          textBounds([replaced.length - grown, replaced.length]),
        ),
      };
    },
    request,
  );
}
