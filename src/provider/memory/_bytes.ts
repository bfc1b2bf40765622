// Contents handed to MemoryFileSystem, as the one buffer it stores. Private to
// src/provider/memory.

import { concatBytes } from "../../text/bytes.ts";
import { editPieces } from "../edit_pieces.ts";
import type { FsEditOutcome } from "../fs_provider.ts";

const encoder = new TextEncoder();

/** A host-given content as a fresh buffer: `TypeError` when it is neither text nor bytes. */
export function contentBytes(path: string, content: string | Uint8Array): Uint8Array {
  if (typeof content === "string") return encoder.encode(content);
  if (content instanceof Uint8Array) return content.slice();
  throw new TypeError(
    `content of "${path}" must be a string or a Uint8Array: got ${typeof content}`,
  );
}

/** Text as the bytes a write stores (UTF-8). */
export function textBytes(content: string): Uint8Array {
  return encoder.encode(content);
}

/** An edit's new contents as one new buffer (one buffer, or slices in order). */
export function join(after: Uint8Array | readonly Uint8Array[]): Uint8Array {
  return concatBytes(editPieces(after));
}

/** An edit's outcome whose `after` is the stored buffer: a copy is handed out, made on read. */
export function copyOnRead(before: Uint8Array, after: Uint8Array, version: string): FsEditOutcome {
  return Object.defineProperty({ before, version }, "after", {
    get: () => after.slice(),
    enumerable: true,
  }) as FsEditOutcome;
}
