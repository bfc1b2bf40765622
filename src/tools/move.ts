/**
 * The `move` executor (CONTRACT C15.2): a file, a link itself or a directory to a new path,
 * never over an existing one, never a root; the session's observations follow.
 *
 * @module
 */

import { resolve } from "node:path";
import { FsError } from "../fs_error.ts";
import { displayPath } from "../provider/roots.ts";
import { pathErrorMessage } from "../render/errors.ts";
import {
  ENTRY_MESSAGES,
  ENTRY_REASONS,
  moveAcrossMessage,
  moveExistsMessage,
  moveOutsideMessage,
  renderMove,
} from "../render/entry_render.ts";
import type { MoveValue } from "../types.ts";
import { invalid, requireString } from "./_args.ts";
import type { Tool, ToolEnv, ToolSuccess } from "./_context.ts";
import { type Entry, resolveEntry } from "./_entry.ts";
import { entryIntent } from "./_intents.ts";

/** Validated `move` arguments. */
interface MoveRequest {
  /** The source as the caller gave it. */
  source: string;
  /** The destination as the caller gave it. */
  destination: string;
}

/** `move`: its arguments checked, then the entry moved through the policy. */
export const moveTool: Tool<MoveRequest, MoveValue> = { parse, run };

/** Checks `move` arguments in the contract's order (C15.2). */
function parse(a: Record<string, unknown>): MoveRequest {
  const source = requireString(a.source_path, ENTRY_MESSAGES.sourcePath);
  const destination = requireString(a.destination_path, ENTRY_MESSAGES.destinationPath);
  if (source.includes("\0")) throw invalid(ENTRY_MESSAGES.sourcePathNul);
  if (destination.includes("\0")) throw invalid(ENTRY_MESSAGES.destinationPathNul);
  return { source, destination };
}

/** Runs `move` with validated arguments. */
async function run(
  { source: sourcePath, destination: destinationPath }: MoveRequest,
  env: ToolEnv,
): Promise<ToolSuccess<MoveValue>> {
  const { signal } = env;
  const source = await resolveEntry(env, sourcePath, "move", true);
  const whole = await env.fs.resolve(destinationPath, { cwd: env.cwd, op: "move", signal })
    .catch(() => null);
  if (whole && whole.root.path === whole.realPath) {
    // A root exists (and its parent may lie outside every root).
    const shown = [source.named.displayPath, displayPath(env.cwd, whole.path)] as const;
    throw new FsError("FS_EXISTS", { message: moveExistsMessage(...shown) });
  }
  const destination = await destinationOf(env, destinationPath, source.named.displayPath);
  const [from, to] = [source.named.displayPath, destination.named.displayPath];
  return env.serialize(source.target.realPath, async () => {
    const entries = await env.fs.listTree(source.target, { signal });
    if (!entries) throw new FsError("FS_NOT_FOUND");
    const type = entries[0].type;
    await env.policy.moveIntent?.(entryIntent(env, source.named, {
      op: "move",
      type,
      destination: destination.named,
      files: entries.filter((e) => e.type === "file").map(({ realPath }) => ({ realPath })),
    }));
    const moved = await env.fs.moveEntry(source.target, destination.target, { signal })
      .catch((error) => {
        if (!(error instanceof FsError) || error.hasMessage) throw error;
        if (error.detail === ENTRY_REASONS.acrossFileSystems) {
          const message = moveAcrossMessage(from, to);
          throw new FsError("FS_INVALID_ARGUMENT", { message, cause: error });
        }
        if (error.code !== "FS_EXISTS") throw error;
        throw new FsError("FS_EXISTS", { message: moveExistsMessage(from, to), cause: error });
      });
    env.emit("move", destination.target, "", source.target);
    return {
      content: renderMove(from, to),
      value: { from: source.target.path, to: destination.target.path, type: moved.type },
    };
  });
}

/**
 * The destination entry; a failure names the destination, not the source, and one outside
 * the roots names both (C15.2).
 */
async function destinationOf(env: ToolEnv, given: string, from: string): Promise<Entry> {
  try {
    return await resolveEntry(env, given, "move", false);
  } catch (error) {
    if (!(error instanceof FsError) || error.hasMessage || error.code === "FS_ABORTED") throw error;
    if (error.code === "FS_OUTSIDE_ROOT") {
      throw new FsError(error.code, { message: moveOutsideMessage(from, given), cause: error });
    }
    const where = displayPath(env.cwd, resolve(env.cwd, given));
    throw new FsError(error.code, {
      message: pathErrorMessage(error.code, "move", where, error.detail),
      cause: error,
    });
  }
}
