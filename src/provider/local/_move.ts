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
// (EXDEV), by descriptors only: read from its own locked descriptor into an `O_EXCL` file in the
// pinned destination, checked inside a writable root, its owner and group (where the process
// may, as mv keeps them; else set-ID bits dropped), mode and times set through that descriptor,
// and the source removed only once the copy is complete. Every old name goes by
// `removeIfStill` (renamed aside, checked, unlinked). Both directories are pinned (C15.5).

import { constants as fsConstants, promises as nodeFs } from "node:fs";
import { basename } from "node:path";
import { FsError } from "../../fs_error.ts";
import { ENTRY_REASONS } from "../../render/entry_render.ts";
import type { FsMoveOutcome, FsTarget } from "../fs_provider.ts";
import type { Containment, WorkDir } from "./_containment.ts";
import { entryType, lockFile, refuseRoot, removeIfStill } from "./_entries.ts";
import { closeQuietly, type FileId, lstatOrNull, sameFile } from "./_stat.ts";
import type { Versioner } from "./_version.ts";
import { setOwnerAndMode } from "./_replace.ts";

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
      if (crossDevice(error)) return await copyFileAcross(c, versions, file, info, { src, dst });
      if (!noHardLink(error)) throw error;
      // No hard links here: check, then rename (the README names this race).
      if (await lstatOrNull(dst)) throw new FsError("FS_EXISTS");
      await Deno.rename(src, dst);
      return await versions.version(await file.stat(), null, file);
    }
    await removeSource(src, info, { path: dst, info });
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
  await removeSource(src, info, { path: dst, info: await Deno.lstat(dst) });
}

/**
 * Removes the source name of a move whose new name `made` stands: when the source cannot be
 * removed (a directory this process may not write, say), `made` goes again (only while it is
 * still the entry this call made), so a move that fails leaves nothing at the destination.
 */
async function removeSource(
  src: string,
  info: FileId,
  made: { path: string; info: FileId },
): Promise<void> {
  try {
    await removeIfStill(src, info);
  } catch (error) {
    await removeIfStill(made.path, made.info).catch(() => false);
    throw error;
  }
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

/** `open(2)` flags of the copy: write-only, created here, never an existing name or a link. */
const CREATE_NEW = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL;
/** Bytes per read of a copy across file systems. */
const COPY_CHUNK = 1 << 20;

/**
 * Copies a regular file to another file system, by descriptors only (C15.2): read from `input`,
 * the source's own descriptor, opened, verified and locked by the caller; written to a file
 * created exclusively (`O_EXCL`: never through a link) in the pinned destination directory and
 * checked, as C3 checks an open file, to lie inside a writable root before a byte is written;
 * its owner and group (where the process may, as mv keeps them; else set-ID bits dropped), mode
 * and times set through that descriptor, flushed. The copy is removed again (it is this call's,
 * by identity) when anything fails, or when the source changed while it was read;
 * the source is removed only once its copy is complete, by {@linkcode removeIfStill}. Returns
 * the copy's version, digested as it was written.
 */
async function copyFileAcross(
  c: Containment,
  versions: Versioner,
  input: Deno.FsFile,
  info: Deno.FileInfo,
  paths: { src: string; dst: string },
): Promise<string> {
  const { src, dst } = paths;
  const output = await nodeFs.open(dst, CREATE_NEW, 0o600).catch((error) => {
    throw (error as { code?: unknown })?.code === "EEXIST" ? new FsError("FS_EXISTS") : error;
  });
  let made: FileId | null = null;
  let version: string | null = null;
  try {
    const opened = await output.stat();
    if (!c.isInside(dst, opened, true)) throw new FsError("FS_OUTSIDE_ROOT");
    made = opened;
    const digest = versions.stream(info.size);
    await input.seek(0, Deno.SeekMode.Start);
    const buffer = new Uint8Array(COPY_CHUNK);
    for (let read = await input.read(buffer); read !== null; read = await input.read(buffer)) {
      digest.update(buffer.subarray(0, read));
      for (let written = 0; written < read;) {
        written += (await output.write(buffer, written, read - written)).bytesWritten;
      }
    }
    const now = await input.stat();
    if (now.size !== info.size || now.mtime?.getTime() !== info.mtime?.getTime()) {
      throw new FsError("FS_STALE"); // a writer that is not toolfs changed it meanwhile
    }
    // Owner and group kept where the process may (as `mv` does), else set-ID bits dropped;
    // mode last (C4.3a's rule for a replaced file).
    await setOwnerAndMode(output, info, opened);
    if (info.mtime) await output.utimes(info.atime ?? info.mtime, info.mtime).catch(() => {});
    await output.datasync();
    const { dev, ino, size, mtime } = await output.stat();
    version = digest.version({ dev, ino, size, mtime } as Deno.FileInfo);
  } finally {
    await output.close().catch(() => {});
    if (version === null && made) await removeIfStill(dst, made).catch(() => false);
  }
  await removeSource(src, info, { path: dst, info: made! });
  return version;
}
