/**
 * The `edit` executor (CONTRACT C4.4): a literal, unique (or `replace_all`) replacement,
 * applied on bytes under the file's lock and committed atomically.
 *
 * @module
 */

import { FsError } from "../fs_error.ts";
import { VALIDATION_MESSAGES } from "../render/errors.ts";
import { EMPTY_OLD_STRING } from "../render/hints.ts";
import { renderEdit } from "../render/mutation_render.ts";
import { invalid, optional, requirePath } from "./_args.ts";
import {
  bytesToText,
  looksBinary,
  MAX_TEXT_BYTES,
  type Tool,
  tooLarge,
  type ToolEnv,
  type ToolSuccess,
  withTexts,
} from "./_context.ts";
import {
  type EditPlan,
  type EditRequest,
  editTexts,
  MatchError,
  planEdit,
} from "../text/edit_apply.ts";
import { matchFailure, withSnippet } from "./_edit_hints.ts";
import { gated } from "./_mutation.ts";
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
      let planned: { before: Uint8Array; plan: EditPlan } | undefined;
      const outcome = await env.fs.editText(target, (before) => {
        if (looksBinary(before)) throw new FsError("FS_BINARY");
        try {
          // Checked before the commit: the value's texts must be decodable once it has landed.
          if (before.length > MAX_TEXT_BYTES) throw tooLarge(before.length);
          planned = { before, plan: planEdit(before, request) };
          if (planned.plan.length > MAX_TEXT_BYTES) throw tooLarge(planned.plan.length);
          // Slices of the old bytes around the replacements: the new file is never built in memory.
          return planned.plan.pieces;
        } catch (error) {
          if (!(error instanceof MatchError)) throw error;
          throw matchFailure(before, request.oldString, shown, error);
        }
      }, { precondition, signal });
      env.emit("edit", target, outcome.version);
      const count = planned?.plan.positions.length;
      return {
        content: await withSnippet(
          renderEdit(shown, request.replaceAll, count),
          planned?.plan,
          env,
        ),
        value: withTexts({ path: target.path }, () => textsOf(outcome, planned)),
      };
    },
  );
}

/**
 * The value's texts: decoded once and shared when the provider applied the plan as made (it
 * called the edit function with the bytes it reports as `before`, so it wrote the plan's
 * slices; `outcome.after`, which may be joined on access, is then never read).
 */
function textsOf(
  outcome: { before: Uint8Array; after: Uint8Array },
  planned: { before: Uint8Array; plan: EditPlan } | undefined,
): { before: string; after: string } {
  if (planned && planned.before === outcome.before) {
    return editTexts(outcome.before, planned.plan);
  }
  return { before: bytesToText(outcome.before), after: bytesToText(outcome.after) };
}
