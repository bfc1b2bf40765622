/**
 * The read-before-write gate (CONTRACT C5): a write or edit of an existing file needs a read of
 * it, by the same session, at its current version. The tools call it through {@linkcode FsPolicy}
 * and never depend on this class, so a host can plug in its own.
 *
 * @module
 */

import { FsError } from "../fs_error.ts";
import type { FsEntryType, FsPrecondition } from "../provider/fs_provider.ts";
import { unreadTreeMessage } from "../render/entry_render.ts";

/**
 * A change to one file, as a person reviewing it wants to see it (issue 34.6): the text before
 * and after and the unified diff between them, computed against the version the file has now.
 */
export interface FsChange {
  /** The file's version the change was computed against; `null` when it does not exist. */
  version: string | null;
  /** Its text now (without a BOM); `null` when it does not exist, or for a binary file. */
  before: string | null;
  /** Its text after the call; `null` when the call removes it, or for a binary file. */
  after: string | null;
  /**
   * The unified diff (`--- a/<displayPath>`, `+++ b/<displayPath>`, `/dev/null` for a created
   * or deleted file, 3 lines of context); `""` when nothing changes (e.g. an `edit` whose
   * `old_string` does not match, which then fails as C12.3 says).
   */
  diff: string;
}

/** A write or edit about to happen. */
export interface FsIntent {
  /** `write` or `edit` (a patch's added file is a `write`, its updated file an `edit`). */
  op: "write" | "edit";
  /** The tool that asks: `write`, `edit` or `patch` (which includes the apply_patch hosts). */
  tool: "write" | "edit" | "patch";
  /** The session the call belongs to. */
  session: object;
  /** The absolute lexical path. */
  path: string;
  /** The real path (the key observations are kept under). */
  realPath: string;
  /** The path as the model sees it. */
  displayPath: string;
  /** Whether the file exists now. */
  exists: boolean;
  /**
   * The call's content (`write`), new string (`edit`) or the patch text (`patch`), for a policy
   * that shows it to a person.
   */
  content: string;
  /** `edit` only: the text to replace, its replacement and whether every occurrence goes. */
  edit?: { oldString: string; newString: string; replaceAll: boolean };
  /**
   * The change for a reviewer: the text before and after, and the unified diff. Nothing is
   * read until a policy calls it (once; later calls share the answer), so a policy that checks
   * its own rules first reads only what it allowed. The diff is against the file as it is now;
   * when its `version` is the one the session read (the read-before-write gate's precondition),
   * the reviewer sees what the model saw, and the provider applies the call only at that
   * version (re-checked under the file's lock).
   */
  change(): Promise<FsChange>;
  /** The call's signal. */
  signal?: AbortSignal;
}

/** A path a move or delete names (C15.4). */
export interface FsEntryPath {
  /** The absolute lexical path. */
  path: string;
  /** The real path of the entry itself (its parent's real path and its name). */
  realPath: string;
  /** The path as the model sees it. */
  displayPath: string;
}

/** A `move` or `delete` about to happen (C15.4), for a policy that decides or asks a person. */
export interface FsEntryIntent extends FsEntryPath {
  /** `move` or `delete`. */
  op: "move" | "delete";
  /** The session the call belongs to. */
  session: object;
  /** The entry's own type (a symbolic link is `other`). */
  type: FsEntryType;
  /** `move` only: where it goes. */
  destination?: FsEntryPath;
  /** `delete` only: whether a non-empty directory may go with its contents. */
  recursive?: boolean;
  /**
   * Every regular file the call moves or deletes (the entry itself, or each one in the tree),
   * with its current version for a delete.
   */
  files: readonly { realPath: string; version?: string }[];
  /**
   * `delete` of a regular file only: the change for a reviewer (its text before, and the diff
   * to `/dev/null`), read only when called, as {@linkcode FsIntent.change}.
   */
  change?(): Promise<FsChange>;
  /** The call's signal. */
  signal?: AbortSignal;
}

/**
 * What a delete may remove: `none` (unconditional), or each regular file in it at the given
 * version (by real path) and no other file; the provider checks it under the files' locks.
 */
export type FsDeleteCondition =
  | { kind: "none" }
  | { kind: "versions"; versions: ReadonlyMap<string, string> };

/** A successful read, write, edit, move or delete, which a policy records. */
export interface FsObservation {
  /** The tool that succeeded. */
  op: "read" | "write" | "edit" | "move" | "delete";
  /** The session. */
  session: object;
  /** The absolute lexical path (a move's destination). */
  path: string;
  /** The real path (a move's destination). */
  realPath: string;
  /** The file's version the call saw or produced; `""` for a move or delete. */
  version: string;
  /** A move's source real path: observations under it now belong under `realPath`. */
  from?: string;
}

/**
 * The gate `write` and `edit` pass through. Each intent method returns the precondition the
 * provider must check under its lock, or throws an `FsError` to refuse the call.
 */
export interface FsPolicy {
  /** Decides a `write`. */
  writeIntent(intent: FsIntent): FsPrecondition | Promise<FsPrecondition>;
  /** Decides an `edit`. */
  editIntent(intent: FsIntent): FsPrecondition | Promise<FsPrecondition>;
  /**
   * Decides a `move` (C15.4): throw an `FsError` to refuse. Absent: every move is allowed (a
   * move destroys nothing).
   */
  moveIntent?(intent: FsEntryIntent): void | Promise<void>;
  /**
   * Decides a `delete` (C15.4): the condition the provider must find, or throw an `FsError` to
   * refuse. Absent: every delete is unconditional.
   */
  deleteIntent?(intent: FsEntryIntent): FsDeleteCondition | Promise<FsDeleteCondition>;
  /** Records a successful call. Synchronous: it must not fail. */
  observed(observation: FsObservation): void;
}

/**
 * The default policy: observations per session and real path; a write of a new file must find
 * it still absent, a write or edit of an existing one must find it at the observed version.
 *
 * @example
 * ```ts
 * import { ReadBeforeWritePolicy } from "./read_before_write.ts";
 * import assert from "node:assert/strict";
 *
 * const policy = new ReadBeforeWritePolicy();
 * const session = {};
 * policy.observed({ op: "read", session, path: "/w/a", realPath: "/w/a", version: "v1" });
 * assert.equal(policy.versionOf(session, "/w/a"), "v1");
 * assert.equal(policy.versionOf({}, "/w/a"), undefined); // another session has not read it
 * ```
 */
export class ReadBeforeWritePolicy implements FsPolicy {
  #seen = new WeakMap<object, Map<string, string>>();

  /**
   * Decides a write: a new file must still be absent, an existing one must be at the observed version.
   *
   * @param intent The write.
   * @returns `absent` for a new file, else the observed version.
   * @throws {FsError} `FS_NOT_OBSERVED` when the session never read the file.
   */
  writeIntent(intent: FsIntent): FsPrecondition {
    if (!intent.exists) return { kind: "absent" };
    return this.#require(intent);
  }

  /**
   * Decides an edit: the file must be at the version the session observed.
   *
   * @param intent The edit.
   * @returns The observed version.
   * @throws {FsError} `FS_NOT_OBSERVED` when the session never read the file.
   */
  editIntent(intent: FsIntent): FsPrecondition {
    return this.#require(intent);
  }

  /**
   * Decides a delete (C15.3): a file needs an observation (checked at its current version by
   * the provider); a directory tree needs one at the current version for every file in it.
   *
   * @param intent The delete.
   * @returns The observed version of each file.
   * @throws {FsError} `FS_NOT_OBSERVED` when a file was never read, or a tree holds unread files.
   */
  deleteIntent(intent: FsEntryIntent): FsDeleteCondition {
    const versions = new Map<string, string>();
    let unread = 0;
    for (const file of intent.files) {
      const seen = this.versionOf(intent.session, file.realPath);
      if (seen === undefined || (intent.type === "directory" && seen !== file.version)) unread++;
      else versions.set(file.realPath, seen);
    }
    if (unread > 0 && intent.type === "directory") {
      throw new FsError("FS_NOT_OBSERVED", {
        message: unreadTreeMessage(intent.displayPath, unread),
      });
    }
    if (unread > 0) throw new FsError("FS_NOT_OBSERVED");
    return { kind: "versions", versions };
  }

  /**
   * Records the version a session read or produced; a move carries the session's observations
   * of everything under its source to its destination, a delete forgets them.
   *
   * @param observation What the session read, wrote, moved or deleted.
   */
  observed(observation: FsObservation): void {
    let files = this.#seen.get(observation.session);
    if (!files) this.#seen.set(observation.session, files = new Map());
    if (observation.op === "move" && observation.from !== undefined) {
      const from = observation.from;
      for (const [realPath, version] of [...files]) {
        if (realPath !== from && !realPath.startsWith(`${from}/`)) continue;
        files.delete(realPath);
        files.set(observation.realPath + realPath.slice(from.length), version);
      }
      return;
    }
    if (observation.op === "delete") {
      const gone = observation.realPath;
      for (const realPath of [...files.keys()]) {
        if (realPath === gone || realPath.startsWith(`${gone}/`)) files.delete(realPath);
      }
      return;
    }
    files.set(observation.realPath, observation.version);
  }

  /**
   * The version a session last saw of a file.
   *
   * @param session The session.
   * @param realPath The file's real path.
   * @returns The version, or `undefined` when never seen.
   */
  versionOf(session: object, realPath: string): string | undefined {
    return this.#seen.get(session)?.get(realPath);
  }

  /**
   * The real paths a session has seen, with their versions.
   *
   * @param session The session.
   * @returns A copy of the session's observations.
   */
  observations(session: object): Map<string, string> {
    return new Map(this.#seen.get(session));
  }

  /**
   * Forgets everything a session has seen.
   *
   * @param session The session.
   */
  forget(session: object): void {
    this.#seen.delete(session);
  }

  #require(intent: FsIntent): FsPrecondition {
    const version = this.versionOf(intent.session, intent.realPath);
    if (version === undefined) throw new FsError("FS_NOT_OBSERVED");
    return { kind: "version", version };
  }
}

/** The policy of `policy: false`: every write, edit, move and delete is unconditional (C5.6). */
export const NO_POLICY: FsPolicy = Object.freeze({
  writeIntent: (): FsPrecondition => ({ kind: "none" }),
  editIntent: (): FsPrecondition => ({ kind: "none" }),
  moveIntent: (): void => {},
  deleteIntent: (): FsDeleteCondition => ({ kind: "none" }),
  observed: (): void => {},
});
