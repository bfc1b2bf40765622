/**
 * A JSON tree of the workspace for the UI's sidebar, walked through the provider: every
 * directory is resolved (`fs.resolve`, containment on real paths) before `fs.listDir` reads it,
 * so a directory swapped for a link to elsewhere is never listed, and an entry that cannot be
 * read carries its own error while the rest of the tree still shows.
 *
 * @module
 */

import type { FsProvider } from "../../mod.ts";
import type { TreeNode } from "./api_types.ts";
import { compareEntries } from "../../src/render/list_render.ts";

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

/**
 * Reads a directory tree through a provider.
 *
 * @param fs The provider the tools use.
 * @param root The workspace root (absolute): the cwd paths resolve against.
 * @param options Depth and width limits.
 * @returns The root node.
 */
export async function buildTree(
  fs: FsProvider,
  root: string,
  options: TreeOptions = {},
): Promise<TreeNode> {
  const maxDepth = options.maxDepth ?? 6;
  const maxChildren = options.maxChildren ?? 40;

  async function fill(node: TreeNode, depth: number): Promise<void> {
    let entries: TreeNode[];
    try {
      const target = await fs.resolve(node.path, { cwd: root, op: "list" });
      entries = [...await fs.listDir(target)].sort(compareEntries).map((entry) => ({
        name: entry.name,
        path: node.path === "." ? entry.name : `${node.path}/${entry.name}`,
        type: entry.type,
      }));
    } catch (error) {
      node.error = message(error);
      return;
    }
    node.total = entries.length;
    node.children = entries.slice(0, maxChildren);
    await Promise.all(node.children.map((child) => describe(child, depth)));
  }

  /** Sizes files, tells links from other special files, and descends into directories. */
  async function describe(node: TreeNode, depth: number): Promise<void> {
    try {
      if (node.type === "file") {
        const target = await fs.resolve(node.path, { cwd: root, op: "read" });
        node.size = (await fs.stat(target))?.size ?? undefined;
      } else if (node.type === "other") {
        await describeOther(node);
      } else if (node.type === "directory" && depth < maxDepth) {
        await fill(node, depth + 1);
      }
    } catch (error) {
      node.error = message(error);
    }
  }

  async function describeOther(node: TreeNode): Promise<void> {
    let target;
    try {
      target = await fs.resolve(node.path, { cwd: root, op: "list" });
    } catch (error) {
      if ((error as { code?: string }).code !== "FS_OUTSIDE_ROOT") throw error;
      node.type = "symlink";
      node.outside = true;
      return;
    }
    if (target.realPath !== target.path) node.type = "symlink";
  }

  const tree: TreeNode = { name: ".", path: ".", type: "directory" };
  await fill(tree, 1);
  return tree;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
