// The local provider's entry operations (CONTRACT C15): each pins the parent directories it works
// in, runs the operation there and unpins them. Private to src/provider/local.

import { basename, dirname } from "node:path";
import type {
  FsMoveOutcome,
  FsRemoveOptions,
  FsRemoveOutcome,
  FsTarget,
  FsTreeEntry,
} from "../fs_provider.ts";
import type { Containment } from "./_containment.ts";
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
 * Moves `source` to `destination` (never a root; missing destination parents created); a moved
 * regular file's outcome carries its version.
 */
export async function moveEntryAt(
  c: Containment,
  versions: Versioner,
  source: FsTarget,
  destination: FsTarget,
  signal?: AbortSignal,
): Promise<FsMoveOutcome> {
  refuseRoot(c, source.realPath);
  const from = await pinParent(c, source.realPath);
  try {
    const to = await ensureParent(c, destination, signal);
    try {
      return await moveIn(c, versions, { from, to }, source, destination, signal);
    } finally {
      to.close();
    }
  } finally {
    from.close();
  }
}

/** Removes the entry at `target` (never a root). */
export async function removeEntryAt(
  c: Containment,
  versions: Versioner,
  target: FsTarget,
  options: FsRemoveOptions,
): Promise<FsRemoveOutcome> {
  refuseRoot(c, target.realPath);
  const dir = await pinParent(c, target.realPath);
  try {
    return await removeIn(c, versions, dir, target, options);
  } finally {
    dir.close();
  }
}
