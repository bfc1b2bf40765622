// Moving, removing and listing whole entries of MemoryFileSystem (C15). Private to
// src/provider/memory. Each call is synchronous once its checks pass, so nothing another call
// does can come between the check and the change.

import { posix } from "node:path";
import { FsError } from "../../fs_error.ts";
import { ENTRY_REASONS } from "../../render/entry_render.ts";
import type { FsRootInfo } from "../../types.ts";
import type {
  FsMoveOutcome,
  FsRemoveOptions,
  FsRemoveOutcome,
  FsTreeEntry,
} from "../fs_provider.ts";
import { findRoot } from "../roots.ts";
import type { Node, Tree } from "./_tree.ts";
import { versionOf } from "./_version.ts";

/** The entry at `path` and, for a directory, everything below it, parents first. */
export function treeEntries(tree: Tree, path: string, versions: boolean): FsTreeEntry[] | null {
  const found = tree.lookup(path).found;
  if (!found) return null;
  const out: FsTreeEntry[] = [];
  const walk = (node: Node, at: string) => {
    if (node.kind === "file") {
      out.push(
        versions ? { realPath: at, type: "file", version: versionOf(node) } : {
          realPath: at,
          type: "file",
        },
      );
      return;
    }
    out.push({ realPath: at, type: "directory" });
    for (const [name, child] of node.children) walk(child, `${at}/${name}`);
  };
  walk(found, path);
  return out;
}

/** Refuses a parent outside every writable root, and (with `refuseRoot`) a root. */
export function checkEntry(roots: readonly FsRootInfo[], path: string, refuseRoot = true): void {
  if (refuseRoot && roots.some((root) => root.path === path)) {
    throw new FsError("FS_INVALID_ARGUMENT", { detail: ENTRY_REASONS.root });
  }
  const root = findRoot(roots, posix.dirname(path));
  if (!root) throw new FsError("FS_OUTSIDE_ROOT");
  if (!root.writable) throw new FsError("FS_READ_ONLY");
}

/**
 * Moves the node at `from` to `to`, making `to`'s parents; never replaces. A file's outcome
 * carries its version (the node moves whole, so it is the one it had).
 */
export function moveNode(
  tree: Tree,
  from: string,
  to: string,
  signal?: AbortSignal,
): FsMoveOutcome {
  const source = tree.lookup(from);
  if (!source.found) throw new FsError("FS_NOT_FOUND");
  if (source.found.kind === "dir" && (to === from || to.startsWith(`${from}/`))) {
    throw new FsError("FS_INVALID_ARGUMENT", { detail: ENTRY_REASONS.intoItself });
  }
  const there = tree.lookup(to);
  if (there.found) throw new FsError("FS_EXISTS");
  if (there.blocked) throw new FsError("FS_NOT_DIRECTORY");
  signal?.throwIfAborted(); // the commit point: nothing has changed before it
  const parent = tree.ensureDir(posix.dirname(to))!; // not blocked: checked above
  source.parent!.children.delete(source.name);
  parent.children.set(posix.basename(to), source.found);
  source.parent!.mtimeMs = parent.mtimeMs = Date.now();
  const moved = source.found;
  return moved.kind === "dir" ? { type: "directory" } : { type: "file", version: versionOf(moved) };
}

/** Removes the node at `path` after checking `expect`; nothing is removed when a check fails. */
export function removeNode(tree: Tree, path: string, options: FsRemoveOptions): FsRemoveOutcome {
  const { recursive = false, expect, signal } = options;
  const at = tree.lookup(path);
  if (!at.found) throw new FsError("FS_NOT_FOUND");
  const node = at.found;
  if (node.kind === "dir" && node.children.size > 0 && !recursive) {
    throw new FsError("FS_NOT_EMPTY");
  }
  const entries = treeEntries(tree, path, true)!;
  if (expect) {
    const files = entries.filter((e) => e.type === "file");
    const unexpected = files.some((e) => expect.get(e.realPath) !== e.version);
    if (unexpected || files.length !== expect.size) throw new FsError("FS_STALE");
  }
  signal?.throwIfAborted(); // the commit point: nothing has changed before it
  at.parent!.children.delete(at.name);
  at.parent!.mtimeMs = Date.now();
  const directories = entries.filter((e) => e.type === "directory").length;
  return {
    type: node.kind === "dir" ? "directory" : "file",
    files: entries.length - directories,
    directories,
  };
}
