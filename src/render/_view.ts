// The layout every tool view shares (CONTRACT C4.1, C4.2, C10, C11), and counted nouns. Private
// to src/render.

import { renderName } from "./names.ts";

/**
 * `<path>…</path>`, `<type>…</type>`, `<content>`, the body, a blank line, the footer,
 * `</content>`; the path quoted when unsafe (C3.9).
 *
 * @param displayPath The display path.
 * @param type `file`, `directory`, `glob` or `grep`.
 * @param body The body's lines, each ending with `\n` (empty for none).
 * @param footer The footer.
 */
export function renderView(
  displayPath: string,
  type: string,
  body: string,
  footer: string,
): string {
  return `<path>${
    renderName(displayPath)
  }</path>\n<type>${type}</type>\n<content>\n${body}\n${footer}\n</content>`;
}

/** `<n> <one>` or `<n> <many>`. */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
