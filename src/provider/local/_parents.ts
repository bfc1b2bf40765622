// Missing parent directories of a write, made one level at a time inside the root
// (CONTRACT C4.3). Private to src/provider/local.

import { basename, dirname } from "node:path";
import { FsError } from "../../fs_error.ts";
import type { FsTarget } from "../fs_provider.ts";
import { type Containment, huntAndRemove, type WorkDir } from "./_containment.ts";
import { statOrNull } from "./_stat.ts";

/**
 * Creates the missing parent directories of a target one level at a time, each inside the
 * one before (pinned where the runtime allows, else checked by path), and returns the parent.
 */
export async function ensureParent(
  c: Containment,
  target: FsTarget,
  signal?: AbortSignal,
): Promise<WorkDir> {
  const parent = dirname(target.realPath);
  const info = await statOrNull(parent);
  if (info && !info.isDirectory) throw new FsError("FS_NOT_DIRECTORY");
  if (info) return await c.pin(parent, true);
  const missing: string[] = [];
  let dir = parent;
  for (; !(await statOrNull(dir)); dir = dirname(dir)) missing.unshift(basename(dir));
  let work = await c.pin(dir, true);
  try {
    for (const name of missing) {
      signal?.throwIfAborted();
      const next = `${work.at}/${name}`;
      const started = Date.now();
      let created = false;
      try {
        await Deno.mkdir(next);
        created = true;
      } catch (error) {
        if (error instanceof Deno.errors.NotADirectory) throw new FsError("FS_NOT_DIRECTORY");
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      }
      if (work.pinned) {
        const child = await c.pin(next, true);
        work.close();
        work = child;
      } else {
        await checkMadeDir(c, next, created, started);
        work = { at: next, pinned: false, close() {} };
      }
    }
    return work;
  } catch (error) {
    work.close();
    throw error;
  }
}

/**
 * Checks by path that the directory just made (or found) at `dir` is the one it names, inside
 * a writable root. When it is not (a parent was swapped for a link, so this call may have made
 * the directory outside), removes what this call made, if it can find it.
 */
async function checkMadeDir(
  c: Containment,
  dir: string,
  created: boolean,
  started: number,
): Promise<void> {
  const real = await Deno.realPath(dir).catch(() => null);
  const root = real === dir ? c.rootOf(real) : undefined;
  if (root?.writable) {
    const made = await Deno.stat(real!);
    if (!made.isDirectory) throw new FsError("FS_NOT_DIRECTORY");
    return;
  }
  if (created) removeStrayDir(c, dir, started);
  throw new FsError(real === null ? "FS_NOT_DIRECTORY" : "FS_OUTSIDE_ROOT");
}

/**
 * Looks a few times for a directory this call made at `dir` and that resolves outside every
 * root, and removes it: only an empty one made since `started`, never one that was there
 * before. Path-based, so best effort (the README's "Security and reliability").
 */
function removeStrayDir(c: Containment, dir: string, started: number): void {
  huntAndRemove(dir, (real, made) => {
    const born = made.birthtime?.getTime() ?? made.ctime?.getTime() ?? -Infinity;
    return !c.rootOf(real) && made.isDirectory && born >= started - 1000;
  });
}
