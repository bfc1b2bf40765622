// The one conversion of a thrown value to a contract error (CONTRACT C7.1), for any provider:
// the local provider maps Deno's error classes first, the memory provider and the tools' one
// catch (a custom provider's own throw) use it as is.

import { FsError } from "../fs_error.ts";
import { IO_DETAILS } from "../render/errors.ts";

/**
 * Maps a thrown value to an `FsError`: an `FsError` unchanged, an abort (the call's signal, or
 * an `AbortError`) as `FS_ABORTED`, anything else as `FS_IO_ERROR` with its message.
 *
 * @param error What was thrown.
 * @param signal The call's signal, to recognize an abort.
 * @returns The equivalent `FsError`.
 */
export function toFsError(error: unknown, signal?: AbortSignal): FsError {
  if (error instanceof FsError) return error;
  if (isAbort(error, signal)) return new FsError("FS_ABORTED", { cause: error });
  return new FsError("FS_IO_ERROR", { detail: errorDetail(error), cause: error });
}

/**
 * Whether a failure is the call's abort.
 *
 * @param error What was thrown.
 * @param signal The call's signal.
 * @returns `true` when the signal is aborted or `error` is an `AbortError`.
 */
export function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (error instanceof DOMException && error.name === "AbortError");
}

/**
 * A thrown value's message, whatever was thrown (even an object `String` cannot convert),
 * without the path Deno appends after `(os error N)`: the path is the tool's to show, not the
 * OS's.
 *
 * @param error What was thrown.
 * @returns The message, or `IO_DETAILS.unknown` when there is none.
 */
export function errorDetail(error: unknown): string {
  let text: string;
  try {
    const message: unknown = error instanceof Error ? error.message : String(error);
    text = typeof message === "string" && message !== ""
      ? message
      : String(message || IO_DETAILS.unknown);
  } catch {
    text = IO_DETAILS.unknown;
  }
  return text.replace(/(\(os error \d+\)).*$/s, "$1");
}
