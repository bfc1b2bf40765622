// The checks of `patch` before any file changes (CONTRACT C16.2): every path resolved and
// contained in a writable root, every file's state and the policy consulted, every hunk located.
// A failure is data (`PatchFailureError`), rendered once in src/render/patch_render.ts.
// Private to src/tools.

import { FsError } from "../../fs_error.ts";
import type { FsPrecondition, FsTarget } from "../../provider/fs_provider.ts";
import { displayPath } from "../../provider/roots.ts";
import { ENTRY_REASONS } from "../../render/entry_render.ts";
import type { HunkMissHint, PatchOperationLabel, PatchPlace } from "../../render/patch_render.ts";
import { hasLinePrefixes } from "../../text/line_prefixes.ts";
import { findLoose } from "../../text/loose_match.ts";
import { lineRange } from "../../text/match_lines.ts";
import { addedText, applyHunks, type PatchedBytes } from "./patch_apply.ts";
import { PatchLocateError } from "./patch_locate.ts";
import type { PatchOperation } from "./patch_parse.ts";
import {
  bytesToText,
  looksBinary,
  MAX_TEXT_BYTES,
  resolveIn,
  tooLarge,
  type ToolEnv,
} from "../_context.ts";
import { resolveEntry } from "../_entry.ts";
import { changeOf, entryIntent, fileIntent } from "../_intents.ts";
import { notFoundSuggestions, outsideRootSuggestions } from "../suggest_paths.ts";
import { asPatchFailure, fileFailure, PatchFailureError } from "./_patch_failure.ts";
import { closestBlock } from "./closest_block.ts";

/** A path of the patch, resolved. */
export interface PatchFile {
  target: FsTarget;
  /** The display path (C3.4). */
  shown: string;
  /** Where the patch names it, for messages. */
  place: PatchPlace;
}

/** One operation, checked and ready to commit. */
export type PlannedOperation =
  | { kind: "add"; file: PatchFile; text: string; precondition: FsPrecondition }
  | {
    kind: "update";
    file: PatchFile;
    /** The move's destination, checked absent. */
    to?: { file: PatchFile; precondition: FsPrecondition };
    before: Uint8Array;
    after: PatchedBytes;
    precondition: FsPrecondition;
    hunks: Extract<PatchOperation, { kind: "update" }>["hunks"];
  }
  | {
    kind: "delete";
    file: PatchFile;
    /** The file's bytes, to put it back; absent for a link (or other entry), removed itself. */
    before?: Uint8Array;
    precondition?: FsPrecondition;
  };

const LABELS: Record<PatchOperation["kind"], PatchOperationLabel> = {
  add: "Add File",
  update: "Update File",
  delete: "Delete File",
};

/** Resolves every path of the patch, in patch order; refuses a path named twice. */
export async function resolvePaths(
  env: ToolEnv,
  operations: readonly PatchOperation[],
): Promise<{ file: PatchFile; to?: PatchFile }[]> {
  const seen = new Set<string>();
  const out: { file: PatchFile; to?: PatchFile }[] = [];
  const one = async (given: string, place: PatchPlace, entry = false): Promise<PatchFile> => {
    const file: PatchFile = { target: undefined!, shown: given, place };
    try {
      // A deletion names the entry itself, as `delete` does (C15.3): a link is not followed.
      file.target = entry
        ? (await resolveEntry(env, given, "patch", true)).target
        : await resolveIn(env, given, "patch");
      file.shown = displayPath(env.cwd, file.target.path);
      if (!file.target.root.writable) throw new FsError("FS_READ_ONLY");
    } catch (error) {
      throw await withSuggestions(env, asPatchFailure(error, file, given), given);
    }
    if (seen.has(file.target.realPath)) {
      throw fileFailure("FS_INVALID_ARGUMENT", file, { kind: "twice" });
    }
    seen.add(file.target.realPath);
    return file;
  };
  // Deleting and moving need what C15.5 asks of `delete` and `move`: refused here, before any
  // file changes (C16.2), not by the provider once the other files were replaced.
  const need = env.fs.entriesNeed?.() ?? null;
  for (const op of operations) {
    const place = { operation: LABELS[op.kind], line: op.patchLine };
    const file = await one(op.path, place, op.kind === "delete");
    if (
      need !== null && (op.kind === "delete" || (op.kind === "update" && op.moveTo !== undefined))
    ) {
      throw asPatchFailure(
        new FsError("FS_PERMISSION_DENIED", { detail: ENTRY_REASONS.needs(need) }),
        file,
        op.path,
      );
    }
    const to = op.kind === "update" && op.moveTo !== undefined
      ? await one(op.moveTo, { operation: "Move to", line: op.patchLine && op.patchLine + 1 })
      : undefined;
    out.push(to ? { file, to } : { file });
  }
  return out;
}

/**
 * Checks one operation under the locks: the file's state, the policy, the hunks. Throws a
 * failure naming the operation, the file and the hunk.
 */
export async function planOperation(
  env: ToolEnv,
  op: PatchOperation,
  paths: { file: PatchFile; to?: PatchFile },
  patch: string,
): Promise<PlannedOperation> {
  const { file } = paths;
  try {
    if (op.kind === "add") {
      const text = op.text ?? addedText(op.lines);
      return { kind: "add", file, text, precondition: await absent(env, file, text) };
    }
    if (op.kind === "delete" && await isLink(env, file.target)) {
      // The link itself goes, as with `delete` (C15.3) and the reference implementation; it
      // holds no content to have read. Nothing else may stand there when it is removed.
      await deleteAllowed(env, file, null);
      return { kind: "delete", file };
    }
    const stat = await env.fs.stat(file.target, { signal: env.signal });
    if (!stat) throw await notFound(env, file, op.kind === "update");
    if (stat.type !== "file") throw new FsError("FS_NOT_REGULAR_FILE");
    if (stat.size != null && stat.size > MAX_TEXT_BYTES) throw tooLarge(stat.size);
    const { bytes, version } = await env.fs.readText(file.target, {
      signal: env.signal,
      toReplace: true, // C4.3b, checked before any file changes (C16.2)
    });
    // The new bytes are made from these: they are replaced only at this version.
    const precondition: FsPrecondition = { kind: "version", version };
    if (op.kind === "delete") {
      await deleteAllowed(env, file, version, bytes);
      return { kind: "delete", file, before: bytes, precondition };
    }
    // Located once, when the policy asks for the change or after it decided.
    let located: PatchedBytes | undefined;
    const after = () => located ??= locate(bytes, op, file);
    const decided = await env.policy.editIntent(fileIntent(env, file, {
      op: "edit",
      tool: "patch",
      exists: true,
      content: patch,
      // A binary file fails as it will once the policy has decided (C3.8).
      change: () =>
        looksBinary(bytes)
          ? Promise.reject(new FsError("FS_BINARY"))
          : Promise.resolve(changeOf(file.shown, version, bytes, joined(after()))),
    }));
    if (decided.kind === "version" && decided.version !== version) throw new FsError("FS_STALE");
    if (looksBinary(bytes)) throw new FsError("FS_BINARY");
    const patched = after();
    if (patched.length > MAX_TEXT_BYTES) throw tooLarge(patched.length);
    const to = paths.to
      ? { file: paths.to, precondition: await destination(env, file, paths.to, patch, patched) }
      : undefined;
    return {
      kind: "update",
      file,
      to,
      before: bytes,
      after: patched,
      precondition,
      hunks: op.hunks,
    };
  } catch (error) {
    throw asPatchFailure(error, file, op.path);
  }
}

/** A missing file: close names (C12.5); for `*** Update File`, the hint to add it (C16.2). */
async function notFound(
  env: ToolEnv,
  file: PatchFile,
  update: boolean,
): Promise<PatchFailureError> {
  const suggestions = await notFoundSuggestions(
    env.fs,
    "patch",
    file.target.path,
    env.cwd,
    env.signal,
  ).catch(() => []);
  return fileFailure("FS_NOT_FOUND", file, { kind: "not-found", suggestions, addFile: update });
}

/** A path outside every root gains C12.10's suggestion (a leading `/` meant relative). */
async function withSuggestions(env: ToolEnv, error: unknown, given: string): Promise<unknown> {
  if (!(error instanceof PatchFailureError) || error.failure.reason.kind !== "outside") {
    return error;
  }
  const suggestions = await outsideRootSuggestions(env.fs, "patch", given, env.cwd, env.signal)
    .catch(() => []);
  if (suggestions.length === 0) return error;
  return new PatchFailureError({ ...error.failure, reason: { kind: "outside", suggestions } });
}

/** The patched bytes, joined. */
function joined(patched: PatchedBytes): Uint8Array {
  const out = new Uint8Array(patched.length);
  let at = 0;
  for (const piece of patched.pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** An added file must be absent; the policy decides as for a new file's `write`. */
async function absent(env: ToolEnv, file: PatchFile, text: string): Promise<FsPrecondition> {
  const stat = await env.fs.stat(file.target, { signal: env.signal });
  if (stat) throw fileFailure("FS_EXISTS", file, { kind: "add-exists" });
  return await env.policy.writeIntent(fileIntent(env, file, {
    op: "write",
    tool: "patch",
    exists: false,
    content: text,
    change: () => Promise.resolve(changeOf(file.shown, null, null, text)),
  }));
}

/** A move's destination must be absent, and the policy must allow the move (C15.4). */
async function destination(
  env: ToolEnv,
  from: PatchFile,
  to: PatchFile,
  patch: string,
  patched: PatchedBytes,
): Promise<FsPrecondition> {
  try {
    const stat = await env.fs.stat(to.target, { signal: env.signal });
    if (stat) throw fileFailure("FS_EXISTS", to, { kind: "destination-exists" });
    await env.policy.moveIntent?.(entryIntent(env, entryOf(from), {
      op: "move",
      type: "file",
      destination: entryOf(to),
      files: [{ realPath: from.target.realPath }],
    }));
    return await env.policy.writeIntent(fileIntent(env, to, {
      op: "write",
      tool: "patch",
      exists: false,
      content: patch,
      change: () => Promise.resolve(changeOf(to.shown, null, null, joined(patched))),
    }));
  } catch (error) {
    throw asPatchFailure(error, to, to.shown);
  }
}

/** A file's paths as a move or delete intent names them. */
function entryOf(file: PatchFile) {
  return { path: file.target.path, realPath: file.target.realPath, displayPath: file.shown };
}

/** Whether the entry `target` names is a symbolic link (its own type, not followed). */
async function isLink(env: ToolEnv, target: FsTarget): Promise<boolean> {
  const followed = await resolveIn(env, target.path, "patch").catch(() => null);
  if (followed?.realPath === target.realPath) return false; // absent, or not a link
  const entries = await env.fs.listTree(target, { signal: env.signal });
  return entries?.[0].type === "other";
}

/**
 * The policy's decision on deleting a file at `version` (C15.3, C15.4): with the default policy,
 * a read of it at that version; or, for `null`, on deleting a link, which needs none.
 */
async function deleteAllowed(
  env: ToolEnv,
  file: PatchFile,
  version: string | null,
  bytes?: Uint8Array,
): Promise<void> {
  const realPath = file.target.realPath;
  const condition = await env.policy.deleteIntent?.(entryIntent(env, entryOf(file), {
    op: "delete",
    type: version === null ? "other" : "file",
    recursive: false,
    files: version === null ? [] : [{ realPath, version }],
    change: bytes ? () => Promise.resolve(changeOf(file.shown, version, bytes, null)) : undefined,
  }));
  const wanted = condition?.kind === "versions" ? condition.versions.get(realPath) : undefined;
  if (wanted !== undefined && wanted !== version) throw new FsError("FS_STALE");
}

/** The update's new bytes, or a failure naming the hunk with the C12.3 hint. */
function locate(
  bytes: Uint8Array,
  op: Extract<PatchOperation, { kind: "update" }>,
  file: PatchFile,
): PatchedBytes {
  try {
    return applyHunks(bytes, op.hunks);
  } catch (error) {
    if (!(error instanceof PatchLocateError)) throw error;
    const hunk = op.hunks[error.hunk];
    const place = { ...file.place, hunk: error.hunk + 1, line: hunk.patchLine };
    const problem = error.problem;
    const at = { shown: file.shown, place };
    if (problem.kind === "ambiguous") {
      throw fileFailure("FS_AMBIGUOUS_MATCH", at, { kind: "ambiguous", lines: problem.lines });
    }
    const hint: HunkMissHint = problem.kind === "anchor"
      ? { kind: "anchor", anchor: problem.anchor }
      : missHint(bytes, problem.oldLines);
    throw fileFailure("FS_NO_MATCH", at, { kind: "hunk-miss", hint });
  }
}

/**
 * The first hint that applies to lines that were not found: C12.3's line numbers and
 * whitespace, else the block of the file that comes closest (C16.2).
 */
function missHint(bytes: Uint8Array, oldLines: readonly string[]): HunkMissHint {
  const old = oldLines.join("\n");
  if (hasLinePrefixes(old)) return { kind: "line-numbers" };
  const match = findLoose(bytes, old);
  if (match) return { kind: "whitespace", ...lineRange(bytes, match.start, match.end) };
  const closest = closestBlock(bytesToText(bytes).split(/\r?\n/), oldLines);
  return closest ? { kind: "closest", ...closest } : { kind: "none" };
}
