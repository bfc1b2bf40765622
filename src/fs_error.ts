/**
 * The error type every toolfs failure is expressed in, and its codes.
 *
 * @module
 */

/** Every code a toolfs result can carry in `result.error.code` (CONTRACT C7). */
export const FS_ERROR_CODES = [
  "FS_INVALID_ARGUMENT",
  "FS_UNKNOWN_TOOL",
  "FS_OUTSIDE_ROOT",
  "FS_READ_ONLY",
  "FS_NOT_FOUND",
  "FS_NOT_DIRECTORY",
  "FS_NOT_REGULAR_FILE",
  "FS_BINARY",
  "FS_OFFSET_OUT_OF_RANGE",
  "FS_NO_MATCH",
  "FS_AMBIGUOUS_MATCH",
  "FS_EXISTS",
  "FS_NOT_EMPTY",
  "FS_NOT_OBSERVED",
  "FS_STALE",
  "FS_PERMISSION_DENIED",
  "FS_ABORTED",
  "FS_IO_ERROR",
] as const;

/** One of {@linkcode FS_ERROR_CODES}. */
export type FsErrorCode = typeof FS_ERROR_CODES[number];

/** Options of {@linkcode FsError}. */
export interface FsErrorOptions {
  /**
   * The complete model-facing message, when the thrower already knows it (a host policy, say).
   * When absent, the tool renders the message for the code from the operation and the path.
   */
  message?: string;
  /** Extra detail for the rendered message, such as the operating system's own text. */
  detail?: string;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * A tool-level failure with a contract code. Providers and policies throw it; `execute` turns it
 * into a result with `isError: true` and never lets it escape.
 *
 * @example Refuse a write from a host policy
 * ```ts
 * import { FsError } from "./fs_error.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new FsError("FS_PERMISSION_DENIED", { message: "the user declined the write" });
 * assert.equal(error.code, "FS_PERMISSION_DENIED");
 * assert.equal(error.message, "the user declined the write");
 * ```
 */
export class FsError extends Error {
  /** The contract code. */
  readonly code: FsErrorCode;
  /** Extra detail for the rendered message (the OS message of an `FS_IO_ERROR`). */
  readonly detail: string | undefined;
  /** Whether `message` is the complete model-facing message. */
  readonly hasMessage: boolean;

  /**
   * Creates a failure with a contract code.
   *
   * @param code The contract code.
   * @param options The message, detail and cause.
   */
  constructor(code: FsErrorCode, options: FsErrorOptions = {}) {
    super(options.message ?? options.detail ?? code, { cause: options.cause });
    this.name = "FsError";
    this.code = code;
    this.detail = options.detail;
    this.hasMessage = options.message !== undefined;
  }
}
