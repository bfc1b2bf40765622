/**
 * The `patch` executor (CONTRACT C16): a V4A patch over several files, all or nothing. Every
 * operation is parsed, every path checked, the policy consulted and every hunk located before
 * any file changes; then each file is replaced atomically, and a failure puts back the files
 * already changed.
 *
 * @module
 */

import {
  PATCH_ARGUMENT_MESSAGE,
  type PatchDone,
  patchSyntaxMessage,
  renderPatch,
} from "../../render/patch_render.ts";
import { parsePatch, type PatchOperation, PatchParseError } from "./patch_parse.ts";
import type { PatchValue } from "../../types.ts";
import { invalid, requireString } from "../_args.ts";
import type { Tool, ToolEnv, ToolSuccess } from "../_context.ts";
import { commitAll } from "./_patch_commit.ts";
import { PatchFailureError } from "./_patch_failure.ts";
import { type PlannedOperation, planOperation, resolvePaths } from "./_patch_plan.ts";

/** Validated `patch` arguments. */
export interface PatchArgs {
  /** The patch text as given. */
  patch: string;
  /** Its operations. */
  operations: PatchOperation[];
}

/** `patch`: its argument parsed, then every operation checked and committed together. */
export const patchTool: Tool<PatchArgs, PatchValue> = { parse, run };

/** Checks the `patch` argument and parses the patch (C16.1). */
function parse(a: Record<string, unknown>): PatchArgs {
  const patch = requireString(a.patch, PATCH_ARGUMENT_MESSAGE);
  return { patch, operations: parseOperations(patch) };
}

/**
 * The operations of a V4A patch, or `FS_INVALID_ARGUMENT` naming the patch line at fault.
 *
 * @param patch The patch text.
 * @returns The operations.
 */
export function parseOperations(patch: string): PatchOperation[] {
  try {
    return parsePatch(patch);
  } catch (error) {
    if (error instanceof PatchParseError) {
      throw invalid(patchSyntaxMessage(error.line, error.problem));
    }
    throw error;
  }
}

/** Runs `patch` with a parsed patch. */
async function run(args: PatchArgs, env: ToolEnv): Promise<ToolSuccess<PatchValue>> {
  const { operations, patch } = args;
  const paths = await resolvePaths(env, operations);
  const keys = [
    ...new Set(
      paths.flatMap((p) => p.to ? [p.file, p.to] : [p.file]).map((f) => f.target.realPath),
    ),
  ].sort();
  return await locked(env, keys, async () => {
    const planned: PlannedOperation[] = [];
    for (const [i, op] of operations.entries()) {
      planned.push(await planOperation(env, op, paths[i], patch));
    }
    if (env.signal?.aborted) throw aborted(planned);
    const committed = await commitAll(env, planned);
    for (const { op, target, version, from } of committed) {
      // A moved file's observations follow it; then the new version is recorded there.
      if (from) env.emit("move", target, "", from);
      env.emit(op, target, version);
    }
    return {
      content: renderPatch(planned.map(doneOf)),
      value: { operations: planned.map(valueOf) },
    };
  });
}

/** Runs `task` holding the queue of every real path, taken in sorted order (no deadlock). */
function locked<T>(env: ToolEnv, keys: readonly string[], task: () => Promise<T>): Promise<T> {
  if (keys.length === 0) return task();
  const [first, ...rest] = keys;
  return env.serialize(first, () => locked(env, rest, task));
}

function aborted(planned: readonly PlannedOperation[]): PatchFailureError {
  const file = planned[0]?.file.shown ?? ".";
  return new PatchFailureError({ code: "FS_ABORTED", file, reason: { kind: "code" } });
}

function doneOf(op: PlannedOperation): PatchDone {
  if (op.kind === "update" && op.to) {
    return { kind: "move", path: op.file.shown, to: op.to.file.shown };
  }
  return { kind: op.kind, path: op.file.shown };
}

function valueOf(op: PlannedOperation): PatchValue["operations"][number] {
  const path = op.file.target.path;
  if (op.kind === "update" && op.to) {
    return { kind: "update", path, movedTo: op.to.file.target.path };
  }
  return { kind: op.kind, path };
}
