/**
 * An in-memory {@linkcode FsProvider} (CONTRACT C1.7): the tools behave on it as on
 * `LocalFileSystem`, exact texts and error codes included, without touching a disk.
 *
 * @module
 */

import { posix } from "node:path";
import { FsError } from "../../fs_error.ts";
import type { FsDirEntry } from "../../types.ts";
import type {
  FsCallOptions,
  FsContentRequest,
  FsEditOutcome,
  FsFileContent,
  FsMoveOutcome,
  FsMutationOptions,
  FsProvider,
  FsReadHandle,
  FsRemoveOptions,
  FsRemoveOutcome,
  FsReplaceOutcome,
  FsReplaceRequest,
  FsResolveOptions,
  FsRootInfo,
  FsStat,
  FsTarget,
  FsTreeEntry,
  FsTreeOptions,
  FsWriteOutcome,
  RootSpec,
} from "../fs_provider.ts";
import { isReplaceRequest, planReplace } from "../edit_pieces.ts";
import { findRoot } from "../roots.ts";
import { contentBytes, copyOnRead, join, textBytes } from "./_bytes.ts";
import { checkEntry, moveNode, removeNode, treeEntries } from "./_entries.ts";
import { guard } from "./_guard.ts";
import { absolutePath, conflict, makeRoot } from "./_paths.ts";
import { chunkSizeOf, openHandle } from "./_stream.ts";
import { type FileNode, fileNode, Tree } from "./_tree.ts";
import { checkVersion, versionOf } from "./_version.ts";

/**
 * A root of a {@linkcode MemoryFileSystem}: an absolute POSIX path, or one with `write: false`.
 * The same type as `RootSpec`, the roots of every provider.
 */
export type MemoryRootSpec = RootSpec;

/** Initial contents: absolute paths to text or bytes; a path ending in `/` is an empty directory. */
export type MemoryFiles = Readonly<Record<string, string | Uint8Array>>;

/** Options of {@linkcode MemoryFileSystem}. */
export interface MemoryFileSystemOptions {
  /** The roots every path must lie in. At least one. Missing roots are made as empty directories. */
  roots: readonly MemoryRootSpec[];
  /**
   * Files to start with, anywhere (also outside the roots). Parents are created.
   * @default {{}}
   */
  files?: MemoryFiles;
  /**
   * Bytes per chunk of a streamed read.
   * @default {65536}
   */
  chunkSize?: number;
}

/**
 * A file tree held in memory, behind the same seam as `LocalFileSystem`: same roots, same
 * containment, same versions and preconditions, same error codes. Every mutation is one
 * synchronous step, so it is atomic and mutations of one file are serialized (C5.5).
 * Symlinks, special files and OS errors do not exist here.
 *
 * @example An agent on a virtual tree
 * ```ts
 * import assert from "node:assert/strict";
 * import { createFsTools } from "../../tools/tools.ts";
 * import { MemoryFileSystem } from "./memory_fs.ts";
 *
 * const fs = new MemoryFileSystem({
 *   roots: ["/work", { path: "/docs", write: false }],
 *   files: { "/work/notes.txt": "one\ntwo\n", "/docs/guide.md": "# Guide\n" },
 * });
 * const tools = createFsTools({ fs });
 * const read = await tools.execute("read", { file_path: "notes.txt" });
 * assert.equal(read.content, "<path>notes.txt</path>\n<type>file</type>\n<content>\n1: one\n2: two\n\n(End of file - total 2 lines)\n</content>");
 * const write = await tools.execute("write", { file_path: "/docs/guide.md", content: "x" });
 * assert.equal(write.error?.code, "FS_READ_ONLY");
 * ```
 */
export class MemoryFileSystem implements FsProvider {
  /** The roots as normalized absolute paths, in the order given. */
  readonly roots: readonly FsRootInfo[];
  #tree = new Tree();
  #chunkSize: number;

  /**
   * Builds the tree: the roots as directories, then `files`.
   *
   * @param options The roots, initial files and tuning.
   * @throws {TypeError} When a root or a file path is not absolute, a content is neither a
   * string nor bytes, or two entries conflict (a file where a directory must be).
   */
  constructor(options: MemoryFileSystemOptions) {
    const specs = options?.roots;
    if (!Array.isArray(specs) || specs.length === 0) {
      throw new TypeError("MemoryFileSystem needs at least one root: got none");
    }
    this.#chunkSize = chunkSizeOf(options.chunkSize);
    for (const [path, content] of Object.entries(options.files ?? {})) {
      const absolute = absolutePath(path, "file");
      if (path.endsWith("/")) {
        if (!this.#tree.ensureDir(absolute)) throw conflict(path);
        continue;
      }
      this.writeFile(absolute, content);
    }
    this.roots = Object.freeze(specs.map((spec) => makeRoot(this.#tree, spec)));
  }

  // --- host access: trusted, outside the roots' rules --------------------------------------

  /**
   * The bytes of the file at an absolute path, as the host sees them (no root or policy check).
   *
   * @param path An absolute path.
   * @returns A copy of the file's bytes, or `undefined` when no file is there.
   *
   * @example Look at what an agent wrote
   * ```ts
   * import assert from "node:assert/strict";
   * import { MemoryFileSystem } from "./memory_fs.ts";
   *
   * const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/a.txt": "hi" } });
   * assert.equal(new TextDecoder().decode(fs.readFile("/w/a.txt")), "hi");
   * assert.equal(fs.readFile("/w/missing"), undefined);
   * ```
   */
  readFile(path: string): Uint8Array | undefined {
    const found = this.#tree.lookup(absolutePath(path, "file")).found;
    return found?.kind === "file" ? found.bytes.slice() : undefined;
  }

  /**
   * Creates or replaces a file as the host (no root, read-only or policy check), making its
   * parents. Like a change made outside the tools, it gives the file a new version.
   *
   * @param path An absolute path.
   * @param content The new content.
   * @throws {TypeError} When `path` is not absolute, `content` is neither a string nor bytes, or
   * a parent is a file or the path is a directory.
   *
   * @example Change a file behind the agent's back
   * ```ts
   * import assert from "node:assert/strict";
   * import { MemoryFileSystem } from "./memory_fs.ts";
   *
   * const fs = new MemoryFileSystem({ roots: ["/w"] });
   * fs.writeFile("/w/src/a.ts", "export {};\n");
   * assert.deepEqual(fs.paths(), ["/w/src/a.ts"]);
   * ```
   */
  writeFile(path: string, content: string | Uint8Array): void {
    const absolute = absolutePath(path, "file");
    const bytes = contentBytes(path, content);
    const dir = this.#tree.ensureDir(posix.dirname(absolute));
    const name = posix.basename(absolute);
    if (!dir || name === "" || dir.children.get(name)?.kind === "dir") throw conflict(path);
    Tree.put(dir, name, fileNode(bytes));
  }

  /**
   * Removes a file or a directory with everything below it, as the host.
   *
   * @param path An absolute path.
   * @returns Whether something was removed.
   *
   * @example Delete a file
   * ```ts
   * import assert from "node:assert/strict";
   * import { MemoryFileSystem } from "./memory_fs.ts";
   *
   * const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/a.txt": "x" } });
   * assert.equal(fs.remove("/w/a.txt"), true);
   * assert.equal(fs.remove("/w/a.txt"), false);
   * ```
   */
  remove(path: string): boolean {
    const found = this.#tree.lookup(absolutePath(path, "file"));
    if (!found.found || !found.parent) return false;
    found.parent.children.delete(found.name);
    found.parent.mtimeMs = Date.now();
    return true;
  }

  /**
   * The absolute paths of every file, sorted by code units.
   *
   * @returns The paths.
   *
   * @example All files
   * ```ts
   * import assert from "node:assert/strict";
   * import { MemoryFileSystem } from "./memory_fs.ts";
   *
   * const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/b": "", "/w/d/a": "" } });
   * assert.deepEqual(fs.paths(), ["/w/b", "/w/d/a"]);
   * ```
   */
  paths(): string[] {
    return this.#tree.filePaths().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  // --- the provider seam ---------------------------------------------------------------------

  /** {@inheritDoc FsProvider.resolve} */
  resolve(path: string, options: FsResolveOptions): Promise<FsTarget> {
    const { cwd, op, signal } = options;
    return guard(signal, () => {
      const lexical = posix.resolve(cwd, path);
      const root = findRoot(this.roots, lexical);
      if (!root) throw new FsError("FS_OUTSIDE_ROOT");
      if ((op === "write" || op === "edit") && !root.writable) throw new FsError("FS_READ_ONLY");
      return { path: lexical, realPath: lexical, root };
    });
  }

  /** {@inheritDoc FsProvider.stat} */
  stat(target: FsTarget, options: FsCallOptions = {}): Promise<FsStat | null> {
    return guard(options.signal, () => {
      const node = this.#inside(target).found;
      if (!node) return null;
      return node.kind === "file"
        ? { type: "file", size: node.bytes.length, mtimeMs: node.mtimeMs }
        : { type: "directory", size: null, mtimeMs: node.mtimeMs };
    });
  }

  /** {@inheritDoc FsProvider.listDir} */
  listDir(target: FsTarget, options: FsCallOptions = {}): Promise<FsDirEntry[]> {
    return guard(options.signal, () => {
      const node = this.#inside(target).found;
      if (!node) throw new FsError("FS_NOT_FOUND");
      if (node.kind !== "dir") throw new FsError("FS_NOT_DIRECTORY");
      return [...node.children].map(([name, child]) => ({
        name,
        type: child.kind === "dir" ? "directory" : "file",
      }));
    });
  }

  /** {@inheritDoc FsProvider.readText} */
  readText(target: FsTarget, options: FsCallOptions = {}): Promise<FsFileContent> {
    return guard(options.signal, () => {
      const file = this.#file(target);
      return { bytes: file.bytes.slice(), version: versionOf(file) };
    });
  }

  /** {@inheritDoc FsProvider.streamText} */
  streamText(target: FsTarget, options: FsCallOptions = {}): Promise<FsReadHandle> {
    const { signal } = options;
    return guard(signal, () => openHandle(this.#file(target), this.#chunkSize, signal));
  }

  /** {@inheritDoc FsProvider.writeText} */
  writeText(
    target: FsTarget,
    content: string,
    options: FsMutationOptions = {},
  ): Promise<FsWriteOutcome> {
    const { signal, precondition = { kind: "none" } } = options;
    return guard(signal, () => {
      const path = this.#writable(target);
      const bytes = textBytes(content);
      const at = this.#tree.lookup(path);
      // Blocked: a file where a parent directory should be.
      if (!at.found && at.blocked) throw new FsError("FS_NOT_DIRECTORY");
      const current = at.found;
      if (current?.kind === "dir") throw new FsError("FS_NOT_REGULAR_FILE");
      if (current && precondition.kind === "absent") throw new FsError("FS_EXISTS");
      checkVersion(current, precondition);
      signal?.throwIfAborted(); // the commit point: nothing has changed before it
      const dir = this.#tree.ensureDir(posix.dirname(path))!; // not blocked: checked above
      const made = fileNode(bytes);
      Tree.put(dir, posix.basename(path), made);
      return {
        operation: current ? "update" : "create",
        before: current ? current.bytes.slice() : null,
        version: versionOf(made),
      };
    });
  }

  /** {@inheritDoc FsProvider.editText} */
  editText(
    target: FsTarget,
    request: FsContentRequest,
    options?: FsMutationOptions,
  ): Promise<FsEditOutcome>;
  editText(
    target: FsTarget,
    request: FsReplaceRequest,
    options?: FsMutationOptions,
  ): Promise<FsReplaceOutcome>;
  editText(
    target: FsTarget,
    request: FsContentRequest | FsReplaceRequest,
    options: FsMutationOptions = {},
  ): Promise<FsEditOutcome | FsReplaceOutcome> {
    const { signal, precondition = { kind: "none" } } = options;
    return guard(signal, () => {
      const found = this.#tree.lookup(this.#writable(target));
      if (!found.found) throw new FsError("FS_NOT_FOUND");
      const current = found.found;
      if (current.kind !== "file") throw new FsError("FS_NOT_REGULAR_FILE");
      checkVersion(current, precondition);
      const before = current.bytes.slice();
      const planned = isReplaceRequest(request) ? planReplace(before, request) : null;
      if (planned?.kind === "unmatched") return { ...planned, before };
      const after = join(planned?.replaced.pieces ?? (request as FsContentRequest).content);
      signal?.throwIfAborted(); // the commit point: nothing has changed before it
      const made = fileNode(after);
      Tree.put(found.parent!, found.name, made);
      const outcome = copyOnRead(before, after, versionOf(made));
      if (!planned) return outcome;
      return Object.assign(outcome, { kind: "edited" as const, replaced: planned.replaced });
    });
  }

  /** {@inheritDoc FsProvider.listTree} */
  listTree(target: FsTarget, options: FsTreeOptions = {}): Promise<FsTreeEntry[] | null> {
    return guard(options.signal, () => {
      const path = posix.resolve("/", target.realPath);
      if (!findRoot(this.roots, path)) throw new FsError("FS_OUTSIDE_ROOT");
      return treeEntries(this.#tree, path, options.versions === true);
    });
  }

  /** {@inheritDoc FsProvider.moveEntry} */
  moveEntry(
    source: FsTarget,
    destination: FsTarget,
    options: FsCallOptions = {},
  ): Promise<FsMoveOutcome> {
    return guard(options.signal, () => {
      const [from, to] = [source, destination].map((t) => posix.resolve("/", t.realPath));
      checkEntry(this.roots, from);
      checkEntry(this.roots, to, false); // a root there exists: FS_EXISTS
      return moveNode(this.#tree, from, to, options.signal);
    });
  }

  /** {@inheritDoc FsProvider.removeEntry} */
  removeEntry(target: FsTarget, options: FsRemoveOptions = {}): Promise<FsRemoveOutcome> {
    return guard(options.signal, () => {
      const path = posix.resolve("/", target.realPath);
      checkEntry(this.roots, path);
      return removeNode(this.#tree, path, options);
    });
  }

  // --- internals -------------------------------------------------------------------------

  /** Looks a target up after checking it lies inside a root (hand-made targets included). */
  #inside(target: FsTarget): ReturnType<Tree["lookup"]> {
    const path = posix.resolve("/", target.realPath);
    if (!findRoot(this.roots, path)) throw new FsError("FS_OUTSIDE_ROOT");
    return this.#tree.lookup(path);
  }

  /** The regular file a target names: `FS_NOT_FOUND` or `FS_NOT_REGULAR_FILE` otherwise. */
  #file(target: FsTarget): FileNode {
    const node = this.#inside(target).found;
    if (!node) throw new FsError("FS_NOT_FOUND");
    if (node.kind !== "file") throw new FsError("FS_NOT_REGULAR_FILE");
    return node;
  }

  /** The target's path after checking it lies inside a writable root. */
  #writable(target: FsTarget): string {
    const path = posix.resolve("/", target.realPath);
    const root = findRoot(this.roots, path);
    if (!root) throw new FsError("FS_OUTSIDE_ROOT");
    if (!root.writable) throw new FsError("FS_READ_ONLY");
    return path;
  }
}
