// `move` on the local disk (C15.2): never replace, never lose data at any instant. Private to
// src/provider/local.
//
// Within one file system a file (or a link, or any other non-directory) is hard-linked to the
// destination, which fails when the destination exists (the kernel decides, so no race can make
// it replace anything), and the source name is then unlinked; a regular file is held under its
// lock meanwhile, so no `write` or `edit` commits to the old name in between. A directory
// moves by one rename onto an empty directory this call has just created exclusively (a rename
// may replace an empty directory, never a non-empty one or a file). A directory never moves
// across file systems (a tree copied by path could be steered outside the roots); a file may
// (EXDEV): copied from a verified descriptor into one created exclusively, its times set through
// that descriptor, and the source removed only once the copy is complete.

import { basename } from "node:path";
import { FsError } from "../../fs_error.ts";
import { ENTRY_REASONS } from "../../render/entry_render.ts";
import type { FsMoveOutcome, FsTarget } from "../fs_provider.ts";
import type { Containment, WorkDir } from "./_containment.ts";
import { entryType, lockFile, refuseRoot } from "./_entries.ts";
import { openVerified } from "./_open.ts";
import { closeQuietly, lstatOrNull, sameFile } from "./_stat.ts";
import type { Versioner } from "./_version.ts";

/** Whether a thrown value is the kernel's "cross-device link" (EXDEV). */
function crossDevice(error: unknown): boolean {
  return /os error 18\b|EXDEV|cross-device/i.test(String((error as Error)?.message ?? error));
}

/** Whether a thrown value says hard links are not possible here (EPERM, EMLINK, ENOTSUP). */
function noHardLink(error: unknown): boolean {
  return error instanceof Deno.errors.PermissionDenied ||
    /os error (1|31|95)\b/.test(String((error as Error)?.message ?? error));
}

/**
 * Moves `source` (in the pinned `from` directory) to `destination` (in the pinned `to`
 * directory). Both directories are pinned inside writable roots by the caller.
 */
export async function moveIn(
  c: Containment,
  versions: Versioner,
  dirs: { from: WorkDir; to: WorkDir },
  source: FsTarget,
  destination: FsTarget,
  signal?: AbortSignal,
): Promise<FsMoveOutcome> {
  refuseRoot(c, source.realPath);
  const src = `${dirs.from.at}/${basename(source.realPath)}`;
  const dst = `${dirs.to.at}/${basename(destination.realPath)}`;
  const info = await Deno.lstat(src);
  const type = entryType(info);
  if (
    type === "directory" &&
    (destination.realPath === source.realPath ||
      destination.realPath.startsWith(`${source.realPath}/`))
  ) {
    throw new FsError("FS_INVALID_ARGUMENT", { detail: ENTRY_REASONS.intoItself });
  }
  if (await lstatOrNull(dst)) throw new FsError("FS_EXISTS");
  signal?.throwIfAborted(); // the commit point: nothing has changed before it
  if (type === "directory") await moveDirectory(src, dst);
  else if (type === "file") return { type, version: await moveFile(c, versions, src, dst, signal) };
  else await moveOther(src, dst);
  return { type };
}

/**
 * A regular file: linked to its new name under its lock, then unlinked from the old one.
 * Returns its version at the new name, computed under the lock (a link or a rename keeps the
 * file, so the descriptor held is the file moved).
 */
async function moveFile(
  c: Containment,
  versions: Versioner,
  src: string,
  dst: string,
  signal?: AbortSignal,
): Promise<string> {
  const { file, info } = await lockFile(c, src, signal);
  try {
    try {
      await Deno.link(src, dst);
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) throw new FsError("FS_EXISTS");
      if (crossDevice(error)) return await copyFileAcross(c, versions, src, dst, info);
      if (!noHardLink(error)) throw error;
      // No hard links here: check, then rename (the README names this race).
      if (await lstatOrNull(dst)) throw new FsError("FS_EXISTS");
      await Deno.rename(src, dst);
      return await versions.version(await file.stat(), null, file);
    }
    if (sameFile(await lstatOrNull(src), info)) await Deno.remove(src);
    return await versions.version(await file.stat(), null, file);
  } finally {
    closeQuietly(file);
  }
}

/** A link or another special entry: hard-linked (the link itself), then unlinked. */
async function moveOther(src: string, dst: string): Promise<void> {
  const info = await Deno.lstat(src);
  try {
    await Deno.link(src, dst);
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) throw new FsError("FS_EXISTS");
    if (!crossDevice(error) || !info.isSymlink) throw error;
    await Deno.symlink(await Deno.readLink(src), dst).catch((e) => {
      throw e instanceof Deno.errors.AlreadyExists ? new FsError("FS_EXISTS") : e;
    });
  }
  if (sameFile(await lstatOrNull(src), info)) await Deno.remove(src);
}

/** A directory: renamed onto an empty directory made for it; never across file systems. */
async function moveDirectory(src: string, dst: string): Promise<void> {
  try {
    await Deno.mkdir(dst);
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) throw new FsError("FS_EXISTS");
    throw error;
  }
  const made = await Deno.lstat(dst);
  try {
    await Deno.rename(src, dst);
  } catch (error) {
    if (sameFile(await lstatOrNull(dst), made)) await Deno.remove(dst).catch(() => {});
    if (crossDevice(error)) {
      throw new FsError("FS_INVALID_ARGUMENT", { detail: ENTRY_REASONS.acrossFileSystems });
    }
    throw /os error 39\b|not empty/i.test(String((error as Error)?.message))
      ? new FsError("FS_EXISTS")
      : error;
  }
}

/**
 * Copies a regular file to another file system: the content read from a verified descriptor
 * into a new file, flushed, then the source unlinked only after that.
 */
async function copyFileAcross(
  c: Containment,
  versions: Versioner,
  src: string,
  dst: string,
  info: Deno.FileInfo,
): Promise<string> {
  const input = await openVerified(c, src);
  let version: string;
  try {
    const output = await Deno.open(dst, {
      read: true,
      write: true,
      createNew: true,
      mode: (info.mode ?? 0o644) & 0o777,
    }).catch((error) => {
      throw error instanceof Deno.errors.AlreadyExists ? new FsError("FS_EXISTS") : error;
    });
    try {
      await input.readable.pipeTo(output.writable, { preventClose: true });
      await output.syncData();
    } catch (error) {
      closeQuietly(output);
      await Deno.remove(dst).catch(() => {});
      throw error;
    }
    if (info.mtime) await output.utime(info.atime ?? info.mtime, info.mtime).catch(() => {});
    try {
      version = await versions.version(await output.stat(), null, output);
    } finally {
      closeQuietly(output);
    }
  } finally {
    closeQuietly(input);
  }
  if (sameFile(await lstatOrNull(src), info)) await Deno.remove(src);
  return version;
}
