// The traversal of the search tools (CONTRACT C9.2) over any provider: `listDir` and
// `readText` only, or the provider's optional `walkFiles` when it has one. Private to src/tools.

import { dirname, join, relative } from "node:path";
import { setImmediate } from "node:timers";
import { FsError } from "../fs_error.ts";
import type { FsDirEntry, FsProvider, FsTarget } from "../provider/fs_provider.ts";
import { IgnoreStack, parseGitignore } from "../text/gitignore.ts";
import type { GlobMatcher } from "../text/glob_match.ts";
import { bytesToText } from "./_context.ts";

/** A file found by a search. */
export interface SearchFile {
  /** The path relative to the search directory, `/` separators. */
  rel: string;
  /** The file. */
  target: FsTarget;
}

/** Options of {@linkcode walkFiles}. */
export interface WalkOptions {
  /** Only files matching it (and hidden names it names literally). */
  glob: GlobMatcher | null;
  /** Cancels the walk. */
  signal?: AbortSignal;
}

/**
 * Every regular file below a directory that the search reports (C9.2), in path order (C9.4):
 * no symlink followed, `.git` and hidden names skipped (unless the glob names them), `.gitignore`
 * rules of the directory, its descendants and its ancestors up to the root applied.
 */
export async function walkFiles(
  fs: FsProvider,
  base: FsTarget,
  options: WalkOptions,
): Promise<SearchFile[]> {
  const { glob, signal } = options;
  let stack = await ancestorRules(fs, base, signal);
  const files: SearchFile[] = [];
  const pending: { dir: FsTarget; rel: string; stack: IgnoreStack }[] = [
    { dir: base, rel: "", stack },
  ];
  while (pending.length > 0) {
    if (signal?.aborted) throw new FsError("FS_ABORTED");
    const { dir, rel, stack: parentStack } = pending.pop()!;
    let entries: FsDirEntry[];
    try {
      entries = fs.searchListDir
        ? await fs.searchListDir(dir, { signal })
        : await fs.listDir(dir, { signal });
      await pause(signal);
    } catch (error) {
      if (signal?.aborted || (error instanceof FsError && error.code === "FS_ABORTED")) {
        throw new FsError("FS_ABORTED");
      }
      if (rel === "") throw error;
      continue; // unreadable, vanished or swapped for a link: skipped
    }
    stack = parentStack;
    if (entries.some((e) => e.name === ".gitignore" && e.type === "file")) {
      const rules = await readRules(fs, child(dir, ".gitignore"), signal);
      if (rules) stack = stack.push({ base: rel, rules });
    }
    for (const entry of entries) {
      const name = entry.name;
      if (entry.type === "other" || name === ".git") continue;
      if (name.startsWith(".") && !glob?.namesHidden(name)) continue;
      const path = rel === "" ? name : `${rel}/${name}`;
      if (entry.type === "directory") {
        if (glob && !glob.mayContain(path)) continue;
        if (!stack.empty && stack.ignores(path, true)) continue;
        pending.push({ dir: child(dir, name), rel: path, stack });
      } else {
        if (glob && !glob.match(path)) continue;
        if (!stack.empty && stack.ignores(path, false)) continue;
        files.push({ rel: path, target: child(dir, name) });
      }
    }
  }
  files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return files;
}

let last = performance.now();

/**
 * Lets timers and the abort signal run about every 10 ms of a synchronous fast path (through
 * `setImmediate`: `setTimeout(0)` costs milliseconds a yield in Deno).
 */
export async function pause(signal?: AbortSignal): Promise<void> {
  const now = performance.now();
  if (now - last < 10) return;
  await new Promise((resolve) => setImmediate(resolve));
  last = performance.now();
  if (signal?.aborted) throw new FsError("FS_ABORTED");
}

function child(dir: FsTarget, name: string): FsTarget {
  return { path: join(dir.path, name), realPath: join(dir.realPath, name), root: dir.root };
}

async function readRules(fs: FsProvider, target: FsTarget, signal?: AbortSignal) {
  try {
    const { bytes } = await fs.readText(target, { signal });
    return parseGitignore(bytesToText(bytes));
  } catch {
    if (signal?.aborted) throw new FsError("FS_ABORTED");
    return null;
  }
}

/** The `.gitignore` rules of the directories from the root down to the search directory's parent. */
async function ancestorRules(
  fs: FsProvider,
  base: FsTarget,
  signal?: AbortSignal,
): Promise<IgnoreStack> {
  const chain: string[] = [];
  for (let dir = base.realPath; dir !== base.root.path;) {
    const up = dirname(dir);
    if (up === dir || relative(base.root.path, up).startsWith("..")) break;
    chain.unshift(up);
    dir = up;
  }
  let stack = new IgnoreStack();
  for (const dir of chain) {
    const target = {
      path: join(dir, ".gitignore"),
      realPath: join(dir, ".gitignore"),
      root: base.root,
    };
    const rules = await readRules(fs, target, signal);
    if (rules) {
      const prefix = relative(dir, base.realPath).split("\\").join("/") + "/";
      stack = stack.push({ base: "", prefix, rules });
    }
  }
  return stack;
}
