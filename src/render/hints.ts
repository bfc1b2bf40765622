/**
 * Hints that help a model recover from a failed call in one step (CONTRACT C12): strict
 * arguments, did-you-mean, no-match and ambiguous-match detail, the edit snippet and the
 * workspace section of the system prompt. Pure: no I/O.
 *
 * @module
 */

import { quotePath, renderName } from "./names.ts";
import { formatLine } from "./read_render.ts";
import type { ReadLine } from "../types.ts";

/** The message for arguments that are not an object (C12.1). */
export const ARGUMENTS_NOT_OBJECT = "arguments must be an object";

/**
 * The message for an argument the tool's schema does not have (C12.1).
 *
 * @param key The unknown argument.
 * @param tool The tool's name.
 * @param suggestion The property it most likely meant, if any.
 * @param properties The schema's properties, in schema order.
 * @returns The message.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { unknownArgumentMessage } from "./hints.ts";
 *
 * equal(
 *   unknownArgumentMessage("replaceAll", "edit", "replace_all", []),
 *   'unknown argument "replaceAll" for edit; did you mean "replace_all"?',
 * );
 * ```
 */
export function unknownArgumentMessage(
  key: string,
  tool: string,
  suggestion: string | undefined,
  properties: readonly string[],
): string {
  const head = `unknown argument ${quotePath(key)} for ${tool}`;
  return suggestion !== undefined
    ? `${head}; did you mean ${quotePath(suggestion)}?`
    : `${head}; its arguments are ${properties.join(", ")}`;
}

/** Why an `old_string` was not found, as far as the failure path could tell (C12.3). */
export type NoMatchHint =
  | { kind: "line-numbers" }
  | { kind: "whitespace"; first: number; last: number }
  | { kind: "none" };

/**
 * The message for an `edit` whose `old_string` is not in the file (C12.3).
 *
 * @param displayPath The display path.
 * @param hint What the failure path found.
 * @returns The message.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { noMatchMessage } from "./hints.ts";
 *
 * equal(
 *   noMatchMessage("a.ts", { kind: "whitespace", first: 3, last: 3 }),
 *   'old_string was not found in "a.ts"; line 3 matches except for whitespace, so copy the indentation exactly',
 * );
 * ```
 */
export function noMatchMessage(displayPath: string, hint: NoMatchHint): string {
  const head = `old_string was not found in ${quotePath(displayPath)}`;
  switch (hint.kind) {
    case "line-numbers":
      return `${head}; remove the line numbers that read puts before each line`;
    case "whitespace": {
      const where = hint.first === hint.last
        ? `line ${hint.first} matches`
        : `lines ${hint.first}-${hint.last} match`;
      return `${head}; ${where} except for whitespace, so copy the indentation exactly`;
    }
    default:
      return `${head}; read the file again and copy old_string exactly`;
  }
}

/**
 * The message for an `edit` whose `old_string` occurs more than once (C12.4).
 *
 * @param displayPath The display path.
 * @param count How many times it occurs.
 * @param lines The distinct lines occurrences start on, ascending, at most 10.
 * @param more Whether occurrences start on more lines than `lines` lists.
 * @returns The message.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { ambiguousMessage } from "./hints.ts";
 *
 * equal(
 *   ambiguousMessage("a.ts", 2, [4, 9], false),
 *   'old_string matches 2 times in "a.ts" (lines 4, 9); add surrounding context to make it unique or set replace_all to true',
 * );
 * ```
 */
export function ambiguousMessage(
  displayPath: string,
  count: number,
  lines: readonly number[],
  more: boolean,
): string {
  const where = lines.length === 1 && !more
    ? `line ${lines[0]}`
    : `lines ${lines.join(", ")}${more ? ", …" : ""}`;
  return `old_string matches ${count} times in ${
    quotePath(displayPath)
  } (${where}); add surrounding context to make it unique or set replace_all to true`;
}

/**
 * The did-you-mean tail of a not-found message (C12.5).
 *
 * @param paths Display paths of close names, closest first (at most 3 are shown).
 * @returns `; did you mean "<p1>"?` and so on; `""` for none.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { didYouMean } from "./hints.ts";
 *
 * equal(didYouMean(["a.ts", "b.ts", "c.ts"]), '; did you mean "a.ts", "b.ts" or "c.ts"?');
 * ```
 */
export function didYouMean(paths: readonly string[]): string {
  const quoted = paths.slice(0, 3).map(quotePath);
  if (quoted.length === 0) return "";
  if (quoted.length === 1) return `; did you mean ${quoted[0]}?`;
  return `; did you mean ${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}?`;
}

/**
 * The message for a `read` of a directory (C12.6).
 *
 * @param displayPath The display path.
 * @returns The message.
 */
export function readDirectoryMessage(displayPath: string): string {
  return `cannot read ${quotePath(displayPath)}: not a regular file; it is a directory, use list`;
}

/** The `old_string` validation message with its hint (C12.12, extending C4.4's). */
export const EMPTY_OLD_STRING =
  "old_string must be a non-empty string; to create a file use write, and to insert text include a neighbouring line in old_string and new_string";

/** The reason of C12.7, after `cannot write "<path>": `. */
export const WRITE_UNREAD_REASON = "the file already exists; read it first";

/**
 * A successful edit's text with the lines around the first replacement (C12.8).
 *
 * @param success The plain success text (C4.4).
 * @param lines The new file's lines around the first replacement, rendered as `read` renders them.
 * @param more How many other replacements there were.
 * @returns The text.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { renderEditSnippet } from "./hints.ts";
 *
 * equal(
 *   renderEditSnippet("Done.", [{ number: 7, text: "x = 2" }], 1),
 *   "Done.\n\n7: x = 2\n(1 more replacement not shown)",
 * );
 * ```
 */
export function renderEditSnippet(
  success: string,
  lines: readonly ReadLine[],
  more: number,
): string {
  if (lines.length === 0) return success;
  let text = `${success}\n\n${lines.map(formatLine).join("\n")}`;
  if (more > 0) {
    text += `\n(${more} more ${more === 1 ? "replacement" : "replacements"} not shown)`;
  }
  return text;
}

/**
 * The workspace section of the system prompt (C12.9): the session workspace and each root with
 * its access, so a model can use absolute paths. Byte-stable for given arguments.
 *
 * @param cwd The absolute session workspace.
 * @param roots The provider's roots.
 * @returns The section.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { workspaceSection } from "./hints.ts";
 *
 * equal(
 *   workspaceSection("/w", [{ path: "/w", writable: true }]),
 *   "The workspace is /w; relative paths resolve against it. Paths must lie inside these roots: /w (read-write).",
 * );
 * ```
 */
export function workspaceSection(
  cwd: string,
  roots: readonly { path: string; writable: boolean }[],
): string {
  const listed = roots.map((root) =>
    `${renderName(root.path)} (${root.writable ? "read-write" : "read-only"})`
  ).join(", ");
  return `The workspace is ${
    renderName(cwd)
  }; relative paths resolve against it. Paths must lie inside these roots: ${listed}.`;
}
