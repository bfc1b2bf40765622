// A patch failure as data (issue 31.7): `{ code, file, place, reason }`, carried by one error
// class and rendered once, by `patchFailureMessage` in src/render/patch_render.ts. An `FsError`
// from a check, the policy or the provider becomes one by its code (and its detail or a host's
// own message), never by taking a rendered message apart. Private to src/tools/patch.

import { FsError } from "../../fs_error.ts";
import {
  type PatchFailure,
  patchFailureMessage,
  type PatchPlace,
  type PatchReason,
} from "../../render/patch_render.ts";

/** A failure of one operation of a patch; `failure` is the data, `message` its rendering. */
export class PatchFailureError extends FsError {
  /** What failed, where and why. */
  readonly failure: PatchFailure;

  constructor(failure: PatchFailure, cause?: unknown) {
    super(failure.code, { message: patchFailureMessage(failure), cause });
    this.failure = failure;
  }
}

/** A file of the patch as failures name it. */
export interface FailingFile {
  /** The display path (or, before it is resolved, the path as given). */
  shown: string;
  /** Where the patch names it. */
  place: PatchPlace;
}

/** A failure about `file` with `reason`. */
export function fileFailure(
  code: FsError["code"],
  file: FailingFile,
  reason: PatchReason,
): PatchFailureError {
  return new PatchFailureError({ code, file: file.shown, place: file.place, reason });
}

/**
 * `error` as a failure about `file`: a patch failure stays as it is; a path outside every root
 * names the path as given (C3.2); any other `FsError` keeps its code with the contract's reason
 * for it, or the complete message a host policy gave. Anything else is not a tool failure and
 * is returned as it is.
 */
export function asPatchFailure(error: unknown, file: FailingFile, given: string): unknown {
  if (error instanceof PatchFailureError || !(error instanceof FsError)) return error;
  if (error.code === "FS_OUTSIDE_ROOT" && !error.hasMessage) {
    return new PatchFailureError(
      { code: error.code, file: given, reason: { kind: "outside", suggestions: [] } },
      error,
    );
  }
  const reason: PatchReason = error.hasMessage
    ? { kind: "message", text: error.message }
    : error.detail === undefined
    ? { kind: "code" }
    : { kind: "code", detail: error.detail };
  return new PatchFailureError(
    { code: error.code, file: file.shown, place: file.place, reason },
    error,
  );
}

/** The failure with the files that could not be put back after a failed commit. */
export function withUnrestored(
  error: PatchFailureError,
  unrestored: readonly string[],
): PatchFailureError {
  return new PatchFailureError({ ...error.failure, unrestored }, error);
}
