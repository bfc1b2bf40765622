// Whole entries for `move` and `delete` (C15): the tree listing, files held under their lock,
// and removal. Private to src/provider/local.

import { constants as fsConstants, promises as nodeFs } from "node:fs";
import { basename, dirname } from "node:path";
import { FsError } from "../../fs_error.ts";
import { ENTRY_REASONS } from "../../render/entry_render.ts";
import { PERMISSION_DETAILS } from "../../render/errors.ts";
import type { FsEntryType } from "../../types.ts";
import type { FsRemoveOptions, FsRemoveOutcome, FsTarget, FsTreeEntry } from "../fs_provider.ts";
import type { Containment, WorkDir } from "./_containment.ts";
import { pinnedLocation } from "./_fd_paths.ts";
import { lockAbortably, openVerified, refuseReadOnly } from "./_open.ts";
import { closeQuietly, type FileId, isMissing, lstatOrNull, sameFile } from "./_stat.ts";
import type { Versioner } from "./_version.ts";

/** The type of an entry itself (a link is `other`). */
export function entryType(info: Deno.FileInfo): FsEntryType {
  return info.isFile ? "file" : info.isDirectory ? "directory" : "other";
}

/** Refuses a root: it can never be moved or deleted (C15.2, C15.3). */
export function refuseRoot(c: Containment, realPath: string): void {
  if (c.roots.some((root) => root.path === realPath)) {
    throw new FsError("FS_INVALID_ARGUMENT", { detail: ENTRY_REASONS.root });
  }
}

/**
 * The entry at `at` (a path under a pinned directory) and everything below it, never following
 * a link, parents first, named by `realPath` (the entry's real path) plus the names below.
 * With `versions`, each regular file is opened (verified inside a root) for its version.
 */
export async function listEntries(
  c: Containment,
  versions: Versioner | null,
  at: string,
  realPath: string,
  signal?: AbortSignal,
): Promise<FsTreeEntry[] | null> {
  const info = await lstatOrNull(at);
  if (!info) return null;
  const out: FsTreeEntry[] = [];
  const walk = async (path: string, real: string, type: FsEntryType): Promise<void> => {
    signal?.throwIfAborted();
    if (type === "file" && versions) {
      const file = await openVerified(c, path, signal);
      try {
        out.push({
          realPath: real,
          type,
          version: await versions.version(await file.stat(), null, file),
        });
      } finally {
        file.close();
      }
      return;
    }
    out.push({ realPath: real, type });
    if (type !== "directory") return;
    for await (const entry of Deno.readDir(path)) {
      const child: FsEntryType = entry.isFile
        ? "file"
        : entry.isDirectory && !entry.isSymlink
        ? "directory"
        : "other";
      await walk(`${path}/${entry.name}`, `${real}/${entry.name}`, child);
    }
  };
  await walk(at, realPath, entryType(info));
  return out;
}

/**
 * Opens the regular file at `path` and takes its lock (as `write` and `edit` do, so none of them
 * commits meanwhile), then checks the name still leads to the locked file.
 */
export async function lockFile(
  c: Containment,
  path: string,
  signal?: AbortSignal,
): Promise<{ file: Deno.FsFile; info: Deno.FileInfo }> {
  for (let attempt = 0;; attempt++) {
    const file = await openVerified(c, path, signal, true);
    try {
      await lockAbortably(file, signal);
      const info = await file.stat();
      if (c.isInside(path, info, true)) return { file, info };
      if (attempt >= 100) throw new FsError("FS_STALE");
    } catch (error) {
      closeQuietly(file);
      throw error;
    }
    closeQuietly(file);
  }
}

/**
 * The most files a tree removal keeps locked at once. A larger tree has each file locked and
 * checked in turn, then released (descriptors are a bounded resource): a writer that is not
 * toolfs could then change an already checked file before the removal (ARCHITECTURE.md).
 */
const MAX_HELD = 512;

/**
 * Every regular file of a listing locked, each at the version `expect` wants (else FS_STALE)
 * and writable by this process (else C4.3b's FS_PERMISSION_DENIED, naming the file relative to
 * `tree` for a tree); the locks are kept (returned) for up to {@linkcode MAX_HELD} files.
 */
async function lockAll(
  c: Containment,
  versions: Versioner,
  files: readonly { path: string; realPath: string }[],
  expect: ReadonlyMap<string, string> | undefined,
  signal?: AbortSignal,
  tree?: string,
): Promise<Deno.FsFile[]> {
  if (expect && files.length !== expect.size) throw new FsError("FS_STALE");
  const held: Deno.FsFile[] = [];
  try {
    for (const { path, realPath } of files) {
      const wanted = expect?.get(realPath);
      if (expect && wanted === undefined) throw new FsError("FS_STALE");
      const { file, info } = await lockFile(c, path, signal);
      held.push(file);
      // C4.3b: a read-only file is never removed; in a tree, the refusal names it.
      await refuseReadOnly(path, info).catch((error) => {
        if (tree === undefined) throw error;
        const name = realPath.slice(tree.length + 1);
        throw new FsError("FS_PERMISSION_DENIED", {
          detail: PERMISSION_DETAILS.readOnlyInTree(name),
        });
      });
      if (wanted !== undefined && await versions.version(info, null, file) !== wanted) {
        throw new FsError("FS_STALE");
      }
      if (files.length > MAX_HELD) closeQuietly(held.pop()!);
    }
    return held;
  } catch (error) {
    held.forEach(closeQuietly);
    throw error;
  }
}

/**
 * Removes the entry `name` of the pinned directory `dir` (C15.3). A file is removed under its
 * lock; a tree is first renamed aside (`.toolfs-<8 hex>.del`, so nothing new lands in it), its
 * files locked and checked against `expect`, then removed, or put back when a check fails.
 */
export async function removeIn(
  c: Containment,
  versions: Versioner,
  dir: WorkDir,
  target: FsTarget,
  options: FsRemoveOptions,
): Promise<FsRemoveOutcome> {
  const { recursive = false, expect, signal } = options;
  refuseRoot(c, target.realPath);
  const path = `${dir.at}/${basename(target.realPath)}`;
  const info = await Deno.lstat(path);
  if (info.isFile) {
    const [held] = await lockAll(
      c,
      versions,
      [{ path, realPath: target.realPath }],
      expect,
      signal,
    );
    try {
      signal?.throwIfAborted(); // the commit point: nothing has changed before it
      if (!(await removeIfStill(path, await held.stat()))) throw new FsError("FS_STALE");
    } finally {
      closeQuietly(held);
    }
    return { type: "file", files: 1, directories: 0 };
  }
  if (!info.isDirectory) {
    if (expect && expect.size > 0) throw new FsError("FS_STALE");
    signal?.throwIfAborted();
    if (!(await removeIfStill(path, info))) throw new FsError("FS_STALE");
    return { type: "other", files: 1, directories: 0 };
  }
  if (!recursive) {
    signal?.throwIfAborted();
    await Deno.remove(path).catch((error) => {
      throw /not empty|os error 39\b/i.test(String(error?.message))
        ? new FsError("FS_NOT_EMPTY", { cause: error })
        : error;
    });
    return { type: "directory", files: 0, directories: 1 };
  }
  return await removeTree(c, versions, dir, path, info, target.realPath, expect, signal);
}

async function removeTree(
  c: Containment,
  versions: Versioner,
  dir: WorkDir,
  path: string,
  info: Deno.FileInfo,
  realPath: string,
  expect: ReadonlyMap<string, string> | undefined,
  signal?: AbortSignal,
): Promise<FsRemoveOutcome> {
  signal?.throwIfAborted();
  const aside = `${dir.at}/.toolfs-${crypto.randomUUID().slice(0, 8)}.del`;
  await Deno.rename(path, aside);
  let held: Deno.FsFile[] = [];
  let tree: WorkDir | null = null;
  let committed = false;
  try {
    // The name may have been swapped for a link just before the rename: then that is what moved.
    if (!sameFile(await lstatOrNull(aside), info)) throw new FsError("FS_STALE");
    // From here on the tree is reached only through a descriptor of it: a process that learns
    // the aside name (inotify) and swaps another directory of this one in under it (a nested
    // read-only root, a directory it may not empty itself) cannot have that one listed,
    // checked or emptied instead (C15.3).
    tree = await holdDirectory(aside, info);
    const inTree = `${tree.at}/.`; // the directory itself (the handle alone reads as a link)
    const entries = (await listEntries(c, null, inTree, realPath, signal)) ?? [];
    const files = entries.filter((e) => e.type === "file").map((e) => ({
      path: inTree + e.realPath.slice(realPath.length),
      realPath: e.realPath,
    }));
    held = await lockAll(c, versions, files, expect, signal, realPath);
    signal?.throwIfAborted(); // the commit point: nothing has changed before it
    committed = true;
    await emptyHeld(tree).catch((error) => {
      // Not removable after all (a directory this process may not write): what remains goes
      // back under its name, so a failed delete never leaves the tree hidden aside.
      committed = false;
      throw error;
    });
    // The emptied directory itself goes only while the aside name still holds it.
    await removeIfStill(aside, info);
    const directories = entries.filter((e) => e.type === "directory").length;
    return { type: "directory", files: entries.length - directories, directories };
  } finally {
    held.forEach(closeQuietly);
    tree?.close();
    if (!committed) await Deno.rename(aside, path).catch(() => {});
  }
}

/**
 * The directory at `path`, which must be `info`, held open by a descriptor (`/proc/self/fd/<n>`,
 * found by its mark as `pinnedLocation` finds it). Opened first without following a link and as
 * a directory only (so a FIFO swapped in never blocks the call), then again through that
 * descriptor for the handle.
 */
async function holdDirectory(path: string, info: Deno.FileInfo): Promise<WorkDir> {
  const probe = await nodeFs.open(path, DIRECTORY_NOFOLLOW).catch(() => null);
  if (probe === null) throw new FsError("FS_STALE");
  let file: Deno.FsFile;
  try {
    file = await Deno.open(`/proc/self/fd/${probe.fd}`, { read: true });
  } finally {
    await probe.close();
  }
  try {
    const held = await file.stat();
    if (!sameFile(held, info)) throw new FsError("FS_STALE");
    const where = pinnedLocation(file, held);
    if (where === null) {
      throw new FsError("FS_PERMISSION_DENIED", { detail: ENTRY_REASONS.unpinned });
    }
    return { at: where.handle, pinned: true, close: () => closeQuietly(file) };
  } catch (error) {
    closeQuietly(file);
    throw error;
  }
}

/** Removes everything inside the held directory `dir` (never following a link), a few passes. */
async function emptyHeld(dir: WorkDir): Promise<void> {
  for (let pass = 0; pass < 3; pass++) {
    const names: string[] = [];
    for await (const entry of Deno.readDir(dir.at)) names.push(entry.name);
    if (names.length === 0) return;
    for (const name of names) {
      await Deno.remove(`${dir.at}/${name}`, { recursive: true }).catch((error) => {
        if (!isMissing(error)) throw error;
      });
    }
  }
}

/** `open(2)` flags of a held directory: a directory only, never through a link at its name. */
const DIRECTORY_NOFOLLOW = fsConstants.O_RDONLY | fsConstants.O_DIRECTORY |
  fsConstants.O_NOFOLLOW;

/** The pinned parent of an entry, inside a writable root. */
export function pinParent(c: Containment, realPath: string): Promise<WorkDir> {
  return c.pin(dirname(realPath), true);
}

/**
 * Removes the name `path` (in a pinned directory) if it still names the entry `info`, and
 * says whether it did (C15.2, C15.3). The
 * name is first renamed to a random one beside it (`.toolfs-<8 hex>.mv`), so what is judged is
 * what stood at `path` at that instant: anything else (a file another process put there
 * meanwhile) is put back, never over a newer entry, and is not removed. Residual window
 * (README): a process that learns the random name (inotify) and renames another entry of the
 * same directory onto it between the check and the unlink has that entry removed instead; the
 * directory is held by its descriptor, so that entry is inside the root, and an unlink never
 * follows a link.
 */
export async function removeIfStill(path: string, info: FileId): Promise<boolean> {
  const aside = `${dirname(path)}/.toolfs-${crypto.randomUUID().slice(0, 8)}.mv`;
  try {
    await Deno.rename(path, aside);
  } catch (error) {
    if (isMissing(error)) return false; // gone already: nothing of ours to remove
    throw error;
  }
  if (sameFile(await lstatOrNull(aside), info)) {
    await Deno.remove(aside);
    return true;
  }
  // Not the entry moved: put back whatever it is. A link never replaces an existing name (then
  // it stays aside, hidden but not lost); a directory cannot be linked, so it is renamed back.
  try {
    await Deno.link(aside, path);
    await Deno.remove(aside);
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) {
      await Deno.rename(aside, path).catch(() => {});
    }
  }
  return false;
}
