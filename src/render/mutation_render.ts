/**
 * The `write` and `edit` success texts (CONTRACT C4.3, C4.4). Pure: no I/O.
 *
 * @module
 */

import { renderName } from "./names.ts";

/**
 * The five-line `write` result.
 *
 * @param displayPath The file's display path.
 * @param operation Whether the file was created or replaced.
 * @returns The model-facing text.
 */
export function renderWrite(displayPath: string, operation: "create" | "update"): string {
  return `<path>${renderName(displayPath)}</path>\n<type>file</type>\n<content>\n${
    operation === "create" ? "Created file" : "Updated file"
  }\n</content>`;
}

/**
 * The one-line `edit` result.
 *
 * @param displayPath The file's display path.
 * @param replaceAll Whether `replace_all` was set.
 * @param count How many occurrences were replaced (shown with `replace_all`, C4.4).
 * @returns The model-facing text.
 */
export function renderEdit(displayPath: string, replaceAll: boolean, count = 1): string {
  const shown = renderName(displayPath);
  return replaceAll
    ? `The file ${shown} has been updated. All ${count} occurrences were successfully replaced.`
    : `The file ${shown} has been updated successfully.`;
}
