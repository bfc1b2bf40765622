/**
 * One apply_patch operation (CONTRACT C16.4) as the OpenAI Responses API, the Agents SDK and
 * LangChain hand it over — a path and a V4A diff body — run through the `patch` engine and the
 * tools' roots, policy and locks.
 *
 * @module
 */

import { OPERATION_MESSAGES } from "../../render/patch_render.ts";
import { renderError } from "../../render/errors.ts";
import { type FsCallContext, type FsTools, runPatch } from "../tools.ts";

/**
 * An `apply_patch_call` operation: `create_file` (a diff of `+` lines), `update_file` (V4A
 * hunks; `move_to` or the Agents SDK's `moveTo` renames the file) or `delete_file`.
 */
export type ApplyPatchOperation =
  | { type: "create_file"; path: string; diff: string }
  | { type: "update_file"; path: string; diff: string; move_to?: string; moveTo?: string }
  | { type: "delete_file"; path: string };

/** What an `apply_patch_call_output` carries back to the model. */
export interface ApplyPatchOutcome {
  /** `completed`, or `failed` when nothing was changed. */
  status: "completed" | "failed";
  /** The text a `patch` call gives for the operation (`Error: …` on failure). */
  output: string;
}

/**
 * Applies one Responses API `apply_patch_call` operation through the tools: within their roots,
 * under their read-before-write policy, atomically for its file. The tools need not expose
 * `patch` (the host declares its own apply_patch tool).
 *
 * @param tools Tools from `createFsTools`.
 * @param operation The call's `operation`.
 * @param ctx The session, session directory and signal.
 * @returns The status and output for the `apply_patch_call_output` item.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { applyPatchOperation, createFsTools } from "../../../mod.ts";
 * import { MemoryFileSystem } from "../../../memory.ts";
 *
 * const tools = createFsTools({ fs: new MemoryFileSystem({ roots: ["/w"] }) });
 * const outcome = await applyPatchOperation(tools, {
 *   type: "create_file",
 *   path: "hello.txt",
 *   diff: "+hello",
 * });
 * equal(outcome.output, "Added hello.txt");
 * ```
 */
export async function applyPatchOperation(
  tools: FsTools,
  operation: ApplyPatchOperation,
  ctx: FsCallContext = {},
): Promise<ApplyPatchOutcome> {
  const patch = envelopeOf(operation);
  if ("error" in patch) return { status: "failed", output: renderError(patch.error) };
  const result = await runPatch(tools, patch.text, ctx);
  return { status: result.isError ? "failed" : "completed", output: result.content };
}

function oneLine(value: unknown): value is string {
  return typeof value === "string" && value !== "" && !/[\r\n]/.test(value);
}

/** The V4A envelope of one operation, or the message refusing it. */
function envelopeOf(operation: unknown): { text: string } | { error: string } {
  if (typeof operation !== "object" || operation === null) {
    return { error: OPERATION_MESSAGES.type };
  }
  const op = operation as Record<string, unknown>;
  if (op.type !== "create_file" && op.type !== "update_file" && op.type !== "delete_file") {
    return { error: OPERATION_MESSAGES.type };
  }
  if (!oneLine(op.path)) return { error: OPERATION_MESSAGES.path };
  if (op.type === "delete_file") return { text: wrap(`*** Delete File: ${op.path}`) };
  if (typeof op.diff !== "string") return { error: OPERATION_MESSAGES.diff };
  // A diff that is already a whole patch is taken as it is.
  if (op.diff.trimStart().startsWith("*** Begin Patch")) return { text: op.diff };
  const body = op.diff.replace(/\r?\n$/, "");
  if (op.type === "create_file") return { text: wrap(`*** Add File: ${op.path}`, body) };
  const moveTo = op.move_to ?? op.moveTo;
  if (moveTo != null && !oneLine(moveTo)) return { error: OPERATION_MESSAGES.moveTo };
  const head = moveTo == null
    ? `*** Update File: ${op.path}`
    : `*** Update File: ${op.path}\n*** Move to: ${moveTo}`;
  return { text: wrap(head, body) };
}

function wrap(...lines: string[]): string {
  return ["*** Begin Patch", ...lines.filter((line) => line !== ""), "*** End Patch"].join("\n");
}
