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
 * @param count How many occurrences were replaced (named with `replace_all` and `detailed`).
 * @param detailed Config `detailedFooters` (C4.2a): the replace-all text gives the count (C4.4).
 * @returns The model-facing text: the design notes' texts unless `detailed`.
 */
export function renderEdit(
  displayPath: string,
  replaceAll: boolean,
  count = 1,
  detailed = false,
): string {
  const shown = renderName(displayPath);
  if (!replaceAll) return `The file ${shown} has been updated successfully.`;
  if (!detailed) {
    return `The file ${shown} has been updated. All occurrences were successfully replaced.`;
  }
  return count === 1
    ? `The file ${shown} has been updated. 1 occurrence was successfully replaced.`
    : `The file ${shown} has been updated. All ${count} occurrences were successfully replaced.`;
}
