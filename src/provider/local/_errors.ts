// From thrown values to contract errors (CONTRACT C7.1). Private to src/provider/local.

import { FsError } from "../../fs_error.ts";
import { isAbort, toFsError } from "../to_fs_error.ts";
import { isMissing } from "./_stat.ts";

/**
 * Deno's error class for the `code` of a `node:fs` error (the temporary file's calls). Looked
 * up when needed, never at module load: this module loads under Node too (CONTRACT C18.1).
 */
function denoErrorClass(code: string): (new (message: string) => Error) | undefined {
  const errors = Deno.errors;
  const classes: Record<string, new (message: string) => Error> = {
    ENOENT: errors.NotFound,
    ENOTDIR: errors.NotADirectory,
    EACCES: errors.PermissionDenied,
    EPERM: errors.PermissionDenied,
    EISDIR: errors.IsADirectory,
    EEXIST: errors.AlreadyExists,
  };
  return classes[code];
}

/**
 * A `node:fs` error (`EACCES: permission denied, open '<path>'`) as the Deno error it stands
 * for, with Deno's message form (`Permission denied (os error 13)`) and no path; anything else
 * unchanged.
 */
export function fromNodeError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof Deno.errors.NotCapable) return error;
  const { code, errno } = error as Error & { code?: unknown; errno?: unknown };
  if (typeof code !== "string" || typeof errno !== "number" || !/^E[A-Z]+$/.test(code)) {
    return error;
  }
  const described = /^E[A-Z]+: ([^,]*)/.exec(error.message)?.[1] ?? code;
  const message = `${described.charAt(0).toUpperCase()}${described.slice(1)} (os error ${
    Math.abs(errno)
  })`;
  const Class = denoErrorClass(code) ?? Error;
  return new Class(message);
}

/** Runs `task`, turning every failure into an `FsError` with a contract code. */
export async function guard<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    signal?.throwIfAborted();
    return await task();
  } catch (error) {
    throw localFsError(error, signal);
  }
}

/**
 * Maps a thrown value to an `FsError`: Deno's error classes (and `node:fs` codes) to their
 * contract codes, anything else through the one `toFsError`.
 *
 * @param error What was thrown.
 * @param signal The call's signal, to recognize an abort.
 * @returns The equivalent `FsError`.
 */
function localFsError(error: unknown, signal?: AbortSignal): FsError {
  if (error instanceof FsError) return error;
  error = fromNodeError(error);
  if (isAbort(error, signal)) return toFsError(error, signal);
  if (isMissing(error)) {
    return new FsError("FS_NOT_FOUND", { cause: error });
  }
  if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
    return new FsError("FS_PERMISSION_DENIED", { cause: error });
  }
  if (error instanceof Deno.errors.IsADirectory) {
    return new FsError("FS_NOT_REGULAR_FILE", { cause: error });
  }
  return toFsError(error, signal);
}
