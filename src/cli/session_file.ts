/**
 * A read-before-write session kept in a JSON file, so that separate CLI runs (a shell script's
 * `read` then `edit`) count as one session (CONTRACT C5).
 *
 * The file is `{ "toolfs_session": 1, "observations": { "<real path>": "<version>" } }`. It is
 * written atomically (a temporary file beside it, then a rename); a file that is not such an
 * object is refused with a message and never overwritten.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { ReadBeforeWritePolicy } from "../policy/read_before_write.ts";

/** The format marker and version of a session file. */
const FORMAT = "toolfs_session";

/** A session file, loaded: its policy and session object carry the stored observations. */
export class SessionFile {
  /** The file's path. */
  readonly path: string;
  /** The policy to give `createFsTools`. */
  readonly policy: ReadBeforeWritePolicy = new ReadBeforeWritePolicy();
  /** The session to give `execute`. */
  readonly session: object = {};

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
  static async load(path: string): Promise<SessionFile> {
    const file = new SessionFile(path);
    for (const [realPath, version] of Object.entries(await readObservations(path))) {
      file.policy.observed({
        op: "read",
        session: file.session,
        path: realPath,
        realPath,
        version,
      });
    }
    return file;
  }

  /**
   * Writes the session's observations back, merged over what the file holds now (another run
   * may have saved meanwhile), through a temporary file and a rename.
   *
   * @throws {Error} When the file cannot be written, or has become malformed meanwhile.
   */
  async save(): Promise<void> {
    const observations = {
      ...await readObservations(this.path),
      ...Object.fromEntries(this.policy.observations(this.session)),
    };
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
  }
}

async function readObservations(path: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    throw new Error(`cannot read session file ${JSON.stringify(path)}: ${message(error)}`);
  }
  const refuse = (detail: string): Error =>
    new Error(`session file ${JSON.stringify(path)} is not a toolfs session file: ${detail}`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw refuse(`not valid JSON (${message(error)})`);
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
  for (const [key, value] of Object.entries(observations)) {
    if (typeof value !== "string") {
      throw refuse(`the version of ${JSON.stringify(key)} is not a string`);
    }
  }
  return observations as Record<string, string>;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
