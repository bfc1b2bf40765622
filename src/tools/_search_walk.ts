// The traversal of the search tools (CONTRACT C9.2) over any provider: `listDir` and
// `readText`, or the provider's optional `searchListDir` and `searchChunks` fast paths when it
// has them. Private to src/tools.

import { dirname, join, relative, sep } from "node:path";
import { setImmediate } from "node:timers";
import { FsError } from "../fs_error.ts";
import type { FsDirEntry, FsProvider, FsTarget } from "../provider/fs_provider.ts";
import { concatBytes } from "../text/bytes.ts";
import { type IgnoreEntries, IgnoreStack, parseGitignore } from "../text/gitignore.ts";
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
  /**
   * `true` when the caller reports only files whose reads pass the provider's containment check
   * (`grep`, `verifyIf`): the listings below the search directory then skip their own check.
   */
  verifiedReadsOnly?: boolean;
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
  const files: SearchFile[] = [];
  await walkEach(fs, base, options, (file) => {
    files.push(file);
  });
  return files;
}

/** A directory's entry the walk goes on with, and its sort key (a directory's name plus `/`). */
interface Kept {
  key: string;
  name: string;
  path: string;
  directory: boolean;
}

const byKey = (a: Kept, b: Kept) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * The files of {@linkcode walkFiles}, handed to `visit` one at a time in path order (C9.4) as
 * the walk reaches them (depth first, each directory's entries sorted with a directory's name
 * read as followed by `/`, which is the order of the whole paths): no list of every file is
 * built, and each file can be searched before the next directory is listed. `visit` is awaited
 * before the walk goes on; what it throws ends the walk.
 */
export async function walkEach(
  fs: FsProvider,
  base: FsTarget,
  options: WalkOptions,
  visit: (file: SearchFile) => Promise<void> | void,
): Promise<void> {
  const { glob, signal } = options;
  const unverified = options.verifiedReadsOnly === true;
  // `ignore`: the .gitignore verdicts carried down from the parent (none looked up by path).
  const walk = async (dir: FsTarget, rel: string, parentIgnore: IgnoreEntries): Promise<void> => {
    if (signal?.aborted) throw new FsError("FS_ABORTED");
    let entries: FsDirEntry[];
    try {
      entries = fs.searchListDir
        ? await fs.searchListDir(dir, { signal, verify: rel === "" || !unverified })
        : await fs.listDir(dir, { signal });
      await pause(signal);
    } catch (error) {
      if (signal?.aborted || (error instanceof FsError && error.code === "FS_ABORTED")) {
        throw new FsError("FS_ABORTED");
      }
      if (rel === "") throw error;
      return; // unreadable, vanished or swapped for a link: skipped
    }
    let ignore = parentIgnore;
    if (entries.some((e) => e.name === ".gitignore" && e.type === "file")) {
      const rules = await readRules(fs, child(dir, ".gitignore"), signal);
      if (rules) ignore = ignore.withRules(rules);
    }
    const kept: Kept[] = [];
    for (const entry of entries) {
      const name = entry.name;
      if (entry.type === "other" || name === ".git") continue;
      if (name.startsWith(".") && !glob?.namesHidden(name)) continue;
      const path = rel === "" ? name : `${rel}/${name}`;
      if (entry.type === "directory") {
        if (glob && !glob.mayContain(path)) continue;
        if (!ignore.empty && ignore.ignores(name, true)) continue;
        kept.push({ key: name + "/", name, path, directory: true });
      } else {
        if (glob && !glob.match(path)) continue;
        if (!ignore.empty && ignore.ignores(name, false)) continue;
        kept.push({ key: name, name, path, directory: false });
      }
    }
    entries = [];
    kept.sort(byKey);
    for (const { name, path, directory } of kept) {
      if (directory) await walk(child(dir, name), path, ignore.child(name));
      else {
        const visited = visit({ rel: path, target: child(dir, name) });
        if (visited) await visited;
      }
    }
  };
  await walk(base, "", (await ancestorRules(fs, base, signal)).entriesOf(""));
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

/** A name below a normalized absolute path (`join` without re-normalizing: a name has no `/`). */
function below(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

function child(dir: FsTarget, name: string): FsTarget {
  return { path: below(dir.path, name), realPath: below(dir.realPath, name), root: dir.root };
}

async function readRules(fs: FsProvider, target: FsTarget, signal?: AbortSignal) {
  try {
    let bytes: Uint8Array;
    if (fs.searchChunks) {
      // Synchronous once open: no round trip through the I/O threads per file.
      const parts: Uint8Array[] = [];
      // A buffer of its own: `for await` lets other searches run between chunks.
      const buffer = new Uint8Array(1 << 14);
      const chunks = await fs.searchChunks(target, { signal, buffer });
      for await (const chunk of chunks) parts.push(chunk.slice());
      bytes = concatBytes(parts);
    } else {
      ({ bytes } = await fs.readText(target, { signal }));
    }
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
