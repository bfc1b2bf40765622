/**
 * The read-before-write gate (CONTRACT C5): a write or edit of an existing file needs a read of
 * it, by the same session, at its current version. The tools call it through {@linkcode FsPolicy}
 * and never depend on this class, so a host can plug in its own.
 *
 * @module
 */

import { FsError } from "../fs_error.ts";
import type { FsPrecondition } from "../provider/fs_provider.ts";

/** A write or edit about to happen. */
export interface FsIntent {
  /** `write` or `edit`. */
  op: "write" | "edit";
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
  /** The call's content (`write`) or new string (`edit`), for a policy that shows it to a person. */
  content: string;
  /** The call's signal. */
  signal?: AbortSignal;
}

/** A successful read, write or edit, which a policy records. */
export interface FsObservation {
  /** The tool that succeeded. */
  op: "read" | "write" | "edit";
  /** The session. */
  session: object;
  /** The absolute lexical path. */
  path: string;
  /** The real path. */
  realPath: string;
  /** The file's version the call saw or produced. */
  version: string;
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
   * Records the version a session read or produced.
   *
   * @param observation What the session read or wrote.
   */
  observed(observation: FsObservation): void {
    let files = this.#seen.get(observation.session);
    if (!files) this.#seen.set(observation.session, files = new Map());
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

/** The policy of `policy: false`: every write and edit is unconditional (C5.6). */
export const NO_POLICY: FsPolicy = Object.freeze({
  writeIntent: (): FsPrecondition => ({ kind: "none" }),
  editIntent: (): FsPrecondition => ({ kind: "none" }),
  observed: (): void => {},
});
