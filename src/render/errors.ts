/**
 * Every model-facing error message (CONTRACT C3, C4, C5, C7). Pure: no I/O.
 *
 * @module
 */

import type { FsError, FsErrorCode } from "../fs_error.ts";
import { didYouMean, WRITE_UNREAD_REASON } from "./hints.ts";
import type { FsOp } from "../types.ts";
import { quotePath } from "./names.ts";

/** Validation messages of C4, keyed by a short name. */
export const VALIDATION_MESSAGES = {
  pathWhenGiven: "path must be a non-empty string when given",
  filePath: "file_path must be a non-empty string",
  offset: "offset must be a positive integer",
  limit: "limit must be a positive integer",
  content: "content must be a string",
  oldString: "old_string must be a non-empty string",
  newString: "new_string must be a string",
  replaceAll: "replace_all must be a boolean when given",
  sameStrings: "old_string and new_string must differ",
  filePathNul: "file_path must not contain a NUL byte",
  pathNul: "path must not contain a NUL byte",
} as const;

/**
 * The `limit` cap message of C4.2.
 *
 * @param readLimit The configured `readLimit`.
 * @returns The message.
 */
export function limitTooLargeMessage(readLimit: number): string {
  return `limit must be less than or equal to ${readLimit}`;
}

/**
 * The unknown-tool message of C1.4, listing the tools (C12.2).
 *
 * @param name The name the caller used.
 * @param tools The configured tools, in canonical order.
 * @returns The message.
 */
export function unknownToolMessage(name: string, tools: readonly string[]): string {
  return `unknown tool ${quotePath(name)}; the tools are ${tools.join(", ")}`;
}

/**
 * The message refusing a `ctx.session` that is not an object (observations are keyed by it).
 *
 * @param type What `typeof` says the session is.
 * @returns The message.
 */
export function sessionNotObjectMessage(type: string): string {
  return `ctx.session must be an object: got ${type}`;
}

/**
 * The details of `FS_IO_ERROR`s toolfs raises itself (the OS gives the others), shown after
 * `cannot <op> "<path>": `.
 */
export const IO_DETAILS = {
  symlinkLoop: "too many levels of symbolic links",
  replacedWhileOpening: "the file was replaced while being opened",
  temporaryReplaced: "the temporary file was replaced",
  handleClosed: "the read handle is closed",
  workerStopped: "a worker thread stopped",
  unknown: "unknown error",
  /** The OS's message for a path over PATH_MAX, given before any system call (issue 19). */
  nameTooLong: "File name too long (os error 36)",
} as const;

/**
 * The out-of-range message of C4.2.
 *
 * @param offset The requested offset.
 * @param displayPath The display path.
 * @param total The file's total lines.
 * @returns The message.
 */
export function offsetOutOfRangeMessage(
  offset: number,
  displayPath: string,
  total: number,
): string {
  return `offset ${offset} is out of range for ${quotePath(displayPath)} (${total} lines)`;
}

/**
 * The detail of the `FS_IO_ERROR` for a file `write` or `edit` cannot hold as text: its old or
 * new content would not fit in one JavaScript string (the structured value carries both).
 *
 * @param size The file's size in bytes.
 * @param max The largest size `write` and `edit` handle.
 * @returns The detail, after `cannot <op> "<path>": `.
 */
export function tooLargeDetail(size: number, max: number): string {
  return `too large (${size} bytes; write and edit handle files up to ${max} bytes)`;
}

/**
 * The details of `FS_PERMISSION_DENIED`s toolfs raises itself, shown in parentheses after
 * `cannot <op> "<path>": permission denied`.
 */
export const PERMISSION_DETAILS = {
  /** C4.3b: the file's permission bits deny this process writing it. */
  readOnlyFile: "the file is read-only",
  /** C4.3b in a tree `delete` would remove: the file, relative to the tree. */
  readOnlyInTree: (name: string): string => `it holds a read-only file, ${quotePath(name)}`,
} as const;

const REASONS: Partial<Record<FsErrorCode, string>> = {
  FS_OUTSIDE_ROOT: "outside the permitted roots",
  FS_READ_ONLY: "the root is read-only",
  FS_NOT_FOUND: "not found",
  FS_NOT_REGULAR_FILE: "not a regular file",
  FS_BINARY: "binary file",
  FS_EXISTS: "it was created meanwhile; read it first",
  FS_NOT_EMPTY: "the directory is not empty; pass recursive: true to delete it and its contents",
  FS_NOT_OBSERVED: "read it first",
  FS_STALE: "it changed since it was last read; read it again",
  FS_PERMISSION_DENIED: "permission denied",
  FS_ABORTED: "aborted",
};

/**
 * The message `cannot <op> "<path>": <reason>` for a code about one path.
 *
 * @param code The contract code.
 * @param op The tool operation.
 * @param path The display path, or for `FS_OUTSIDE_ROOT` the path as the caller gave it.
 * @param detail The OS message of an `FS_IO_ERROR`.
 * @returns The message.
 *
 * @example
 * ```ts
 * import { pathErrorMessage } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(pathErrorMessage("FS_NOT_FOUND", "read", "a.txt"), 'cannot read "a.txt": not found');
 * ```
 */
export function pathErrorMessage(
  code: FsErrorCode,
  op: FsOp,
  path: string,
  detail?: string,
): string {
  return `cannot ${op} ${quotePath(path)}: ${pathErrorReason(code, op, detail)}`;
}

/**
 * The reason part of {@linkcode pathErrorMessage}, after `cannot <op> "<path>": `.
 *
 * @param code The failure's code.
 * @param op The tool.
 * @param detail The provider's detail (e.g. an OS message).
 * @returns The reason, e.g. `read it first`.
 */
export function pathErrorReason(code: FsErrorCode, op: FsOp, detail?: string): string {
  let reason = REASONS[code];
  // C4.3b: `permission denied (the file is read-only)`; an OS refusal carries no detail.
  if (code === "FS_PERMISSION_DENIED" && detail) reason = `${reason} (${detail})`;
  if (code === "FS_NOT_OBSERVED" && op === "write") reason = WRITE_UNREAD_REASON;
  if (code === "FS_NOT_DIRECTORY") {
    // `list` and `glob` name a directory; any other op names a file below one.
    reason = op === "list" || op === "glob" ? "not a directory" : "a parent is not a directory";
  }
  return reason ?? detail ?? "input/output error";
}

/** The path a failure is about, as the caller gave it and as displayed (C7.3). */
export interface FailurePath {
  /** As the caller gave it (`.` when absent). */
  given: string;
  /** The display path of the resolved target. */
  shown: string;
}

/**
 * The whole `content` of a failed call (C7.1), from the structured failure: the complete message
 * an `FsError` carries (validation, hints, a host policy's own text), else
 * `cannot <op> "<path>": <reason>` with the path as given for `FS_OUTSIDE_ROOT` (C7.3) and the
 * display path otherwise, and for a missing target the did-you-mean tail (C12.5).
 *
 * @param error The failure.
 * @param op The tool operation.
 * @param path The target as given and as displayed.
 * @param suggestions Display paths close to a missing target, closest first.
 * @returns `Error: <message>`.
 *
 * @example
 * ```ts
 * import { FsError } from "../fs_error.ts";
 * import { renderFailure } from "./errors.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new FsError("FS_NOT_FOUND");
 * assert.equal(
 *   renderFailure(error, "read", { given: "src/mian.ts", shown: "src/mian.ts" }, ["src/main.ts"]),
 *   'Error: cannot read "src/mian.ts": not found; did you mean "src/main.ts"?',
 * );
 * ```
 */
export function renderFailure(
  error: FsError,
  op: FsOp,
  path: FailurePath,
  suggestions: readonly string[] = [],
): string {
  if (error.hasMessage) return renderError(error.message);
  const where = error.code === "FS_OUTSIDE_ROOT" ? path.given : path.shown;
  let message = pathErrorMessage(error.code, op, where, error.detail);
  if (error.code === "FS_NOT_FOUND" && op !== "write") message += didYouMean(suggestions);
  // A path meant relative to the workspace, written with a leading `/` (C12.10).
  if (error.code === "FS_OUTSIDE_ROOT") message += didYouMean(suggestions);
  return renderError(message);
}

/**
 * The whole `content` of a failed call (C7.1).
 *
 * @param message The message.
 * @returns `Error: <message>`.
 */
export function renderError(message: string): string {
  return `Error: ${message}`;
}
