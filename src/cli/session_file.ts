/**
 * A read-before-write session kept in a JSON file, so that separate CLI runs (a shell script's
 * `read` then `edit`) count as one session (CONTRACT C5).
 *
 * The file is `{ "toolfs_session": 1, "observations": { "<real path>": "<version>" } }`. It is
 * written atomically (a temporary file beside it, then a rename) under a lock file beside it
 * (`.<name>.lock`, created exclusively), so runs saving at once each merge their own changes
 * into what the others saved: none is lost. A file that is not such an object is refused with
 * a message that quotes none of its bytes, and never overwritten.
 *
 * The file is opened without following a link and without blocking (a FIFO cannot hang the
 * run), checked to be a regular file once open, and read to at most
 * {@linkcode MAX_SESSION_FILE_BYTES} (a link to `/dev/zero` or a huge file is refused at once,
 * issue 30 item 10).
 *
 * @module
 */

import { closeSync, constants, fstatSync, openSync, readSync, Stats } from "node:fs";
import { basename, dirname, join } from "node:path";
import { ReadBeforeWritePolicy } from "../policy/read_before_write.ts";

/** The format marker and version of a session file. */
const FORMAT = "toolfs_session";

/**
 * The largest session file read (16 MiB: about 100,000 observations); a larger one is refused
 * before a byte of it is read.
 */
export const MAX_SESSION_FILE_BYTES: number = 16 * 1024 * 1024;

/** A session file, loaded: its policy and session object carry the stored observations. */
export class SessionFile {
  /** The file's path. */
  readonly path: string;
  /** The policy to give `createFsTools`. */
  readonly policy: ReadBeforeWritePolicy = new ReadBeforeWritePolicy();
  /** The session to give `execute`. */
  readonly session: object = {};
  /** The observations as loaded: a save writes only what this run changed. */
  #loaded: Record<string, string> = {};

  private constructor(path: string) {
    this.path = path;
  }

  /**
   * Loads a session file; a missing file is an empty session.
   *
   * @param path The file.
   * @returns The session.
   * @throws {Error} When the file cannot be read or is not a toolfs session file.
   */
  static load(path: string): Promise<SessionFile> {
    const file = new SessionFile(path);
    try {
      file.#loaded = readObservations(path);
    } catch (error) {
      return Promise.reject(error);
    }
    for (const [realPath, version] of Object.entries(file.#loaded)) {
      file.policy.observed({
        op: "read",
        session: file.session,
        path: realPath,
        realPath,
        version,
      });
    }
    return Promise.resolve(file);
  }

  /**
   * Writes the session's observations back, merged over what the file holds now (another run
   * may have saved meanwhile), through a temporary file and a rename.
   *
   * @throws {Error} When the file cannot be written, or has become malformed meanwhile.
   */
  async save(): Promise<void> {
    const mine = Object.fromEntries(this.policy.observations(this.session));
    const release = await lock(this.path);
    try {
      const observations = readObservations(this.path);
      for (const [key, version] of Object.entries(mine)) {
        if (this.#loaded[key] !== version) observations[key] = version;
      }
      for (const key of Object.keys(this.#loaded)) if (!(key in mine)) delete observations[key];
      const text = `${JSON.stringify({ [FORMAT]: 1, observations }, null, 2)}\n`;
      const temp = join(
        dirname(this.path),
        `.${basename(this.path)}.${crypto.randomUUID().slice(0, 8)}.tmp`,
      );
      try {
        await Deno.writeTextFile(temp, text, { createNew: true, mode: 0o600 });
        await Deno.rename(temp, this.path);
      } catch (error) {
        await Deno.remove(temp).catch(() => {});
        throw new Error(`cannot save session file ${JSON.stringify(this.path)}: ${message(error)}`);
      }
      this.#loaded = { ...mine };
    } finally {
      await release();
    }
  }
}

/** A lock file older than this is taken to be left by a run that died while saving. */
const STALE_LOCK_MS = 10_000;

/**
 * Takes the session file's lock (`.<name>.lock` beside it, created exclusively), waiting while
 * another run holds it; returns its release.
 */
async function lock(path: string): Promise<() => Promise<void>> {
  const lockPath = join(dirname(path), `.${basename(path)}.lock`);
  for (let attempt = 0;; attempt++) {
    try {
      const file = await Deno.open(lockPath, { write: true, createNew: true, mode: 0o600 });
      file.close();
      return () => Deno.remove(lockPath).catch(() => {});
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) {
        throw new Error(`cannot lock session file ${JSON.stringify(path)}: ${message(error)}`);
      }
    }
    const info = await Deno.lstat(lockPath).catch(() => null);
    if (info?.mtime && Date.now() - info.mtime.getTime() > STALE_LOCK_MS) {
      await Deno.remove(lockPath).catch(() => {});
      continue;
    }
    await new Promise((resolve) =>
      setTimeout(resolve, 5 + Math.random() * Math.min(100, attempt * 5))
    );
  }
}

function readObservations(path: string): Record<string, string> {
  const text = readSessionText(path);
  if (text === null) return {};
  const refuse = (detail: string): Error =>
    new Error(`session file ${JSON.stringify(path)} is not a toolfs session file: ${detail}`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // Not the engine's message: it quotes the file's first bytes.
    throw refuse("not valid JSON");
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw refuse("expected a JSON object");
  }
  const record = data as Record<string, unknown>;
  if (record[FORMAT] !== 1) throw refuse(`expected "${FORMAT}": 1`);
  const observations = record.observations;
  if (typeof observations !== "object" || observations === null || Array.isArray(observations)) {
    throw refuse(`expected "observations" to be an object`);
  }
  for (const value of Object.values(observations)) {
    if (typeof value !== "string") {
      throw refuse(`a version is not a string`);
    }
  }
  return observations as Record<string, string>;
}

/**
 * The session file's text, or `null` when there is none. Opened without following a last-name
 * link and without blocking on a FIFO, checked to be a regular file once open (so nothing
 * swapped in between a check and the open is read), and read to at most
 * {@linkcode MAX_SESSION_FILE_BYTES}, whatever `fstat` said (a file that grows is still bounded).
 */
function readSessionText(path: string): string | null {
  const name = JSON.stringify(path);
  let named: Deno.FileInfo;
  try {
    named = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw new Error(`cannot read session file ${name}: ${message(error)}`);
  }
  // Checked on the name first: Deno's `node:fs` drops `O_NOFOLLOW` under scoped permissions.
  if (named.isSymlink) {
    throw new Error(
      `session file ${name} is a symbolic link: pass the file itself (a session file is never read through a link)`,
    );
  }
  if (!named.isFile) {
    throw new Error(`session file ${name} is not a regular file: it is ${kindOf(named)}`);
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw new Error(`cannot read session file ${name}: ${message(error)}`);
  }
  try {
    // What is open, whatever was swapped in after the check: a regular file, the one checked.
    const info = fstatSync(fd);
    if (!info.isFile()) {
      throw new Error(`session file ${name} is not a regular file: it is ${kindOf(info)}`);
    }
    if (info.ino !== named.ino || info.dev !== named.dev) {
      throw new Error(`session file ${name} was replaced while it was opened: run again`);
    }
    const tooBig = new Error(
      `session file ${name} is not a toolfs session file: it is over ${
        MAX_SESSION_FILE_BYTES / (1024 * 1024)
      } MiB`,
    );
    if (info.size > MAX_SESSION_FILE_BYTES) throw tooBig;
    // Read past the size fstat gave: the file may have grown; never past the bound.
    let buffer = new Uint8Array(Math.min(info.size, MAX_SESSION_FILE_BYTES) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > MAX_SESSION_FILE_BYTES) throw tooBig;
        const grown = new Uint8Array(Math.min(length * 2, MAX_SESSION_FILE_BYTES + 1));
        grown.set(buffer);
        buffer = grown;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > MAX_SESSION_FILE_BYTES) throw tooBig;
    return new TextDecoder().decode(buffer.subarray(0, length));
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("session file ")) throw error;
    throw new Error(`cannot read session file ${name}: ${message(error)}`);
  } finally {
    closeSync(fd);
  }
}

/** What a file that is not a regular file is, for a message (from `lstat` or `fstat`). */
function kindOf(info: Stats | Deno.FileInfo): string {
  const kind = info instanceof Stats
    ? {
      directory: info.isDirectory(),
      fifo: info.isFIFO(),
      device: info.isCharacterDevice() || info.isBlockDevice(),
      socket: info.isSocket(),
    }
    : {
      directory: info.isDirectory,
      fifo: info.isFifo === true,
      device: info.isCharDevice === true || info.isBlockDevice === true,
      socket: info.isSocket === true,
    };
  if (kind.directory) return "a directory";
  if (kind.fifo) return "a FIFO";
  if (kind.device) return "a device";
  if (kind.socket) return "a socket";
  return "not a file";
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
