/**
 * An edit's new contents (`FsContentRequest`) checked, and a literal replacement
 * (`FsReplaceRequest`) applied, the same way by every provider. Pure: no I/O.
 *
 * @module
 */

import { FsError } from "../fs_error.ts";
import { tooLargeDetail } from "../render/errors.ts";
import { looksBinary } from "../text/binary_sniff.ts";
import { type EditPlan, MatchError, piecesAround, planEdit } from "../text/edit_apply.ts";
import { concatBytes } from "../text/bytes.ts";
import type {
  FsContentRequest,
  FsEditOutcome,
  FsReplacement,
  FsReplaceOutcome,
  FsReplaceRequest,
} from "./fs_provider.ts";

/**
 * The slices of an edit's new contents (`FsContentRequest`), checked: one buffer, or an array of
 * buffers.
 *
 * @param content The request's `content`.
 * @returns The slices, in order.
 * @throws {TypeError} For anything else.
 */
export function editPieces(content: Uint8Array | readonly Uint8Array[]): readonly Uint8Array[] {
  if (content instanceof Uint8Array) return [content];
  if (Array.isArray(content) && content.every((piece) => piece instanceof Uint8Array)) {
    return Object.freeze([...content]);
  }
  throw new TypeError("editText's content must be a Uint8Array or an array of Uint8Arrays");
}

/**
 * Applies a literal replacement (`FsReplaceRequest`, CONTRACT C4.4) to a file's bytes, as every
 * provider does under its lock: the C4.2 binary rule and the size limit first, then the search.
 * A failed match is an outcome, not an error: the caller renders it once the lock is released.
 *
 * @param before The file's bytes.
 * @param request The replacement.
 * @returns The plan to commit, or where (and how often) `oldString` occurs.
 * @throws {FsError} `FS_BINARY`, or `FS_IO_ERROR` for a file too large before or after.
 */
export function planReplace(
  before: Uint8Array,
  request: FsReplaceRequest,
):
  | { kind: "planned"; replaced: FsReplacement }
  | { kind: "unmatched"; count: number; positions: readonly number[] } {
  if (looksBinary(before)) throw new FsError("FS_BINARY");
  const tooLarge = (size: number) =>
    new FsError("FS_IO_ERROR", { detail: tooLargeDetail(size, request.maxBytes) });
  if (before.length > request.maxBytes) throw tooLarge(before.length);
  let plan: EditPlan;
  try {
    plan = planEdit(before, request);
  } catch (error) {
    if (!(error instanceof MatchError)) throw error;
    return { kind: "unmatched", count: error.count, positions: error.positions };
  }
  if (plan.length > request.maxBytes) throw tooLarge(plan.length);
  return { kind: "planned", replaced: plan };
}

/** Whether `request` is a literal replacement rather than new contents. */
export function isReplaceRequest(
  request: FsContentRequest | FsReplaceRequest,
): request is FsReplaceRequest {
  return typeof request === "object" && request !== null &&
    typeof (request as FsReplaceRequest).oldString === "string";
}

/** An edit's outcome; slices are joined into `after` only when it is first read. */
export function editOutcome(
  before: Uint8Array,
  after: Uint8Array | readonly Uint8Array[],
  pieces: readonly Uint8Array[],
  version: string,
): FsEditOutcome {
  if (after instanceof Uint8Array) return { before, after, version };
  let joined: Uint8Array | undefined;
  const join = () => (joined ??= concatBytes(pieces));
  return Object.defineProperty({ before, version }, "after", {
    get: join,
    enumerable: true,
  }) as FsEditOutcome;
}

/**
 * The outcome of a replacement committed without the old bytes in memory: `before` (and the
 * pieces and `after` made from it) come from `load`, called on first access only.
 *
 * @param load Reads the old bytes (once; later calls return the same bytes).
 * @param plan Where the replacements went, and the new length.
 * @param version The file's version after the edit.
 */
export function lazyReplaceOutcome(
  load: () => Uint8Array,
  plan: Pick<FsReplacement, "positions" | "needle" | "replacement" | "length">,
  version: string,
): FsReplaceOutcome {
  const { positions, needle, replacement, length } = plan;
  let pieces: Uint8Array[] | undefined;
  let joined: Uint8Array | undefined;
  const piecesOf = () => pieces ??= piecesAround(load(), positions, needle.length, replacement);
  const after = () => joined ??= concatBytes(piecesOf());
  const replaced = Object.defineProperties({ positions, needle, replacement, length }, {
    pieces: { get: piecesOf, enumerable: true },
    after: { get: after, enumerable: true },
  }) as FsReplacement;
  return Object.defineProperties({ kind: "edited" as const, version, replaced }, {
    before: { get: load, enumerable: true },
    after: { get: after, enumerable: true },
  }) as FsReplaceOutcome;
}
