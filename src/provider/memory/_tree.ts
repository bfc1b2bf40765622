// The in-memory directory tree behind MemoryFileSystem. Private to src/provider/memory.
//
// A file node is immutable: every change of a file replaces its node by a new one with a fresh
// id (as an atomic rename gives a new inode), so an open read handle keeps reading the bytes it
// was opened at, and the id alone tells one content from the next.

import { posix } from "node:path";

/** A regular file: its bytes never change once the node exists. */
export interface FileNode {
  readonly kind: "file";
  /** Unique within the process, never reused: the "inode" of this content. */
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly mtimeMs: number;
}

/** A directory: its children by name. */
export interface DirNode {
  readonly kind: "dir";
  readonly children: Map<string, Node>;
  mtimeMs: number;
}

/** A node of the tree. */
export type Node = FileNode | DirNode;

/** Where a path leads: to a node, to nothing, or through a file used as a directory. */
export type Lookup =
  | { found: Node; parent: DirNode | null; name: string }
  | { found: null; blocked: boolean };

let nextId = 1;

/** A new file node holding `bytes` (taken as they are: the caller must not change them). */
export function fileNode(bytes: Uint8Array): FileNode {
  return Object.freeze({ kind: "file", id: nextId++, bytes, mtimeMs: Date.now() });
}

/** A new empty directory node. */
export function dirNode(): DirNode {
  return { kind: "dir", children: new Map(), mtimeMs: Date.now() };
}

/** The names of an absolute path, `/` excluded (`/a/b` → `["a", "b"]`). */
export function segments(path: string): string[] {
  return posix.normalize(path).split("/").filter((name) => name !== "");
}

/** The tree: `/` and everything below it. */
export class Tree {
  readonly top: DirNode = dirNode();

  /** What the absolute `path` leads to. `blocked`: a component before the last is a file. */
  lookup(path: string): Lookup {
    let node: Node = this.top;
    let parent: DirNode | null = null;
    let name = "";
    for (const part of segments(path)) {
      if (node.kind !== "dir") return { found: null, blocked: true };
      parent = node;
      name = part;
      const child: Node | undefined = node.children.get(part);
      if (!child) return { found: null, blocked: false };
      node = child;
    }
    return { found: node, parent, name };
  }

  /**
   * The directory at `path`, made with its missing parents. Returns `null` when a component is a
   * file (nothing is made then).
   */
  ensureDir(path: string): DirNode | null {
    const parts = segments(path);
    let node: Node = this.top;
    let at = 0;
    for (; at < parts.length; at++) {
      if (node.kind !== "dir") return null;
      const child: Node | undefined = node.children.get(parts[at]);
      if (!child) break;
      node = child;
    }
    if (node.kind !== "dir") return null;
    for (; at < parts.length; at++) {
      const made = dirNode();
      node.children.set(parts[at], made);
      node.mtimeMs = made.mtimeMs;
      node = made;
    }
    return node;
  }

  /** The absolute paths of every file, in tree order. */
  filePaths(): string[] {
    const out: string[] = [];
    const walk = (dir: DirNode, prefix: string) => {
      for (const [name, node] of dir.children) {
        if (node.kind === "file") out.push(prefix + name);
        else walk(node, `${prefix}${name}/`);
      }
    };
    walk(this.top, "/");
    return out;
  }

  /** Puts `file` at `name` in `dir`, replacing what was there. */
  static put(dir: DirNode, name: string, file: FileNode): void {
    dir.children.set(name, file);
    dir.mtimeMs = file.mtimeMs;
  }
}
