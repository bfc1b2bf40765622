// The local provider's entry operations (CONTRACT C15): each pins the parent directories it works
// in, runs the operation there and unpins them. Private to src/provider/local.

import { basename, dirname } from "node:path";
import { FsError } from "../../fs_error.ts";
import { ENTRY_REASONS } from "../../render/entry_render.ts";
import type {
  FsMoveOutcome,
  FsRemoveOptions,
  FsRemoveOutcome,
  FsTarget,
  FsTreeEntry,
} from "../fs_provider.ts";
import type { Containment, WorkDir } from "./_containment.ts";
import { fdPathsAvailable } from "./_fd_paths.ts";
import { listEntries, pinParent, refuseRoot, removeIn } from "./_entries.ts";
import { moveIn } from "./_move.ts";
import { ensureParent } from "./_parents.ts";
import type { Versioner } from "./_version.ts";

/** The entries of the tree at `target` (versions of its files when `versions` is given). */
export async function listTreeAt(
  c: Containment,
  versions: Versioner | null,
  target: FsTarget,
  signal?: AbortSignal,
): Promise<FsTreeEntry[] | null> {
  const dir = await c.pin(dirname(target.realPath), false);
  try {
    const at = `${dir.at}/${basename(target.realPath)}`;
    return await listEntries(c, versions, at, target.realPath, signal);
  } finally {
    dir.close();
  }
}

/**
 * C15.5: what `move` and `delete` need and this process lacks, or `null`: they work only
 * through directories held open by descriptors (`/proc/self/fd/<n>/<name>`), which Deno allows
 * only under `--allow-all`, and only Linux has. With path checks a parent swapped for a link
 * between the check and the `rename` or `unlink` redirects it outside the roots, and no check
 * by path can rule that out.
 */
export function entriesNeed(): string | null {
  if (fdPathsAvailable()) return null;
  return Deno.build.os === "linux" ? "Deno's --allow-all" : "Linux and Deno's --allow-all";
}

/**
 * Refuses a move or delete (C15.5) in this process when it lacks what they need, or, given a
 * directory, when that directory is not pinned by a descriptor (a file system where toolfs
 * cannot tell its descriptor apart).
 */
function requirePinned(dir?: WorkDir): void {
  const need = entriesNeed();
  if (need === null && (dir === undefined || dir.pinned)) return;
  throw new FsError("FS_PERMISSION_DENIED", {
    detail: need === null ? ENTRY_REASONS.unpinned : ENTRY_REASONS.needs(need),
  });
}

/**
 * Moves `source` to `destination` (never a root; missing destination parents created); a moved
 * regular file's outcome carries its version. Only between pinned directories (C15.5).
 */
export async function moveEntryAt(
  c: Containment,
  versions: Versioner,
  source: FsTarget,
  destination: FsTarget,
  signal?: AbortSignal,
): Promise<FsMoveOutcome> {
  requirePinned();
  refuseRoot(c, source.realPath);
  const from = await pinParent(c, source.realPath);
  try {
    requirePinned(from);
    const to = await ensureParent(c, destination, signal);
    try {
      requirePinned(to);
      return await moveIn(c, versions, { from, to }, source, destination, signal);
    } finally {
      to.close();
    }
  } finally {
    from.close();
  }
}

/** Removes the entry at `target` (never a root), only in a pinned directory (C15.5). */
export async function removeEntryAt(
  c: Containment,
  versions: Versioner,
  target: FsTarget,
  options: FsRemoveOptions,
): Promise<FsRemoveOutcome> {
  requirePinned();
  refuseRoot(c, target.realPath);
  const dir = await pinParent(c, target.realPath);
  try {
    requirePinned(dir);
    return await removeIn(c, versions, dir, target, options);
  } finally {
    dir.close();
  }
}
