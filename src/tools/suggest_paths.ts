/**
 * Did-you-mean for a target that was not found (CONTRACT C12.5): one lookup that works for any
 * tool and any {@linkcode FsProvider}, listing only the missing path's existing parent.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import type { FsOp, FsProvider, FsTarget } from "../provider/fs_provider.ts";
import { displayPath } from "../provider/roots.ts";
import { closeNames } from "../text/close_names.ts";

/** How many paths are suggested at most. */
const MAX_SUGGESTIONS = 3;

/**
 * Display paths of the entries of `parent` whose names are close to `name` (C12.5), closest
 * first. Only `parent` is listed (through `fs.listDir`), never a tree. Entries that are not
 * regular files or directories (symlinks among them, which might lead out of the roots) are
 * never suggested, and each suggestion is resolved through `fs.resolve` for `op`, so one
 * outside every root is dropped. Any failure gives no suggestion rather than an error.
 *
 * @param fs The provider.
 * @param op The tool that did not find its target.
 * @param parent The missing path's parent directory, already resolved (and so inside a root).
 * @param name The missing path's last component.
 * @param cwd The absolute session directory, for display paths.
 * @param signal Cancels the lookup.
 * @returns Up to {@linkcode MAX_SUGGESTIONS} display paths.
 *
 * @example
 * ```ts ignore
 * const parent = await fs.resolve("src", { cwd, op: "read" });
 * const paths = await suggestPaths(fs, "read", parent, "mian.ts", cwd); // ["src/main.ts"]
 * ```
 */
async function suggestPaths(
  fs: FsProvider,
  op: FsOp,
  parent: FsTarget,
  name: string,
  cwd: string,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  // A suggestion is only looked at, so it is resolved as a read would be (no read-only check).
  const lookup: FsOp = op === "write" || op === "edit" ? "read" : op;
  try {
    const entries = await fs.listDir(parent, { signal });
    const names = entries
      .filter((entry) => entry.type === "file" || entry.type === "directory")
      .map((entry) => entry.name)
      .sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
    const found: string[] = [];
    for (const close of closeNames(name, names, MAX_SUGGESTIONS)) {
      const path = join(parent.path, close);
      // Resolving checks containment on the real path (nested roots, a provider's own rules);
      // realPath equal to the lexical join rules out anything reached through a link.
      const target = await fs.resolve(path, { cwd, op: lookup, signal }).catch(() => undefined);
      if (target && target.realPath === join(parent.realPath, close)) {
        found.push(displayPath(cwd, target.path));
      }
    }
    return found;
  } catch {
    return [];
  }
}

/**
 * The suggestions for a missing target (C12.5): {@linkcode suggestPaths} in its parent
 * directory, when that exists inside a root. Never fails: no suggestion instead.
 *
 * @param fs The provider.
 * @param op The tool that did not find its target.
 * @param path The missing target's absolute lexical path.
 * @param cwd The absolute session directory.
 * @param signal Cancels the lookup.
 * @returns Up to three display paths.
 */
export async function notFoundSuggestions(
  fs: FsProvider,
  op: FsOp,
  path: string,
  cwd: string,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  try {
    const parent = await fs.resolve(dirname(path), { cwd, op: "list", signal });
    // A parent that is missing or not a directory fails the listing: no suggestions.
    return await suggestPaths(fs, op, parent, basename(path), cwd, signal);
  } catch {
    return [];
  }
}
