/**
 * Root containment on real paths (CONTRACT C3.2, C3.7). Pure: no I/O.
 *
 * @module
 */

import type { FsRootInfo, RootSpec } from "./fs_provider.ts";

/**
 * Whether `path` is `root` or lies below it. Separator-aware: `/w` does not contain `/w2`.
 *
 * @param root An absolute, normalized root path.
 * @param path An absolute, normalized path.
 * @returns `true` when `path` is inside `root`.
 *
 * @example
 * ```ts
 * import { isInside } from "./roots.ts";
 *
 * console.log(isInside("/w", "/w/a.txt")); // true
 * console.log(isInside("/w", "/w_evil/a.txt")); // false
 * ```
 */
export function isInside(root: string, path: string): boolean {
  if (path === root) return true;
  const prefix = root.endsWith("/") ? root : root + "/";
  return path.startsWith(prefix);
}

/**
 * The most specific root containing `path` (C3.7), or `undefined` when none does.
 *
 * @param roots The roots, with real paths.
 * @param path An absolute real path.
 * @returns The longest root containing `path`.
 */
export function findRoot(roots: readonly FsRootInfo[], path: string): FsRootInfo | undefined {
  let best: FsRootInfo | undefined;
  for (const root of roots) {
    if (isInside(root.path, path) && (!best || root.path.length > best.path.length)) best = root;
  }
  return best;
}

/**
 * The display path of C3.4: relative to `cwd` with `/` separators when inside it (`.` for `cwd`
 * itself), else absolute.
 *
 * @param cwd The absolute session directory.
 * @param path The absolute lexical target.
 * @returns The display path.
 */
export function displayPath(cwd: string, path: string): string {
  if (path === cwd) return ".";
  if (isInside(cwd, path)) return path.slice(cwd.endsWith("/") ? cwd.length : cwd.length + 1);
  return path;
}

/**
 * A root as a provider's constructor takes it: the path as given and whether it is writable.
 *
 * @param spec The root spec.
 * @returns The path (non-empty, without NUL) and whether writes are allowed.
 * @throws {TypeError} For anything but a non-empty path string or `{ path, write? }`.
 */
export function parseRootSpec(spec: RootSpec): { given: string; writable: boolean } {
  const given = typeof spec === "string" ? spec : spec?.path;
  if (typeof given !== "string" || given === "" || given.includes("\0")) {
    throw new TypeError(`root must be a non-empty path string: got ${JSON.stringify(spec)}`);
  }
  return { given, writable: typeof spec === "string" ? true : spec.write !== false };
}
