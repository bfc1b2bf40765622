/**
 * Did-you-mean for a target that was not found (CONTRACT C12.5, C12.11) or that lies outside
 * every root only because of a leading `/` (C12.10): lookups that work for any tool and any
 * {@linkcode FsProvider}, listing only the directories on the missing path's way.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import type { FsOp, FsProvider, FsTarget } from "../provider/fs_provider.ts";
import { displayPath } from "../provider/roots.ts";
import { closeNames } from "../text/close_names.ts";

/** How many paths are suggested at most. */
const MAX_SUGGESTIONS = 3;

/** Missing directories on the way corrected at most (C12.11): each costs a listing. */
const MAX_MISSING = 8;

/** A suggestion being built: the existing directory or file reached so far. */
type Reached = FsTarget;

/**
 * The entries of `dir` that the missing component `name` may have meant (C12.5): the name itself
 * when it exists, else the close ones, closest first. Only regular files and directories (only
 * directories when `directories`), each resolved through `fs.resolve` (so one outside every root
 * is dropped) and reached without a link. Any failure gives none.
 */
async function closeEntries(
  fs: FsProvider,
  lookup: FsOp,
  dir: Reached,
  name: string,
  directories: boolean,
  cwd: string,
  signal: AbortSignal | undefined,
): Promise<Reached[]> {
  try {
    const entries = await fs.listDir(dir, { signal });
    const names = entries
      .filter((entry) => entry.type === "directory" || (!directories && entry.type === "file"))
      .map((entry) => entry.name)
      .sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
    const chosen = names.includes(name) ? [name] : closeNames(name, names, MAX_SUGGESTIONS);
    const found: Reached[] = [];
    for (const close of chosen) {
      const path = join(dir.path, close);
      // Resolving checks containment on the real path (nested roots, a provider's own rules);
      // realPath equal to the lexical join rules out anything reached through a link.
      const target = await fs.resolve(path, { cwd, op: lookup, signal }).catch(() => undefined);
      if (target && target.realPath === join(dir.realPath, close)) found.push(target);
    }
    return found;
  } catch {
    return [];
  }
}

/**
 * The suggestions for a missing target (C12.5, C12.11): from its deepest existing ancestor
 * inside a root, each missing component corrected to the close names that exist (directories on
 * the way, then files or directories), at most three paths, closest first. Only listings, never
 * a tree walk. Never fails: no suggestion instead.
 *
 * @param fs The provider.
 * @param op The tool that did not find its target.
 * @param path The missing target's absolute lexical path.
 * @param cwd The absolute session directory.
 * @param signal Cancels the lookup.
 * @returns Up to three display paths.
 *
 * @example
 * ```ts ignore
 * // src/middleware/basic-auth/index.ts exists
 * await notFoundSuggestions(fs, "read", `${cwd}/src/middleware/basicauth/index.ts`, cwd);
 * // ["src/middleware/basic-auth/index.ts"]
 * ```
 */
export async function notFoundSuggestions(
  fs: FsProvider,
  op: FsOp,
  path: string,
  cwd: string,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  // A suggestion is only looked at, so it is resolved as a read would be (no read-only check).
  const lookup: FsOp = op === "write" || op === "edit" ? "read" : op;
  try {
    const missing = [basename(path)];
    let dir = dirname(path);
    let start: Reached | undefined;
    while (!start) {
      const target = await fs.resolve(dir, { cwd, op: "list", signal });
      const stat = await fs.stat(target, { signal });
      if (stat?.type === "directory") start = target;
      else if (stat || dirname(dir) === dir || missing.length >= MAX_MISSING) return [];
      else {
        missing.unshift(basename(dir));
        dir = dirname(dir);
      }
    }
    let reached: Reached[] = [start];
    for (let i = 0; i < missing.length; i++) {
      const last = i === missing.length - 1;
      const next: Reached[] = [];
      for (const at of reached) {
        if (next.length >= MAX_SUGGESTIONS) break;
        next.push(...await closeEntries(fs, lookup, at, missing[i], !last, cwd, signal));
      }
      reached = next.slice(0, MAX_SUGGESTIONS);
      if (reached.length === 0) return [];
    }
    return reached.map((target) => displayPath(cwd, target.path));
  } catch {
    return [];
  }
}

/**
 * The suggestion for a path outside every root that starts with `/` (C12.10): the same path
 * read relative to the session cwd, when an entry exists there. Never fails: none instead.
 *
 * @param fs The provider.
 * @param op The tool that refused the path.
 * @param given The path as the caller gave it.
 * @param cwd The absolute session directory.
 * @param signal Cancels the lookup.
 * @returns The relative path, or nothing.
 */
export async function outsideRootSuggestions(
  fs: FsProvider,
  op: FsOp,
  given: string,
  cwd: string,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const relative = given.replace(/^\/+/, "");
  if (!given.startsWith("/") || relative === "") return [];
  const lookup: FsOp = op === "write" || op === "edit" ? "read" : op;
  try {
    const target = await fs.resolve(relative, { cwd, op: lookup, signal });
    return await fs.stat(target, { signal }) ? [relative] : [];
  } catch {
    return [];
  }
}
