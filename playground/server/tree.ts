/**
 * A JSON tree of the workspace for the UI's sidebar. Symlinks are shown, never followed.
 *
 * @module
 */

import { join } from "node:path";
import type { TreeNode } from "./api_types.ts";

export type { TreeNode };

/** Options of {@linkcode buildTree}. */
export interface TreeOptions {
  /**
   * Levels below the root to read.
   * @default {6}
   */
  maxDepth?: number;
  /**
   * Children shown per directory; `total` still counts them all.
   * @default {40}
   */
  maxChildren?: number;
}

const ORDER: Record<TreeNode["type"], number> = { directory: 0, file: 1, symlink: 2, other: 2 };

/**
 * Reads a directory tree.
 *
 * @param root The workspace root (absolute).
 * @param options Depth and width limits.
 * @returns The root node.
 */
export async function buildTree(root: string, options: TreeOptions = {}): Promise<TreeNode> {
  const maxDepth = options.maxDepth ?? 6;
  const maxChildren = options.maxChildren ?? 40;

  async function walk(
    dir: string,
    path: string,
    depth: number,
  ): Promise<{ children: TreeNode[]; total: number }> {
    const entries: TreeNode[] = [];
    for await (const entry of Deno.readDir(dir)) {
      const type = entry.isDirectory
        ? "directory"
        : entry.isFile
        ? "file"
        : entry.isSymlink
        ? "symlink"
        : "other";
      entries.push({ name: entry.name, path: path ? `${path}/${entry.name}` : entry.name, type });
    }
    entries.sort((a, b) => ORDER[a.type] - ORDER[b.type] || compareNames(a.name, b.name));
    const children = entries.slice(0, maxChildren);
    for (const node of children) {
      const full = join(dir, node.name);
      if (node.type === "file") {
        node.size = (await Deno.lstat(full).catch(() => null))?.size ?? 0;
      } else if (node.type === "directory" && depth < maxDepth) {
        Object.assign(node, await walk(full, node.path, depth + 1));
      }
    }
    return { children, total: entries.length };
  }

  return { name: ".", path: ".", type: "directory", ...await walk(root, "", 1) };
}

function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0;
}
