// The checks of `patch` before any file changes (CONTRACT C16.2): every path resolved and
// contained in a writable root, every file's state and the policy consulted, every hunk located.
// Private to src/tools.

import { FsError } from "../../fs_error.ts";
import type { FsPrecondition, FsTarget } from "../../provider/fs_provider.ts";
import { displayPath } from "../../provider/roots.ts";
import { pathErrorMessage } from "../../render/errors.ts";
import {
  hunkAmbiguousReason,
  type HunkMissHint,
  hunkMissReason,
  PATCH_REASONS,
  patchFileMessage,
  type PatchOperationLabel,
  type PatchPlace,
} from "../../render/patch_render.ts";
import { hasLinePrefixes } from "../../text/line_prefixes.ts";
import { findLoose } from "../../text/loose_match.ts";
import { lineRange } from "../../text/match_lines.ts";
import { addedText, applyHunks, type PatchedBytes } from "./patch_apply.ts";
import { PatchLocateError } from "./patch_locate.ts";
import type { PatchOperation } from "./patch_parse.ts";
import { looksBinary, MAX_TEXT_BYTES, resolveIn, tooLarge, type ToolEnv } from "../_context.ts";
import { resolveEntry } from "../_entry.ts";

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

/** A failure about one file of the patch, its message complete. */
export function fileError(
  code: FsError["code"],
  file: { shown: string; place: PatchPlace },
  reason: string,
): FsError {
  return new FsError(code, { message: patchFileMessage(file.shown, file.place, reason) });
}

/**
 * An `FsError` from a check or the provider, as a failure naming the patch's operation and file
 * (C3.2's outside-root message stays exact).
 */
export function asFileError(error: unknown, file: PatchFile, given: string): unknown {
  if (!(error instanceof FsError)) return error;
  if (error.code === "FS_OUTSIDE_ROOT" && !error.hasMessage) {
    return new FsError(error.code, { message: pathErrorMessage(error.code, "patch", given) });
  }
  if (error.hasMessage) {
    return error.message.startsWith("cannot patch ")
      ? error
      : fileError(error.code, file, error.message);
  }
  const full = pathErrorMessage(error.code, "patch", "", error.detail);
  return fileError(error.code, file, full.slice(full.indexOf(": ") + 2));
}

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
      throw asFileError(error, file, given);
    }
    if (seen.has(file.target.realPath)) {
      throw fileError("FS_INVALID_ARGUMENT", file, PATCH_REASONS.twice);
    }
    seen.add(file.target.realPath);
    return file;
  };
  for (const op of operations) {
    const place = { operation: LABELS[op.kind], line: op.patchLine };
    const file = await one(op.path, place, op.kind === "delete");
    const to = op.kind === "update" && op.moveTo !== undefined
      ? await one(op.moveTo, { operation: "Move to", line: op.patchLine + 1 })
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
      const text = addedText(op.lines);
      return { kind: "add", file, text, precondition: await absent(env, file, text) };
    }
    if (op.kind === "delete" && await isLink(env, file.target)) {
      // The link itself goes, as with `delete` (C15.3) and the reference implementation; it
      // holds no content to have read. Nothing else may stand there when it is removed.
      await deleteAllowed(env, file, null);
      return { kind: "delete", file };
    }
    const stat = await env.fs.stat(file.target, { signal: env.signal });
    if (!stat) throw new FsError("FS_NOT_FOUND");
    if (stat.type !== "file") throw new FsError("FS_NOT_REGULAR_FILE");
    if (stat.size != null && stat.size > MAX_TEXT_BYTES) throw tooLarge(stat.size);
    const { bytes, version } = await env.fs.readText(file.target, { signal: env.signal });
    // The new bytes are made from these: they are replaced only at this version.
    const precondition: FsPrecondition = { kind: "version", version };
    if (op.kind === "delete") {
      await deleteAllowed(env, file, version);
      return { kind: "delete", file, before: bytes, precondition };
    }
    const decided = await env.policy.editIntent({
      ...intentOf(env, file, true, patch),
      op: "edit",
    });
    if (decided.kind === "version" && decided.version !== version) throw new FsError("FS_STALE");
    if (looksBinary(bytes)) throw new FsError("FS_BINARY");
    const after = locate(bytes, op, file);
    if (after.length > MAX_TEXT_BYTES) throw tooLarge(after.length);
    const to = paths.to
      ? { file: paths.to, precondition: await destination(env, file, paths.to, patch) }
      : undefined;
    return { kind: "update", file, to, before: bytes, after, precondition, hunks: op.hunks };
  } catch (error) {
    throw asFileError(error, file, op.path);
  }
}

/** The intent the policy sees for one file of the patch. */
function intentOf(env: ToolEnv, file: PatchFile, exists: boolean, content: string) {
  return {
    session: env.session,
    path: file.target.path,
    realPath: file.target.realPath,
    displayPath: file.shown,
    exists,
    content,
    signal: env.signal,
  };
}

/** An added file must be absent; the policy decides as for a new file's `write`. */
async function absent(env: ToolEnv, file: PatchFile, text: string): Promise<FsPrecondition> {
  const stat = await env.fs.stat(file.target, { signal: env.signal });
  if (stat) throw fileError("FS_EXISTS", file, PATCH_REASONS.addExists);
  return await env.policy.writeIntent({ ...intentOf(env, file, false, text), op: "write" });
}

/** A move's destination must be absent, and the policy must allow the move (C15.4). */
async function destination(
  env: ToolEnv,
  from: PatchFile,
  to: PatchFile,
  patch: string,
): Promise<FsPrecondition> {
  try {
    const stat = await env.fs.stat(to.target, { signal: env.signal });
    if (stat) throw fileError("FS_EXISTS", to, PATCH_REASONS.destinationExists);
    await env.policy.moveIntent?.({
      op: "move",
      session: env.session,
      ...entryOf(env, from),
      type: "file",
      destination: entryOf(env, to),
      files: [{ realPath: from.target.realPath }],
      signal: env.signal,
    });
    return await env.policy.writeIntent({ ...intentOf(env, to, false, patch), op: "write" });
  } catch (error) {
    throw asFileError(error, to, to.shown);
  }
}

/** A file's paths as a move or delete intent names them. */
function entryOf(_env: ToolEnv, file: PatchFile) {
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
): Promise<void> {
  const realPath = file.target.realPath;
  const condition = await env.policy.deleteIntent?.({
    op: "delete",
    session: env.session,
    ...entryOf(env, file),
    type: version === null ? "other" : "file",
    recursive: false,
    files: version === null ? [] : [{ realPath, version }],
    signal: env.signal,
  });
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
    if (problem.kind === "ambiguous") {
      const reason = hunkAmbiguousReason(problem.lines);
      throw fileError("FS_AMBIGUOUS_MATCH", { shown: file.shown, place }, reason);
    }
    const hint: HunkMissHint = problem.kind === "anchor"
      ? { kind: "anchor", anchor: problem.anchor }
      : missHint(bytes, problem.oldLines.join("\n"));
    throw fileError("FS_NO_MATCH", { shown: file.shown, place }, hunkMissReason(hint));
  }
}

/** The first C12.3 hint that applies to lines that were not found. */
function missHint(bytes: Uint8Array, old: string): HunkMissHint {
  if (hasLinePrefixes(old)) return { kind: "line-numbers" };
  const match = findLoose(bytes, old);
  if (!match) return { kind: "none" };
  return { kind: "whitespace", ...lineRange(bytes, match.start, match.end) };
}
