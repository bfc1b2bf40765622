/**
 * One apply_patch operation (CONTRACT C16.4) as the OpenAI Responses API, the Agents SDK and
 * LangChain hand it over — a path and a V4A diff body — run through the `patch` engine and the
 * tools' roots, policy and locks.
 *
 * @module
 */

import { OPERATION_MESSAGES, patchSyntaxMessage } from "../../render/patch_render.ts";
import { renderError } from "../../render/errors.ts";
import { type FsCallContext, type FsTools, runPatch } from "../tools.ts";
import type { PatchArgs } from "./patch.ts";
import { parsePatch, type PatchOperation, PatchParseError } from "./patch_parse.ts";

/**
 * An `apply_patch_call` operation: `create_file` (a diff of `+` lines, joined with `\n` as the
 * Agents SDK's `applyDiff` create mode joins them), `update_file` (V4A hunks; `move_to` or the
 * Agents SDK's `moveTo` renames the file) or `delete_file`. The diff is that one operation's
 * body: one that holds an envelope or another operation's header is refused (C16.5).
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
  const patch = operationPatch(operation);
  if ("error" in patch) return { status: "failed", output: renderError(patch.error) };
  const result = await runPatch(tools, patch, ctx);
  return { status: result.isError ? "failed" : "completed", output: result.content };
}

function oneLine(value: unknown): value is string {
  return typeof value === "string" && value !== "" && !/[\r\n]/.test(value);
}

/**
 * The one operation `operation` names (C16.5), with its diff parsed as that operation's body:
 * hunks of an update, `+` lines of a created file (joined as the Agents SDK's `applyDiff`
 * create mode joins them). A diff that holds an envelope or another operation's header is
 * refused; line numbers are those of the diff as sent.
 */
function operationPatch(operation: unknown): PatchArgs | { error: string } {
  if (typeof operation !== "object" || operation === null) {
    return { error: OPERATION_MESSAGES.type };
  }
  const op = operation as Record<string, unknown>;
  if (op.type !== "create_file" && op.type !== "update_file" && op.type !== "delete_file") {
    return { error: OPERATION_MESSAGES.type };
  }
  if (!oneLine(op.path)) return { error: OPERATION_MESSAGES.path };
  if (op.path.includes("\0")) return { error: OPERATION_MESSAGES.pathNul };
  const path = op.path;
  if (op.type === "delete_file") {
    return { patch: "", operations: [{ kind: "delete", path, patchLine: 0 }] };
  }
  if (typeof op.diff !== "string") return { error: OPERATION_MESSAGES.diff };
  const diff = op.diff;
  // The diff's lines as the Agents SDK reads them: a final line break ends the last line.
  const lines = diff.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  const foreign = lines.findIndex((line) =>
    isOperationHeader(line) || (op.type === "create_file" && !line.startsWith("+"))
  );
  if (foreign >= 0) {
    const text = lines[foreign];
    const problem = isOperationHeader(text)
      ? { kind: "operation-header" as const, text }
      : { kind: "add-line" as const, text };
    return { error: patchSyntaxMessage(foreign + 1, problem) };
  }
  if (op.type === "create_file") {
    const added = lines.map((line) => line.slice(1));
    const text = added.join("\n");
    return { patch: diff, operations: [{ kind: "add", path, lines: added, text, patchLine: 0 }] };
  }
  const moveTo = op.move_to ?? op.moveTo;
  if (moveTo != null && !oneLine(moveTo)) return { error: OPERATION_MESSAGES.moveTo };
  if (moveTo != null && moveTo.includes("\0")) return { error: OPERATION_MESSAGES.moveToNul };
  if (lines.every((line) => line.trim() === "")) {
    return { error: patchSyntaxMessage(1, { kind: "empty-update", path }) };
  }
  // The body parsed as the hunks of one update; the two envelope lines before it are not
  // counted, so line numbers are the diff's own.
  const envelope = ["*** Begin Patch", "*** Update File: -", ...lines, "*** End Patch"].join("\n");
  try {
    const [parsed] = parsePatch(envelope);
    if (parsed.kind !== "update") throw new Error("an update's body parsed as another operation");
    // The parser reads a first line ` *** Move to: <p>` (markers may stand indented) as a move:
    // that is another operation's header, refused as isOperationHeader refuses it unindented.
    if (parsed.moveTo !== undefined) {
      return { error: patchSyntaxMessage(1, { kind: "operation-header", text: lines[0] }) };
    }
    const hunks = parsed.hunks.map((hunk) => ({ ...hunk, patchLine: hunk.patchLine - 2 }));
    const update: PatchOperation = moveTo == null
      ? { kind: "update", path, hunks, patchLine: 0 }
      : { kind: "update", path, moveTo, hunks, patchLine: 0 };
    return { patch: diff, operations: [update] };
  } catch (error) {
    if (!(error instanceof PatchParseError)) throw error;
    return { error: patchSyntaxMessage(Math.max(1, error.line - 2), error.problem) };
  }
}

/**
 * Whether a diff line is an envelope marker or another operation's header (C16.5): one the
 * parser would read as such, at the start of the line (` *** Delete File: x` is a context line).
 */
function isOperationHeader(line: string): boolean {
  return OPERATION_HEADERS.some((header) => line.startsWith(header));
}

const OPERATION_HEADERS = [
  "*** Begin Patch",
  "*** End Patch",
  "*** Add File:",
  "*** Delete File:",
  "*** Update File:",
  "*** Move to:",
];
