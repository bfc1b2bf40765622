// The entry a `move` or `delete` names (C15): the entry itself, never followed, inside a
// writable root. Private to src/tools.

import { basename, dirname, resolve } from "node:path";
import { FsError } from "../fs_error.ts";
import type { FsEntryPath } from "../policy/read_before_write.ts";
import type { FsTarget } from "../provider/fs_provider.ts";
import { displayPath } from "../provider/roots.ts";
import { ENTRY_REASONS } from "../render/entry_render.ts";
import type { ToolEnv } from "./_context.ts";

/** An entry's target (its `realPath` names the entry itself) and its display path. */
export interface Entry {
  /** For the provider. */
  target: FsTarget;
  /** For the policy's intent. */
  named: FsEntryPath;
}

/**
 * Resolves the entry `given` names for `op`: its parent's real path plus its own name, so a link
 * is the link itself (C15.2, C15.3). Containment is decided on the parent's real path (C3.2),
 * whose root must be writable (C3.3). With `refuseRoot`, a root (named directly or through
 * links) is refused with `it is a root`, and so is an entry holding a root (a nested root,
 * read-only or not, never moves or goes inside an ancestor): `it holds the root "<root>"`.
 */
export async function resolveEntry(
  env: ToolEnv,
  given: string,
  op: "move" | "delete" | "patch",
  refuseRoot: boolean,
): Promise<Entry> {
  const { cwd, signal } = env;
  const path = resolve(cwd, given);
  if (refuseRoot) {
    const whole = await env.fs.resolve(path, { cwd, op, signal }).catch(() => null);
    if (whole && whole.root.path === whole.realPath) {
      throw new FsError("FS_INVALID_ARGUMENT", { detail: ENTRY_REASONS.root });
    }
  }
  const parent = await env.fs.resolve(dirname(path), { cwd, op, signal });
  if (!parent.root.writable) throw new FsError("FS_READ_ONLY");
  const name = basename(path);
  const realPath = parent.realPath === "/" ? `/${name}` : `${parent.realPath}/${name}`;
  if (refuseRoot) {
    const held = env.fs.roots.find((root) => root.path.startsWith(`${realPath}/`));
    if (held) {
      throw new FsError("FS_INVALID_ARGUMENT", { detail: ENTRY_REASONS.holdsRoot(held.path) });
    }
  }
  return {
    target: { path, realPath, root: parent.root },
    named: { path, realPath, displayPath: displayPath(cwd, path) },
  };
}
