/**
 * Agent Client Protocol presentation of tool calls (CONTRACT C8): synchronous, touches no file.
 *
 * @module
 */

import type { EditValue, WriteValue } from "../types.ts";
import { isToolName, SPECS, type ToolCallPresentation } from "./specs/mod.ts";

export {
  type AcpToolKind,
  clip,
  type ToolCallLocation,
  type ToolCallPresentation,
} from "./specs/mod.ts";

/** An ACP `diff` content item. */
export interface AcpDiff {
  /** Always `diff`. */
  type: "diff";
  /** Absolute path. */
  path: string;
  /** The old text; `null` for a new file. */
  oldText: string | null;
  /** The new text. */
  newText: string;
}

/**
 * Presents a call as an ACP `tool_call`: the tool's spec decides (`present` in
 * `specs/<tool>.ts`).
 *
 * @param name The tool name.
 * @param args The call's arguments (need not be valid).
 * @param cwd The absolute session directory locations resolve against.
 * @returns Title, kind, rawInput and locations.
 *
 * @example
 * ```ts
 * import { presentToolCall } from "./acp.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(presentToolCall("read", { file_path: "a.ts", offset: 10 }, "/w"), {
 *   title: "Read a.ts",
 *   kind: "read",
 *   rawInput: { offset: 10 },
 *   locations: [{ path: "/w/a.ts", line: 10 }],
 * });
 * ```
 */
export function presentToolCall(name: string, args: unknown, cwd: string): ToolCallPresentation {
  if (!isToolName(name)) return { title: name, kind: "other" };
  const a = typeof args === "object" && args !== null ? args as Record<string, unknown> : {};
  return SPECS[name].present(a, cwd);
}

/**
 * Turns a `write` or `edit` value into an ACP `diff` content item (for a `tool_call_update`'s
 * `content`): the absolute path, the text before (`null` for a created file) and after.
 *
 * @param value The result's `value`.
 * @returns The diff item.
 *
 * @example
 * ```ts
 * import { createFsTools, type EditValue, LocalFileSystem } from "@toolfs/fs";
 * import { toAcpDiff } from "@toolfs/fs/acp";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.realPath(await Deno.makeTempDir());
 * await Deno.writeTextFile(`${root}/a.ts`, "let a;\n");
 * const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
 * await tools.execute("read", { file_path: "a.ts" });
 * const result = await tools.execute("edit", { file_path: "a.ts", old_string: "a", new_string: "b" });
 * assert.deepEqual(toAcpDiff(result.value as EditValue), {
 *   type: "diff",
 *   path: `${root}/a.ts`,
 *   oldText: "let a;\n",
 *   newText: "let b;\n",
 * });
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function toAcpDiff(value: WriteValue | EditValue): AcpDiff {
  return { type: "diff", path: value.path, oldText: value.before, newText: value.after };
}
