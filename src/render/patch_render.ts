/**
 * Every model-facing text of `patch` (CONTRACT C16): the success lines, the parse errors that
 * name the patch line, and the failures that name the operation, the file and the hunk with the
 * C12.3 hints. Pure: no I/O.
 *
 * @module
 */

import type { FsErrorCode } from "../fs_error.ts";
import { pathErrorReason } from "./errors.ts";
import { didYouMean, whitespaceHint } from "./hints.ts";
import { quotePath, renderName } from "./names.ts";

/** The validation message of the `patch` argument. */
export const PATCH_ARGUMENT_MESSAGE = "patch must be a non-empty string";

/** What one operation of a patch did, for the success text. */
export type PatchDone =
  | { kind: "add" | "update" | "delete"; path: string }
  | { kind: "move"; path: string; to: string };

/**
 * The success text (C16.3): one line per operation, in patch order, with display paths.
 *
 * @param done What each operation did.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { renderPatch } from "./patch_render.ts";
 *
 * equal(
 *   renderPatch([{ kind: "add", path: "a.ts" }, { kind: "move", path: "b.ts", to: "c.ts" }]),
 *   "Added a.ts\nUpdated b.ts and moved it to c.ts",
 * );
 * ```
 */
export function renderPatch(done: readonly PatchDone[]): string {
  return done.map(renderDone).join("\n");
}

function renderDone(done: PatchDone): string {
  const path = renderName(done.path);
  switch (done.kind) {
    case "add":
      return `Added ${path}`;
    case "update":
      return `Updated ${path}`;
    case "move":
      return `Updated ${path} and moved it to ${renderName(done.to)}`;
    case "delete":
      return `Deleted ${path}`;
  }
}

/** A parse problem, as `src/tools/patch/patch_parse.ts` reports it. */
export type PatchSyntaxProblem =
  | { kind: "begin" | "end" | "no-operations" | "empty-hunk" }
  | { kind: "header" | "hunk-line" | "no-anchor"; text: string }
  | { kind: "no-path"; marker: string }
  | { kind: "nul-path" }
  | { kind: "empty-update"; path: string }
  | { kind: "operation-header" | "add-line"; text: string };

/**
 * The message for a patch that cannot be parsed, naming its line.
 *
 * @param line The 1-based patch line.
 * @param problem What is wrong there.
 * @returns The message.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { patchSyntaxMessage } from "./patch_render.ts";
 *
 * equal(
 *   patchSyntaxMessage(1, { kind: "begin" }),
 *   'invalid patch at line 1: the patch must start with "*** Begin Patch"',
 * );
 * ```
 */
export function patchSyntaxMessage(line: number, problem: PatchSyntaxProblem): string {
  return `invalid patch at line ${line}: ${syntaxReason(problem)}`;
}

function syntaxReason(problem: PatchSyntaxProblem): string {
  switch (problem.kind) {
    case "begin":
      return 'the patch must start with "*** Begin Patch"';
    case "end":
      return 'the patch must end with "*** End Patch"';
    case "no-operations":
      return 'the patch has no operations; start one with "*** Add File: <path>", "*** Delete File: <path>" or "*** Update File: <path>"';
    case "header":
      return `expected "*** Add File: <path>", "*** Delete File: <path>" or "*** Update File: <path>", got ${
        JSON.stringify(problem.text)
      }`;
    case "no-path":
      return `"${problem.marker}" needs a path`;
    case "nul-path":
      return "a path must not contain a NUL byte";
    case "operation-header":
      return `the diff of one operation holds only that operation's lines; send each operation on its own, got ${
        JSON.stringify(problem.text)
      }`;
    case "add-line":
      return `each line of a created file starts with "+", got ${JSON.stringify(problem.text)}`;
    case "empty-update":
      return `"*** Update File: ${problem.path}" has no hunks`;
    case "empty-hunk":
      return "the hunk has no lines";
    case "hunk-line":
      return `a hunk line starts with " " (context), "-" (removed) or "+" (added), got ${
        JSON.stringify(problem.text)
      }`;
    case "no-anchor":
      return `expected "@@" before the next hunk, got ${JSON.stringify(problem.text)}`;
  }
}

/** The operation a failure belongs to, as the patch names it. */
export type PatchOperationLabel = "Add File" | "Delete File" | "Update File" | "Move to";

/** Where in the patch a failure is: the operation, its patch line, and the hunk if any. */
export interface PatchPlace {
  operation: PatchOperationLabel;
  /**
   * The 1-based patch line of the operation or the hunk; 0 for the header of an apply_patch
   * operation, which its diff does not hold.
   */
  line: number;
  /** The 1-based hunk number within the update. */
  hunk?: number;
}

/** Reasons of the per-file failures `patch` adds to those of C3–C5. */
export const PATCH_REASONS = {
  addExists: "the file already exists; use *** Update File to change it",
  destinationExists: "the destination exists",
  twice: "the patch changes this file more than once; merge those operations into one",
} as const;

/**
 * The message of a failure about one file of a patch:
 * `cannot patch "<path>" (<operation>, [hunk <k> at ]patch line <n>): <reason>`.
 *
 * @param displayPath The file's display path.
 * @param place The operation, line and hunk.
 * @param reason Why, e.g. `read it first`.
 * @returns The message.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { patchFileMessage } from "./patch_render.ts";
 *
 * equal(
 *   patchFileMessage("a.ts", { operation: "Update File", line: 2 }, "read it first"),
 *   'cannot patch "a.ts" (Update File, patch line 2): read it first',
 * );
 * ```
 */
export function patchFileMessage(displayPath: string, place: PatchPlace, reason: string): string {
  // Line 0: an apply_patch operation's own header, which its diff does not hold (C16.5).
  const at = place.hunk !== undefined
    ? `, hunk ${place.hunk} at patch line ${place.line}`
    : place.line > 0
    ? `, patch line ${place.line}`
    : "";
  return `cannot patch ${quotePath(displayPath)} (${place.operation}${at}): ${reason}`;
}

/** Why a hunk was not found, as far as the failure path could tell (C12.3, C16.2). */
export type HunkMissHint =
  | { kind: "anchor"; anchor: string }
  | { kind: "line-numbers" }
  | { kind: "whitespace"; first: number; last: number }
  | {
    kind: "closest";
    /** The block of the file that comes closest: its first and last line. */
    first: number;
    last: number;
    /** The first line there that differs from the hunk, and its text. */
    line: number;
    text: string;
  }
  | { kind: "none" };

/**
 * The reason of a hunk that was not found, with the C12.3 hint that applies.
 *
 * @param hint What the failure path found.
 * @returns The reason, for {@linkcode patchFileMessage}.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { hunkMissReason } from "./patch_render.ts";
 *
 * equal(
 *   hunkMissReason({ kind: "whitespace", first: 3, last: 4 }),
 *   "the lines to replace were not found; lines 3-4 match except for whitespace, so copy the indentation exactly",
 * );
 * ```
 */
export function hunkMissReason(hint: HunkMissHint): string {
  const head = "the lines to replace were not found";
  switch (hint.kind) {
    case "anchor":
      return `the anchor ${
        JSON.stringify(`@@ ${hint.anchor}`)
      } was not found; read the file again and copy that line exactly`;
    case "line-numbers":
      return `${head}; remove the line numbers that read puts before each line`;
    case "whitespace":
      return `${head}; ${whitespaceHint(hint.first, hint.last)}`;
    case "closest":
      return `${head}; lines ${hint.first}-${hint.last} come closest, and line ${hint.line} there reads ${
        JSON.stringify(hint.text)
      }`;
    default:
      return `${head}; read the file again and copy them exactly`;
  }
}

/**
 * The reason of a hunk without an anchor whose lines occur at more than one place from the
 * cursor (C16.2): refused, never applied at a guess.
 *
 * @param lines The 1-based lines where the matches start, ascending.
 * @returns The reason, for {@linkcode patchFileMessage}.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { hunkAmbiguousReason } from "./patch_render.ts";
 *
 * equal(
 *   hunkAmbiguousReason([3, 16]),
 *   "the lines to replace occur 2 times (lines 3, 16); add an @@ line naming the enclosing function or class, or more context",
 * );
 * ```
 */
export function hunkAmbiguousReason(lines: readonly number[]): string {
  const shown: (number | string)[] = lines.length > 10 ? [...lines.slice(0, 10), "…"] : [...lines];
  return `the lines to replace occur ${lines.length} times (lines ${
    shown.join(", ")
  }); add an @@ line naming the enclosing function or class, or more context`;
}

/** Why one file of a patch failed, as data (rendered by {@linkcode patchFailureMessage}). */
export type PatchReason =
  /** A failure of C3–C5 with the code's own reason (`read it first`, `permission denied`, …). */
  | { kind: "code"; detail?: string }
  /** A complete message from elsewhere (a host policy's own text). */
  | { kind: "message"; text: string }
  /** `*** Add File` of a file that exists; a move's destination that exists. */
  | { kind: "add-exists" | "destination-exists" }
  /** The patch names one file twice. */
  | { kind: "twice" }
  /** The file is missing: close names (C12.5), and whether `*** Add File` would create it. */
  | { kind: "not-found"; suggestions: readonly string[]; addFile: boolean }
  /** A hunk that was not found, with the hint that applies. */
  | { kind: "hunk-miss"; hint: HunkMissHint }
  /** A hunk without an anchor that matches at these lines. */
  | { kind: "ambiguous"; lines: readonly number[] }
  /** A path outside every root, as given, with C12.10's suggestions. */
  | { kind: "outside"; suggestions: readonly string[] };

/**
 * A failure of one operation of a patch: its code, the file (display path, or as given for
 * `outside`), where the patch names it (absent for a path outside the roots), why, and after a
 * failed commit the display paths that could not be put back.
 */
export interface PatchFailure {
  code: FsErrorCode;
  file: string;
  place?: PatchPlace;
  reason: PatchReason;
  /** Set when files had already changed: those that could not be put back (`[]`: none). */
  unrestored?: readonly string[];
}

/**
 * The message of a patch failure: `cannot patch "<path>" (<operation>, [hunk <k> at ]patch line
 * <n>): <reason>`, or `cannot patch "<path>": outside the permitted roots` (C3.2), with the
 * rollback tail when files had changed.
 *
 * @param failure The failure.
 * @returns The message.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { patchFailureMessage } from "./patch_render.ts";
 *
 * equal(
 *   patchFailureMessage({
 *     code: "FS_NOT_FOUND",
 *     file: "src/a.ts",
 *     place: { operation: "Update File", line: 2 },
 *     reason: { kind: "not-found", suggestions: ["src/app.ts"], addFile: true },
 *   }),
 *   'cannot patch "src/a.ts" (Update File, patch line 2): not found; did you mean "src/app.ts"?; to create it use *** Add File',
 * );
 * ```
 */
export function patchFailureMessage(failure: PatchFailure): string {
  const reason = patchReason(failure.code, failure.reason);
  const message = failure.place === undefined
    ? `cannot patch ${quotePath(failure.file)}: ${reason}`
    : patchFileMessage(failure.file, failure.place, reason);
  return failure.unrestored ? message + rollbackTail(failure.unrestored) : message;
}

function patchReason(code: FsErrorCode, reason: PatchReason): string {
  switch (reason.kind) {
    case "code":
      return pathErrorReason(code, "patch", reason.detail);
    case "message":
      return reason.text;
    case "add-exists":
      return PATCH_REASONS.addExists;
    case "destination-exists":
      return PATCH_REASONS.destinationExists;
    case "twice":
      return PATCH_REASONS.twice;
    case "not-found":
      return `${pathErrorReason(code, "patch")}${didYouMean(reason.suggestions)}${
        reason.addFile ? "; to create it use *** Add File" : ""
      }`;
    case "hunk-miss":
      return hunkMissReason(reason.hint);
    case "ambiguous":
      return hunkAmbiguousReason(reason.lines);
    case "outside":
      return `${pathErrorReason(code, "patch")}${didYouMean(reason.suggestions)}`;
  }
}

/**
 * The tail added to a failure that came after some files had changed: they were put back, or
 * those that could not be are named.
 *
 * @param unrestored Display paths that could not be put back.
 * @returns The tail, starting with `; `.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { rollbackTail } from "./patch_render.ts";
 *
 * equal(rollbackTail([]), "; the files already changed were put back");
 * ```
 */
export function rollbackTail(unrestored: readonly string[]): string {
  if (unrestored.length === 0) return "; the files already changed were put back";
  return `; these files could not be put back: ${unrestored.map(quotePath).join(", ")}`;
}

/** The messages refusing a malformed apply_patch operation (C16.4). */
export const OPERATION_MESSAGES = {
  type: 'operation must be an object whose type is "create_file", "update_file" or "delete_file"',
  path: "operation.path must be a non-empty string on one line",
  diff: "operation.diff must be a string",
  moveTo: "operation.move_to must be a non-empty string on one line when given",
  pathNul: "operation.path must not contain a NUL byte",
  moveToNul: "operation.move_to must not contain a NUL byte",
} as const;
