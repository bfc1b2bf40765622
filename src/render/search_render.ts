/**
 * Every model-facing text of the search tools `glob` and `grep` (CONTRACT C9, C10, C11): views,
 * footers and validation messages. Pure: no I/O.
 *
 * @module
 */

import { renderName } from "./names.ts";
import { truncateLine } from "./read_render.ts";
import { plural } from "./_view.ts";
import {
  Budget,
  continueAt,
  envelope,
  pathLines,
  type SearchView,
  type SearchWindow,
} from "./_search_view.ts";

export type { SearchView, SearchWindow } from "./_search_view.ts";

/** Validation messages of C10 and C11 (`path`'s are `VALIDATION_MESSAGES`'), in the order they are checked. */
export const SEARCH_MESSAGES = {
  pattern: "pattern must be a non-empty string",
  globWhenGiven: "glob must be a non-empty string when given",
  ignoreCase: "ignore_case must be a boolean when given",
  offset: "offset must be a positive integer",
  sort: 'sort must be one of "path", "size", "modified"',
  patternList: "pattern must be a non-empty string or an array of 1 to 20 non-empty strings",
  globList: "glob must be a non-empty string or an array of 1 to 20 non-empty strings",
  patternIncludes: 'pattern needs at least one pattern without "!"',
} as const;

/**
 * The message for a pattern using a construct RE2 lacks (C12.12).
 *
 * @param construct The construct as written.
 * @returns The message.
 */
export function unsupportedPatternMessage(construct: string): string {
  return `invalid pattern: ${construct} is not supported (RE2 syntax: no look-around, no back-references, repeat counts up to 1000)`;
}

/**
 * The message for a pattern over RE2's repetition budget though each of its counts is within it
 * (C11): the counts nest, and their product is what the limit bounds.
 *
 * @param total The product of the nested counts.
 * @returns The message.
 */
export function repeatBudgetMessage(total: number): string {
  return `invalid pattern: its nested repeat counts multiply to ${total}, over RE2's limit of 1000 (nesting included); use smaller counts or a shorter pattern`;
}

/**
 * The message for an `output_mode` that is not one of the modes (C11).
 *
 * @param modes The modes, from grep's spec.
 * @returns `output_mode must be one of "content", …`.
 */
export function grepOutputModeMessage(modes: readonly string[]): string {
  return `output_mode must be one of ${modes.map((m) => JSON.stringify(m)).join(", ")}`;
}

/**
 * The message for a `context` out of range (C11).
 *
 * @param max The most context lines, from grep's spec.
 * @returns `context must be an integer from 0 to <max>`.
 */
export function grepContextMessage(max: number): string {
  return `context must be an integer from 0 to ${max}`;
}

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
 * A `grep` pattern refused for its cost (issue 19): too many characters, or a compiled program
 * over the budget (as RE2 refuses a program over its memory budget).
 *
 * @param kind `length` (characters) or `program` (compiled instructions).
 * @param size The pattern's size in that unit.
 * @param max The limit.
 * @returns `invalid pattern: expression too long (<n> characters; at most <max>)` or
 *   `invalid pattern: expression too large (<n> instructions compiled; at most <max>), so use fewer or smaller repeat counts`.
 */
export function patternTooLargeMessage(
  kind: "length" | "program",
  size: number,
  max: number,
): string {
  return kind === "length"
    ? `invalid pattern: expression too long (${size} characters; at most ${max})`
    : `invalid pattern: expression too large (${size} instructions compiled; at most ${max}), so use fewer or smaller repeat counts`;
}

/**
 * A glob argument over the length a glob may have (issue 19).
 *
 * @param name `pattern` (the `glob` tool) or `glob` (`grep`'s filter).
 * @param max The limit in characters.
 * @returns `<name> must be at most <max> characters`.
 */
export function globTooLongMessage(name: "pattern" | "glob", max: number): string {
  return `${name} must be at most ${max} characters`;
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

/** Totals of a complete search. */
export interface GrepCounts extends GrepTotals {
  /** Files searched (C11 `<s>`). */
  searched: number;
  /** Files given up for time (issue 19): their display paths, and the bound (`grepFileTimeMs`). */
  skipped?: { paths: readonly string[]; ms: number };
}

/** Paths a skipped-files note names at most. */
const SKIPPED_NAMED = 10;

/**
 * The note after a `grep` footer for files whose search took longer than `grepFileTimeMs`
 * (issue 19), on a line of its own; nothing when none was.
 *
 * @param counts The complete search's counts.
 * @returns `\n(Skipped <k> files whose search took longer than <ms> ms: <path>, …)`, the paths
 *   past the tenth as ` and <n> more`; or `""`.
 */
export function grepSkippedNote(counts: GrepCounts): string {
  const skipped = counts.skipped;
  if (!skipped || skipped.paths.length === 0) return "";
  const { paths, ms } = skipped;
  const named = paths.slice(0, SKIPPED_NAMED).map((path) => renderName(path)).join(", ");
  const more = paths.length > SKIPPED_NAMED ? ` and ${paths.length - SKIPPED_NAMED} more` : "";
  return `\n(Skipped ${
    plural(paths.length, "file", "files")
  } whose search took longer than ${ms} ms: ${named}${more})`;
}

/**
 * The detail of the `FS_IO_ERROR` for a file named as `grep`'s `path` whose search took longer
 * than `grepFileTimeMs` (issue 19).
 *
 * @param ms The bound.
 * @returns The detail, after `cannot grep "<path>": `.
 */
export function grepTimeDetail(ms: number): string {
  return `its search took longer than ${ms} ms; try a simpler pattern, or read the file in parts`;
}

/** `<s> files searched` (C11). */
function searchedText(searched: number): string {
  return `${plural(searched, "file", "files")} searched`;
}

/** `<n> matching lines in <m> files; <s> files searched` (C11). */
function lineCounts(counts: GrepCounts): string {
  return `${plural(counts.matches, "matching line", "matching lines")} in ${
    plural(counts.files, "file", "files")
  }; ${searchedText(counts.searched)}`;
}

/** `<m> files match <pattern>; <s> files searched` (C11). */
function fileCounts(counts: GrepCounts, pattern: string): string {
  return `${plural(counts.files, "file matches", "files match")} ${pattern}; ${
    searchedText(counts.searched)
  }`;
}

/** The footer of a search without a match (C11). */
function noMatches(pattern: string, searched: number): string {
  const p = JSON.stringify(pattern);
  return searched === 0
    ? `(No matches for ${p}; no files were searched, so check path and glob)`
    : `(No matches for ${p}; ${searchedText(searched)})`;
}

/**
 * The message for an offset past the last matching line (`content`, `count`) or file
 * (`files_with_matches`) of a `grep` (C11).
 *
 * @param offset The offset given.
 * @param pattern The pattern.
 * @param counts The complete search's counts.
 * @param mode The output mode.
 * @returns The message.
 */
export function grepOffsetMessage(
  offset: number,
  pattern: string,
  counts: GrepCounts,
  mode: "content" | "files_with_matches" | "count",
): string {
  const what = mode === "files_with_matches"
    ? fileCounts(counts, JSON.stringify(pattern))
    : lineCounts(counts);
  return `offset ${offset} is out of range (${what})`;
}

/**
 * Renders `grep` in the `content` mode (C11): the matching lines from `window.offset` on.
 *
 * @param displayPath The search path's display path.
 * @param pattern The pattern.
 * @param files The files with kept lines, in path order.
 * @param counts The complete search's counts.
 * @param window The offset, `grepMaxMatches` and `readMaxBytes`.
 * @param options `readMaxLineLength` and `context` (`--` separates non-adjacent groups only
 *   when it is above 0).
 * @returns The view.
 */
export function renderGrepContent(
  displayPath: string,
  pattern: string,
  files: readonly GrepFileView[],
  counts: GrepCounts,
  window: SearchWindow,
  options: { maxLineLength: number; context: number },
): GrepContentView {
  if (counts.matches === 0) {
    const footer = noMatches(pattern, counts.searched) + grepSkippedNote(counts);
    return { text: envelope(displayPath, "grep", [], footer), shown: 0, rendered: [] };
  }
  const budget = new Budget(window.maxBytes);
  const body: string[] = [];
  const rendered: GrepContentView["rendered"] = [];
  let skip = window.offset - 1; // matching lines before the window
  let shown = 0;
  files: for (let f = 0; f < files.length; f++) {
    const file = files[f];
    let lines = file.lines;
    if (skip > 0) {
      const inFile = lines.filter((l) => l.match).length;
      if (inFile <= skip) {
        skip -= inFile;
        continue;
      }
      lines = fromMatch(lines, skip, options.context);
      skip = 0;
    }
    let started = false;
    let previous = 0;
    for (const line of lines) {
      if (line.match && shown >= window.max) break files;
      const text = `${line.number}${line.match ? ":" : "-"} ${
        truncateLine(line.text, options.maxLineLength)
      }`;
      const lead: string[] = [];
      if (!started) {
        if (body.length) lead.push("");
        lead.push(renderName(file.path));
      } else if (options.context > 0 && line.number > previous + 1) lead.push("--");
      if (!budget.take(...lead, text)) break files;
      body.push(...lead, text);
      started = true;
      previous = line.number;
      if (line.match) {
        shown++;
        rendered.push({ file: f, number: line.number, text: line.text });
      }
    }
  }
  const a = window.offset;
  const b = a + shown - 1;
  const footer = a === 1 && shown === counts.matches
    ? `(${lineCounts(counts)})`
    : `(Showing matching lines ${a}-${b} of ${counts.matches} in ${
      plural(counts.files, "file", "files")
    }; ${searchedText(counts.searched)}.${continueAt(b, counts.matches)})`;
  const text = envelope(displayPath, "grep", body, footer + grepSkippedNote(counts));
  return { text, shown, rendered };
}

/**
 * A file's kept lines from its `(skip + 1)`th matching line on, with the context lines before it
 * that follow the last skipped matching line.
 */
function fromMatch(
  lines: GrepFileView["lines"],
  skip: number,
  context: number,
): GrepFileView["lines"] {
  let seen = 0;
  let lastSkipped = -1;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].match) continue;
    if (seen++ < skip) {
      lastSkipped = i;
      continue;
    }
    const first = lines[i].number;
    let from = i;
    while (
      from - 1 > lastSkipped && !lines[from - 1].match &&
      lines[from - 1].number >= first - context
    ) from--;
    return lines.slice(from);
  }
  return [];
}

/**
 * Renders `grep` in the `files_with_matches` or `count` mode (C11): the files from
 * `window.offset` on.
 *
 * @param displayPath The search path's display path.
 * @param pattern The pattern.
 * @param files Every file with a match: display path and matching lines, in path order.
 * @param counts The complete search's counts.
 * @param mode The mode.
 * @param window The offset, `globMaxFiles` and `readMaxBytes`.
 * @returns The view.
 */
export function renderGrepFiles(
  displayPath: string,
  pattern: string,
  files: readonly { path: string; matches: number }[],
  counts: GrepCounts,
  mode: "files_with_matches" | "count",
  window: SearchWindow,
): SearchView {
  if (counts.matches === 0) {
    const footer = noMatches(pattern, counts.searched) + grepSkippedNote(counts);
    return { text: envelope(displayPath, "grep", [], footer), shown: 0 };
  }
  const lines = files.slice(window.offset - 1).map((f) =>
    mode === "count" ? `${renderName(f.path)}: ${f.matches}` : renderName(f.path)
  );
  const body = pathLines(lines, window.max, window.maxBytes);
  const p = JSON.stringify(pattern);
  const a = window.offset;
  const b = a + body.length - 1;
  let footer: string;
  if (a === 1 && body.length === files.length) {
    footer = mode === "count" ? `(${lineCounts(counts)})` : `(${fileCounts(counts, p)})`;
  } else {
    footer = `(Showing files ${a}-${b} of ${counts.files} matching ${p}; ${
      searchedText(counts.searched)
    }.${continueAt(b, counts.files)})`;
  }
  const text = envelope(displayPath, "grep", body, footer + grepSkippedNote(counts));
  return { text, shown: body.length };
}
