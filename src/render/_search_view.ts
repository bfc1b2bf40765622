// The layout shared by the search views (CONTRACT C9.8, C10, C11): the envelope, the byte
// budget, windows and the continue hint. Private to src/render.

import { renderView } from "./_view.ts";
import { utf8Length } from "../text/utf8.ts";

/** A list of paths as rendered: the view and how many paths it shows. */
export interface SearchView {
  /** The exact text. */
  text: string;
  /** How many items (paths, or matching lines in `content` mode) the view shows. */
  shown: number;
}

/** A window of a search's results: where it starts and the caps on it. */
export interface SearchWindow {
  /** The first item to show, 1-based (C10, C11 `offset`). */
  offset: number;
  /** Items shown at most (`globMaxFiles`, or `grepMaxMatches` in `content` mode). */
  max: number;
  /** `readMaxBytes`. */
  maxBytes: number;
}

/** The search view: `renderView` with the body's lines. */
export function envelope(
  displayPath: string,
  type: string,
  body: string[],
  footer: string,
): string {
  return renderView(displayPath, type, body.length ? body.join("\n") + "\n" : "", footer);
}

/** Lines under a byte budget: each counts its UTF-8 bytes plus one for its `\n` (C9.8). */
export class Budget {
  #left: number;
  constructor(maxBytes: number) {
    this.#left = maxBytes;
  }
  /** Takes the lines if all fit; else takes nothing. */
  take(...lines: string[]): boolean {
    let cost = 0;
    for (const line of lines) cost += utf8Length(line) + 1;
    if (cost > this.#left) return false;
    this.#left -= cost;
    return true;
  }
}

/** ` Use offset=<b+1> to continue.` while items remain after `b`, else nothing. */
export function continueAt(b: number, total: number): string {
  return b < total ? ` Use offset=${b + 1} to continue.` : "";
}

export function pathLines(lines: readonly string[], max: number, maxBytes: number): string[] {
  const budget = new Budget(maxBytes);
  const out: string[] = [];
  for (const line of lines) {
    if (out.length >= max || !budget.take(line)) break;
    out.push(line);
  }
  return out;
}
