// Versions and preconditions of MemoryFileSystem (C5.7). Private to src/provider/memory.

import { FsError } from "../../fs_error.ts";
import type { FsPrecondition } from "../fs_provider.ts";
import type { FileNode, Node } from "./_tree.ts";

/** The C5.7 version of a file node: a new node for every change, so a new version. */
export function versionOf(file: FileNode): string {
  return `mem:${file.id}:${file.bytes.length}`;
}

/** Throws `FS_STALE` when a `version` precondition does not hold for `current`. */
export function checkVersion(current: Node | null, precondition: FsPrecondition): void {
  if (precondition.kind !== "version") return;
  if (current?.kind !== "file" || versionOf(current) !== precondition.version) {
    throw new FsError("FS_STALE");
  }
}
