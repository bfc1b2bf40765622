/**
 * Every tool's spec, by name: the one list every surface loops over (definitions, guidance, MCP
 * tools and output schemas, ACP presentation, wire formats). A tool missing a field, or a name
 * of `FsToolName` without a spec, is a compile error.
 *
 * @module
 */

import type { FsToolName } from "../../types.ts";
import { DELETE_SPEC } from "./delete.ts";
import { EDIT_SPEC } from "./edit.ts";
import { GLOB_SPEC } from "./glob.ts";
import { GREP_SPEC } from "./grep.ts";
import { LIST_SPEC } from "./list.ts";
import { MOVE_SPEC } from "./move.ts";
import { PATCH_SPEC } from "./patch.ts";
import { READ_SPEC } from "./read.ts";
import type { ToolSpec } from "./spec.ts";
import { WRITE_SPEC } from "./write.ts";

export * from "./spec.ts";
export { GREP_MAX_CONTEXT, GREP_OUTPUT_MODES, type GrepOutputMode } from "./grep.ts";

/** The specs, in the canonical definition order (C9.1, C15.1). */
export const SPECS: Readonly<Record<FsToolName, ToolSpec>> = Object.freeze({
  list: LIST_SPEC,
  read: READ_SPEC,
  write: WRITE_SPEC,
  edit: EDIT_SPEC,
  glob: GLOB_SPEC,
  grep: GREP_SPEC,
  move: MOVE_SPEC,
  delete: DELETE_SPEC,
  patch: PATCH_SPEC,
});

/** Every tool name, in the canonical order. */
export const TOOL_NAMES: readonly FsToolName[] = Object.freeze(
  Object.keys(SPECS) as FsToolName[],
);

/**
 * The tools `createFsTools` gives when none are named (C9.1): `move`, `delete` and `patch` are
 * opt-in (C15.1), so a default prompt keeps its bytes.
 */
export const DEFAULT_TOOLS: readonly FsToolName[] = Object.freeze(
  TOOL_NAMES.filter((name) => name !== "move" && name !== "delete" && name !== "patch"),
);

/**
 * Whether a name is one of the tools.
 *
 * @param name Any value.
 * @returns `true` for a tool name.
 */
export function isToolName(name: unknown): name is FsToolName {
  return typeof name === "string" && Object.hasOwn(SPECS, name);
}

/**
 * The tools the MCP server and the CLI serve when not told otherwise (`--tools`): every tool
 * but `patch` (C15.1).
 */
export const SERVED_TOOLS: readonly FsToolName[] = Object.freeze(
  TOOL_NAMES.filter((name) => (name as string) !== "patch"),
);
