/**
 * Agent Client Protocol helpers: the presentation `tools.presentCall` returns, and
 * {@linkcode toAcpDiff}, which turns a `write` or `edit` value into an ACP diff item.
 *
 * @example Show an edit as a diff
 * ```ts
 * import { toAcpDiff } from "@toolfs/fs/acp";
 * import assert from "node:assert/strict";
 *
 * const diff = toAcpDiff({ path: "/w/a.txt", before: "one\n", after: "two\n" });
 * assert.deepEqual(diff, { type: "diff", path: "/w/a.txt", oldText: "one\n", newText: "two\n" });
 * ```
 *
 * @module
 */

export {
  type AcpDiff,
  type AcpToolKind,
  toAcpDiff,
  type ToolCallLocation,
  type ToolCallPresentation,
} from "./src/present/acp.ts";
// The values toAcpDiff takes, so this entry documents itself on its own (issue 33.3).
export type { EditValue, WriteValue } from "./mod.ts";
