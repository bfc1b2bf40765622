/**
 * Agent Client Protocol presentation of tool calls (CONTRACT C8): synchronous, touches no file.
 *
 * @module
 */

import { resolve } from "node:path";
import type { EditValue, WriteValue } from "../types.ts";

/** A file a call reads or changes, for an editor to follow. */
export interface ToolCallLocation {
  /** Absolute path (lexical). */
  path: string;
  /** 1-based line, when known. */
  line?: number;
}

/** The ACP `tool_call` fields toolfs fills in. */
export interface ToolCallPresentation {
  /** A short human title. */
  title: string;
  /** The ACP tool kind. */
  kind: "read" | "edit" | "search" | "other";
  /** The arguments worth showing. */
  rawInput?: Record<string, unknown>;
  /** The files involved. */
  locations?: ToolCallLocation[];
}

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

const CLIP = 80;

/**
 * Clips text to at most 80 code points; a clipped one ends in `…`.
 *
 * @param text The text.
 * @returns The clipped text.
 *
 * @example
 * ```ts
 * import { clip } from "./acp.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(clip("x".repeat(100)), `${"x".repeat(79)}…`);
 * assert.equal(clip("short"), "short");
 * ```
 */
export function clip(text: string): string {
  const points = Array.from(text);
  return points.length <= CLIP ? text : points.slice(0, CLIP - 1).join("") + "…";
}

function given(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

/**
 * Presents a call as an ACP `tool_call`.
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
  const a = typeof args === "object" && args !== null ? args as Record<string, unknown> : {};
  const filePath = given(a.file_path) ? a.file_path : "";
  const at = (path: string, line?: number): ToolCallLocation[] | undefined =>
    path.includes("\0") ? undefined : [
      line === undefined ? { path: resolve(cwd, path) } : {
        path: resolve(cwd, path),
        line,
      },
    ];
  switch (name) {
    case "list": {
      const path = given(a.path) ? a.path : ".";
      return withLocations({ title: `List ${path}`, kind: "search" }, at(path));
    }
    case "read": {
      const rawInput: Record<string, unknown> = {};
      if (a.offset !== undefined && a.offset !== null) rawInput.offset = a.offset;
      if (a.limit !== undefined && a.limit !== null) rawInput.limit = a.limit;
      const line = Number.isSafeInteger(a.offset) && (a.offset as number) >= 1
        ? a.offset as number
        : 1;
      return withLocations(
        { title: titled("Read", filePath), kind: "read", rawInput },
        filePath ? at(filePath, line) : undefined,
      );
    }
    case "write":
      return withLocations(
        { title: titled("Write", filePath), kind: "edit" },
        filePath ? at(filePath) : undefined,
      );
    case "edit":
      return withLocations({
        title: titled("Edit", filePath),
        kind: "edit",
        rawInput: {
          old_string: clip(typeof a.old_string === "string" ? a.old_string : ""),
          new_string: clip(typeof a.new_string === "string" ? a.new_string : ""),
        },
      }, filePath ? at(filePath) : undefined);
    case "glob":
    case "grep": {
      const verb = name === "glob" ? "Glob" : "Grep";
      const pattern = typeof a.pattern === "string" ? a.pattern : "";
      const title = given(a.path) ? `${verb} ${pattern} in ${a.path}` : `${verb} ${pattern}`;
      return withLocations({ title, kind: "search" }, at(given(a.path) ? a.path : "."));
    }
    default:
      return { title: name, kind: "other" };
  }
}

/** `<verb> <path>`, or the bare verb when the call names no path. */
function titled(verb: string, path: string): string {
  return path ? `${verb} ${path}` : verb;
}

function withLocations(
  presentation: ToolCallPresentation,
  locations: ToolCallLocation[] | undefined,
): ToolCallPresentation {
  return locations ? { ...presentation, locations } : presentation;
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
