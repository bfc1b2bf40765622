// Containment of the local provider (CONTRACT C3.2, C7.3): roots resolved once, real paths
// checked against them, open descriptors located by the kernel where Deno allows it, and the
// path-based fallback. Private to src/provider/local.

import { constants as fsConstants, promises as nodeFs } from "node:fs";
import { basename, dirname, isAbsolute, resolve as resolvePath } from "node:path";
import { FsError } from "../../fs_error.ts";
import { IO_DETAILS } from "../../render/errors.ts";
import type { FsRootInfo, RootSpec } from "../fs_provider.ts";
import { fdPathsAvailable, type OpenLocation, openLocation, pinnedLocation } from "./_fd_paths.ts";
import { findRoot, parseRootSpec } from "../roots.ts";
import { fromNodeError } from "./_errors.ts";
import { errorDetail } from "../to_fs_error.ts";
import {
  closeQuietly,
  type FileId,
  isMissing,
  lstatOrNull,
  lstatSyncOrNull,
  realPathSyncOrNull,
  sameFile,
  statSyncOrNull,
} from "./_stat.ts";

/**
 * A directory the provider creates, replaces and lists files in. `at` is the prefix names are
 * joined to: `/proc/self/fd/<n>` for a directory pinned by an open descriptor (then a swap of
 * one of its parents for a symlink cannot redirect the call), else its real path.
 */
export interface WorkDir {
  at: string;
  pinned: boolean;
  close(): void;
}

const MAX_LINK_HOPS = 40;

/** The roots and every check of a path or an open file against them. */
export class Containment {
  /** The roots as real paths, in the order given. */
  readonly roots: readonly FsRootInfo[];

  /**
   * @param specs The roots as given; each is resolved and its permissions checked.
   * @throws {Error} When a root is missing, not a directory, or lacks a permission grant.
   */
  constructor(specs: readonly RootSpec[]) {
    this.roots = Object.freeze(specs.map((spec) => checkRoot(spec)));
  }

  /** The most specific root containing the real path `path`, if any. */
  rootOf(path: string): FsRootInfo | undefined {
    return findRoot(this.roots, path);
  }

  /** The real path of `path`: links followed; for a missing path, its nearest existing ancestor's. */
  async realTarget(path: string, signal?: AbortSignal, hops = 0): Promise<string> {
    signal?.throwIfAborted();
    // C7.3: a path Deno was not granted is never touched (a terminal would get a permission
    // prompt, a headless run a PermissionDenied). Paths inside a root are granted (checked at
    // construction), so such a path is outside: its lexical form fails the containment check.
    if (!readGranted(path)) return path;
    try {
      return await Deno.realPath(path);
    } catch (error) {
      // Deno's own refusal (NotCapable: /proc/self/environ and the like need --allow-all even
      // under --allow-read): the path is judged as written, so one outside the roots is
      // FS_OUTSIDE_ROOT (C3.2), not a permission error (issue 19).
      if (error instanceof Deno.errors.NotCapable) return path;
      if (!isMissing(error)) throw error;
    }
    const link = await lstatOrNull(path);
    if (link?.isSymlink) {
      // A dangling link: follow it by hand so its target, not the link, is checked.
      if (hops >= MAX_LINK_HOPS) {
        throw new FsError("FS_IO_ERROR", { detail: IO_DETAILS.symlinkLoop });
      }
      const to = await Deno.readLink(path);
      const next = isAbsolute(to) ? resolvePath(to) : resolvePath(dirname(path), to);
      return this.realTarget(next, signal, hops + 1);
    }
    const parent = dirname(path);
    if (parent === path) return path;
    const realParent = await this.realTarget(parent, signal, hops);
    return realParent === "/" ? "/" + basename(path) : `${realParent}/${basename(path)}`;
  }

  /**
   * Whether `path` still resolves to itself, inside a root (a writable one when `write`), with
   * the identity of `info`. Path-based, so each system call can be raced by a concurrent swap of
   * a parent for a symlink; the check is repeated, back to back (synchronous calls, a few
   * microseconds), so that a racing swap must win every round. Used only where the kernel's path
   * of a descriptor is unavailable (see `_fd_paths.ts` and the README's "Security and reliability").
   */
  stillInside(path: string, info: FileId, write = false): boolean {
    for (let round = 0; round < 3; round++) {
      const real = realPathSyncOrNull(path);
      const root = real === path ? findRoot(this.roots, real) : undefined;
      if (!root || (write && !root.writable)) return false;
      if (!sameFile(statSyncOrNull(path), info)) return false;
    }
    return true;
  }

  /** Whether a descriptor's location lies inside a root (a writable one when `write`). */
  locatedInside(where: OpenLocation | null, write: boolean): boolean {
    const root = where?.path == null ? undefined : findRoot(this.roots, where.path);
    return root !== undefined && (!write || root.writable);
  }

  /**
   * Whether the file `info`, just opened at `path`, is the file at `path` and lies inside a
   * root. Judged on the kernel's path of the open descriptor where the runtime allows it (a
   * swap cannot fool that), else by {@linkcode Containment.stillInside}.
   */
  isInside(path: string, info: FileId, write = false): boolean {
    if (!fdPathsAvailable()) return this.stillInside(path, info, write);
    if (!this.locatedInside(openLocation(info), write)) return false;
    return sameFile(statSyncOrNull(path), info);
  }

  /**
   * Opens the directory `dir` and checks it lies inside a root: a {@linkcode WorkDir} whose
   * `at` names the open directory itself (`/proc/self/fd/<n>`), so names joined to it resolve
   * inside that directory whatever its path turns into. Without /proc/self/fd (or on a file
   * system where the descriptor cannot be told apart, see `pinnedLocation`), `at` is `dir` and
   * the callers check each step by path.
   */
  async pin(dir: string, write: boolean): Promise<WorkDir> {
    const unpinned = { at: dir, pinned: false, close() {} };
    if (!fdPathsAvailable()) return unpinned;
    const file = await openDirectory(dir);
    try {
      const info = await file.stat();
      if (!info.isDirectory) throw new FsError("FS_NOT_DIRECTORY");
      const where = pinnedLocation(file, info);
      if (where === null) {
        // Not markable here: judge the directory by any descriptor of it, then work by path.
        const any = openLocation(info);
        if (!this.locatedInside(any, false)) throw new FsError("FS_OUTSIDE_ROOT");
        closeQuietly(file);
        return unpinned;
      }
      if (!this.locatedInside(where, false)) throw new FsError("FS_OUTSIDE_ROOT");
      if (!this.locatedInside(where, write)) throw new FsError("FS_READ_ONLY");
      return { at: where.handle, pinned: true, close: () => closeQuietly(file) };
    } catch (error) {
      closeQuietly(file);
      throw error;
    }
  }
}

/** `open(2)` flags of a directory to pin: refused at once when it is not one (a FIFO never waits). */
const DIRECTORY_ONLY = fsConstants.O_RDONLY | fsConstants.O_DIRECTORY;

/**
 * Opens the directory `dir` (links followed) as a Deno file without ever waiting: a FIFO swapped
 * in for it by another process would block a plain open until a writer came, and with it the
 * call, past any abort. `O_DIRECTORY` refuses anything but a directory at once; the descriptor
 * is then opened again through /proc/self/fd (the caller checked it is usable), so the Deno file
 * is that very directory.
 */
async function openDirectory(dir: string): Promise<Deno.FsFile> {
  let probe: nodeFs.FileHandle;
  try {
    probe = await nodeFs.open(dir, DIRECTORY_ONLY);
  } catch (error) {
    if ((error as { code?: unknown })?.code === "ENOTDIR") throw new FsError("FS_NOT_DIRECTORY");
    throw fromNodeError(error);
  }
  try {
    return await Deno.open(`/proc/self/fd/${probe.fd}`, { read: true });
  } finally {
    await probe.close();
  }
}

/**
 * Finds and removes an entry this call made at `path` while a parent of `path` may be swapped
 * for a link (path-based checks only): resolves `path` again and again, back to back, for up
 * to `budgetMs`, and removes what it resolves to once `mine` recognizes it. Best effort: a swap
 * that is not undone within the budget hides the entry (the README's "Security and reliability").
 */
export function huntAndRemove(
  path: string,
  mine: (real: string, info: Deno.FileInfo) => boolean,
  budgetMs = 5,
): boolean {
  const until = performance.now() + budgetMs;
  do {
    try {
      const real = realPathSyncOrNull(path);
      const info = real === null ? null : lstatSyncOrNull(real);
      if (real !== null && info !== null && mine(real, info)) {
        Deno.removeSync(real); // `real` itself may resolve elsewhere by now: then try again
        return true;
      }
    } catch {
      // a failure mid-swap: keep looking
    }
  } while (performance.now() < until);
  return false;
}

function checkRoot(spec: RootSpec): FsRootInfo {
  const { given, writable } = parseRootSpec(spec);
  const absolute = resolvePath(given);
  const needs = (name: "read" | "write"): Error =>
    new Error(
      `root "${given}" needs ${name} permission: run Deno with --allow-${name}=${absolute}`,
    );
  if (!readGranted(absolute)) throw needs("read");
  // Resolved before the write permission is asked for: a missing root is named as missing, not
  // as a permission problem (issue 34 item 8).
  let real: string;
  try {
    real = Deno.realPathSync(absolute);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(`root "${given}" does not exist: create it or pass another directory`);
    }
    throw new Error(`root "${given}" cannot be resolved: ${errorDetail(error)}`);
  }
  if (
    writable && Deno.permissions.querySync({ name: "write", path: absolute }).state !== "granted"
  ) {
    throw needs("write");
  }
  if (!Deno.statSync(real).isDirectory) {
    throw new Error(`root "${given}" is not a directory: ${real}`);
  }
  return Object.freeze({ path: real, writable });
}

/** Whether Deno grants reading `path`, asked without prompting (C7.3). */
export function readGranted(path: string): boolean {
  return Deno.permissions.querySync({ name: "read", path }).state === "granted";
}
