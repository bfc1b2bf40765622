/**
 * Every model-facing text of the search tools `glob` and `grep` (CONTRACT C9, C10, C11): views,
 * footers and validation messages. Pure: no I/O.
 *
 * @module
 */

import { renderName } from "./names.ts";
import { truncateLine } from "./read_render.ts";
import { plural, renderView } from "./_view.ts";
import { utf8Length } from "../text/utf8.ts";

/** Validation messages of C10 and C11 (`path`'s are `VALIDATION_MESSAGES`'), in the order they are checked. */
export const SEARCH_MESSAGES = {
  pattern: "pattern must be a non-empty string",
  globWhenGiven: "glob must be a non-empty string when given",
  ignoreCase: "ignore_case must be a boolean when given",
  outputMode: 'output_mode must be one of "content", "files_with_matches", "count"',
  context: "context must be an integer from 0 to 10",
} as const;

/**
 * The message for a pattern the engine refuses (C11).
 *
 * @param engineMessage The engine's message.
 * @returns `invalid pattern: <message>`.
 */
export function invalidPatternMessage(engineMessage: string): string {
  return `invalid pattern: ${engineMessage}`;
}

/**
 * The message for a glob longer than the matcher takes (C9.3; its cost is linear in name ×
 * pattern, so the pattern is bounded).
 *
 * @param name The argument: `pattern` (`glob`) or `glob` (`grep`).
 * @param max The longest glob taken.
 * @returns `<name> must be at most <max> characters`.
 */
export function globTooLongMessage(name: string, max: number): string {
  return `${name} must be at most ${max} characters`;
}

/** `(<n> files match <pattern>)`-style footers, shared by `glob` and `grep`'s files mode. */
function filesFooter(
  shown: number,
  total: number,
  pattern: string,
  narrow: string,
  none: string,
): string {
  const p = JSON.stringify(pattern);
  if (total === 0) return none;
  if (shown < total) {
    return `(Showing ${shown} of ${
      plural(total, "file", "files")
    } matching ${p}, in path order; narrow the ${narrow} to see the rest.)`;
  }
  return `(${plural(total, "file matches", "files match")} ${p})`;
}

function envelope(displayPath: string, type: string, body: string[], footer: string): string {
  return renderView(displayPath, type, body.length ? body.join("\n") + "\n" : "", footer);
}

/** Lines under a byte budget: each counts its UTF-8 bytes plus one for its `\n` (C9.8). */
class Budget {
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

/** A list of paths as rendered: the view and how many paths it shows. */
export interface SearchView {
  /** The exact text. */
  text: string;
  /** How many items (paths, or matching lines in `content` mode) the view shows. */
  shown: number;
}

/**
 * Renders a `glob` result (C10).
 *
 * @param displayPath The search directory's display path.
 * @param pattern The pattern.
 * @param paths Every matching file's display path, in path order.
 * @param maxFiles `globMaxFiles`.
 * @param maxBytes `readMaxBytes`.
 * @returns The view.
 */
export function renderGlob(
  displayPath: string,
  pattern: string,
  paths: readonly string[],
  maxFiles: number,
  maxBytes: number,
): SearchView {
  const body = pathLines(paths.map((p) => renderName(p)), maxFiles, maxBytes);
  const footer = filesFooter(
    body.length,
    paths.length,
    pattern,
    "pattern or path",
    `(No files match ${JSON.stringify(pattern)})`,
  );
  return { text: envelope(displayPath, "glob", body, footer), shown: body.length };
}

function pathLines(lines: readonly string[], max: number, maxBytes: number): string[] {
  const budget = new Budget(maxBytes);
  const out: string[] = [];
  for (const line of lines) {
    if (out.length >= max || !budget.take(line)) break;
    out.push(line);
  }
  return out;
}

/** One file's kept lines for the `content` mode. */
export interface GrepFileView {
  /** The file's display path. */
  path: string;
  /** Kept lines (matches and context), in order. */
  lines: readonly { number: number; text: string; match: boolean }[];
}

/** Totals of a complete search. */
export interface GrepTotals {
  /** Matching lines in every file. */
  matches: number;
  /** Files with a match. */
  files: number;
}

/** The `content` view: the text and the rendered matching lines, per file index. */
export interface GrepContentView extends SearchView {
  /** The rendered matching lines: index into the files given, line number and text. */
  rendered: { file: number; number: number; text: string }[];
}

function noMatches(pattern: string): string {
  return `(No matches for ${JSON.stringify(pattern)})`;
}

function matchesFooter(shown: number, totals: GrepTotals): string {
  const n = plural(totals.matches, "match", "matches");
  const m = plural(totals.files, "file", "files");
  if (shown < totals.matches) {
    return `(Showing ${shown} of ${n} in ${m}, in path order; narrow the pattern, path or glob to see the rest.)`;
  }
  return `(${n} in ${m})`;
}

/**
 * Renders `grep` in the `content` mode (C11).
 *
 * @param displayPath The search path's display path.
 * @param pattern The pattern.
 * @param files The files with kept lines, in path order.
 * @param totals The complete search's totals.
 * @param options `grepMaxMatches`, `readMaxBytes`, `readMaxLineLength` and `context` (`--`
 *   separates non-adjacent groups only when it is above 0).
 * @returns The view.
 */
export function renderGrepContent(
  displayPath: string,
  pattern: string,
  files: readonly GrepFileView[],
  totals: GrepTotals,
  options: { maxMatches: number; maxBytes: number; maxLineLength: number; context: number },
): GrepContentView {
  if (totals.matches === 0) {
    return { text: envelope(displayPath, "grep", [], noMatches(pattern)), shown: 0, rendered: [] };
  }
  const budget = new Budget(options.maxBytes);
  const body: string[] = [];
  const rendered: GrepContentView["rendered"] = [];
  let shown = 0;
  let full = false;
  files: for (let f = 0; f < files.length && !full; f++) {
    const file = files[f];
    let started = false;
    let previous = 0;
    for (const line of file.lines) {
      if (line.match && shown >= options.maxMatches) {
        full = true;
        break files;
      }
      const text = `${line.number}${line.match ? ":" : "-"} ${
        truncateLine(line.text, options.maxLineLength)
      }`;
      const lead: string[] = [];
      if (!started) {
        if (body.length) lead.push("");
        lead.push(renderName(file.path));
      } else if (options.context > 0 && line.number > previous + 1) lead.push("--");
      if (!budget.take(...lead, text)) {
        full = true;
        break files;
      }
      body.push(...lead, text);
      started = true;
      previous = line.number;
      if (line.match) {
        shown++;
        rendered.push({ file: f, number: line.number, text: line.text });
      }
    }
  }
  return {
    text: envelope(displayPath, "grep", body, matchesFooter(shown, totals)),
    shown,
    rendered,
  };
}

/**
 * Renders `grep` in the `files_with_matches` or `count` mode (C11).
 *
 * @param displayPath The search path's display path.
 * @param pattern The pattern.
 * @param files Every file with a match: display path and matching lines, in path order.
 * @param totals The complete search's totals.
 * @param options The mode, `globMaxFiles` and `readMaxBytes`.
 * @returns The view.
 */
export function renderGrepFiles(
  displayPath: string,
  pattern: string,
  files: readonly { path: string; matches: number }[],
  totals: GrepTotals,
  options: { mode: "files_with_matches" | "count"; maxFiles: number; maxBytes: number },
): SearchView {
  if (totals.matches === 0) {
    return { text: envelope(displayPath, "grep", [], noMatches(pattern)), shown: 0 };
  }
  const lines = files.map((f) =>
    options.mode === "count" ? `${renderName(f.path)}: ${f.matches}` : renderName(f.path)
  );
  const body = pathLines(lines, options.maxFiles, options.maxBytes);
  const narrow = "pattern, path or glob";
  const footer = options.mode === "count" && body.length === files.length
    ? matchesFooter(totals.matches, totals)
    : filesFooter(body.length, totals.files, pattern, narrow, noMatches(pattern));
  return { text: envelope(displayPath, "grep", body, footer), shown: body.length };
}
