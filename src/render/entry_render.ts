/**
 * Every model-facing text of `move` and `delete` (CONTRACT C15.2, C15.3): success texts, the
 * messages built from facts the tool holds, and the reasons providers attach to their codes.
 * Pure: no I/O.
 *
 * @module
 */

import { plural } from "./_view.ts";
import { quotePath, renderName } from "./names.ts";

/** Validation messages of C15, in the order they are checked. */
export const ENTRY_MESSAGES = {
  sourcePath: "source_path must be a non-empty string",
  sourcePathNul: "source_path must not contain a NUL byte",
  destinationPath: "destination_path must be a non-empty string",
  destinationPathNul: "destination_path must not contain a NUL byte",
  path: "path must be a non-empty string",
  recursive: "recursive must be a boolean when given",
} as const;

/**
 * The reasons `move` and `delete` refuse an entry, after `cannot <op> "<path>": ` (the
 * providers throw them as an `FsError` detail).
 */
export const ENTRY_REASONS = {
  /** A root can never be moved or deleted (C15.2, C15.3). */
  root: "it is a root",
  /**
   * An entry that holds a root moves or goes only with that root named by itself (C15.2, C15.3).
   */
  holdsRoot: (root: string): string => `it holds the root ${quotePath(root)}`,
  /** A directory cannot move into itself (C15.2). */
  intoItself: "a directory cannot move into itself",
  /** A directory never moves across file systems (C15.2); the tool names both paths. */
  acrossFileSystems: "they are on different file systems; move the files one by one",
  /**
   * C15.5: a move or delete where the checks cannot rule out a race (shown after
   * `permission denied (`), `need` naming what is lacking (`Deno's --allow-all`).
   */
  needs: (need: string): string =>
    `it needs ${need}: with path checks a concurrent swap could make it touch entries outside the roots`,
  /** C15.5: a directory that cannot be held open by a descriptor toolfs can tell apart. */
  unpinned:
    "this file system does not let toolfs hold the directory open by a descriptor it can tell apart, so a concurrent swap could make it touch entries outside the roots",
} as const;

/**
 * C15.5: the line a server or CLI logs when it leaves `move` and/or `delete` out:
 * `move and delete are not offered: they need <need> (...)`.
 *
 * @param tools The tools left out.
 * @param need What is lacking, such as `Deno's --allow-all`.
 * @returns The line.
 */
export function notOfferedLine(tools: readonly string[], need: string): string {
  const they = tools.length === 1 ? `${tools[0]} is` : `${tools.join(" and ")} are`;
  const verb = tools.length === 1 ? "it needs" : "they need";
  return `${they} not offered: ${verb} ${need} (with path checks a concurrent swap could make ${
    tools.length === 1 ? "it" : "them"
  } touch entries outside the roots)`;
}

/**
 * C15.5: `<tool> is not offered: it needs <need> (...)`, the answer to a call of `move` or
 * `delete` that the tools left out because the check mode cannot rule out a race.
 *
 * @param tool `move` or `delete`.
 * @param need What is lacking, such as `Deno's --allow-all`.
 * @returns The message.
 */
export function notOfferedMessage(tool: string, need: string): string {
  return notOfferedLine([tool], need);
}

/**
 * `cannot move "<src>" to "<dst>": the destination exists` (C15.2, `FS_EXISTS`).
 *
 * @param source The source's display path.
 * @param destination The destination's display path.
 * @returns The message.
 */
export function moveExistsMessage(source: string, destination: string): string {
  return `cannot move ${quotePath(source)} to ${quotePath(destination)}: the destination exists`;
}

/**
 * `cannot move "<src>" to "<dst>": the destination is outside the permitted roots` (C15.2,
 * `FS_OUTSIDE_ROOT`): the source is what moves, the destination is what is refused.
 */
export function moveOutsideMessage(source: string, destination: string): string {
  return `cannot move ${quotePath(source)} to ${
    quotePath(destination)
  }: the destination is outside the permitted roots`;
}

/**
 * `cannot move "<src>" to "<dst>": they are on different file systems; move the files one by
 * one` (C15.2, `FS_INVALID_ARGUMENT`): a directory never moves across file systems.
 *
 * @param source The source's display path.
 * @param destination The destination's display path.
 * @returns The message.
 */
export function moveAcrossMessage(source: string, destination: string): string {
  return `cannot move ${quotePath(source)} to ${
    quotePath(destination)
  }: ${ENTRY_REASONS.acrossFileSystems}`;
}

/**
 * `cannot delete "<path>": it holds <n> files this session has not read` (C15.3,
 * `FS_NOT_OBSERVED`).
 *
 * @param displayPath The directory's display path.
 * @param unread The files without a read observation at their current version.
 * @returns The message.
 */
export function unreadTreeMessage(displayPath: string, unread: number): string {
  return `cannot delete ${quotePath(displayPath)}: it holds ${
    plural(unread, "file", "files")
  } this session has not read`;
}

/**
 * `Moved <src> to <dst>` (C15.2).
 *
 * @param source The source's display path.
 * @param destination The destination's display path.
 * @returns The model-facing text.
 */
export function renderMove(source: string, destination: string): string {
  return `Moved ${renderName(source)} to ${renderName(destination)}`;
}

/**
 * `Deleted <path>`, or for a directory `Deleted <path> (<f> files, <d> directories)` (C15.3).
 *
 * @param displayPath The display path.
 * @param removed What was removed.
 * @returns The model-facing text.
 */
export function renderDelete(
  displayPath: string,
  removed: { type: string; files: number; directories: number },
): string {
  const shown = `Deleted ${renderName(displayPath)}`;
  if (removed.type !== "directory") return shown;
  return `${shown} (${plural(removed.files, "file", "files")}, ${
    plural(removed.directories, "directory", "directories")
  })`;
}
