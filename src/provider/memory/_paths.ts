// Host-given paths and roots of MemoryFileSystem, checked as its constructor and host methods
// take them. Private to src/provider/memory.

import { posix } from "node:path";
import type { FsRootInfo, RootSpec } from "../fs_provider.ts";
import { parseRootSpec } from "../roots.ts";
import type { Tree } from "./_tree.ts";

/** `path` normalized: `TypeError` unless it is an absolute POSIX path without NUL. */
export function absolutePath(path: string, what: "root" | "file"): string {
  if (typeof path !== "string" || !path.startsWith("/") || path.includes("\0")) {
    throw new TypeError(`${what} "${String(path)}" must be an absolute POSIX path`);
  }
  return posix.resolve(path);
}

/** The error for a file where the tree has (or needs) a directory. */
export function conflict(path: string): TypeError {
  return new TypeError(`file "${path}" conflicts with the tree: a file is where a directory is`);
}

/** A root spec checked and made a directory of `tree` (with its parents). */
export function makeRoot(tree: Tree, spec: RootSpec): FsRootInfo {
  const { given, writable } = parseRootSpec(spec);
  const path = absolutePath(given, "root");
  if (!tree.ensureDir(path)) {
    throw new TypeError(`root "${given}" is not a directory: a file is in its place`);
  }
  return Object.freeze({ path, writable });
}
