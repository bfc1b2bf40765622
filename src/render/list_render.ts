/**
 * The `list` view (CONTRACT C4.1): order, cap and footer. Pure: no I/O.
 *
 * @module
 */

import type { FsDirEntry, FsEntryType, ListTotals } from "../types.ts";
import { renderName } from "./names.ts";
import { plural, renderView } from "./_view.ts";

/** What `renderList` returns. */
export interface ListView {
  /** The model-facing text. */
  text: string;
  /** The rendered entries, in order. */
  entries: FsDirEntry[];
  /** Counts of the complete directory. */
  total: ListTotals;
}

const MARKERS: Record<FsEntryType, string> = { directory: "/", file: "", other: "@" };

const GROUP: Record<FsEntryType, number> = { directory: 0, file: 1, other: 2 };

/**
 * Compares two entries in `list` order: directories, files, others; then by lower-cased name;
 * ties by plain code-unit order.
 *
 * @param a One entry.
 * @param b The other.
 * @returns Negative, zero or positive, as `Array.prototype.sort` expects.
 */
export function compareEntries(a: FsDirEntry, b: FsDirEntry): number {
  const group = GROUP[a.type] - GROUP[b.type];
  if (group !== 0) return group;
  return compareNames(a.name, b.name);
}

function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Sorts entries in `list` order and keeps the first `max`. Only the kept ones are fully sorted,
 * so a 100k-entry directory with a 200-entry cap does not pay for a full sort.
 *
 * @param entries The directory's entries (not modified).
 * @param max How many to keep.
 * @returns The first `max` entries in order.
 */
export function selectEntries(entries: readonly FsDirEntry[], max: number): FsDirEntry[] {
  if (entries.length <= max * 4) return [...entries].sort(compareEntries).slice(0, max);
  // Bounded selection: keep a sorted window of the best `max`, pre-filtered by the current worst
  // (its group, then its lower-cased name, computed once per trim rather than per comparison).
  const keep: FsDirEntry[] = [];
  let worst: FsDirEntry | undefined;
  let worstGroup = 0;
  let worstLower = "";
  for (const entry of entries) {
    if (worst) {
      const group = GROUP[entry.type];
      if (group > worstGroup) continue;
      if (group === worstGroup) {
        const lower = entry.name.toLowerCase();
        if (lower > worstLower) continue;
        if (lower === worstLower && compareEntries(entry, worst) >= 0) continue;
      }
    }
    keep.push(entry);
    if (keep.length >= max * 2) {
      keep.sort(compareEntries);
      keep.length = max;
      worst = keep[max - 1];
      worstGroup = GROUP[worst.type];
      worstLower = worst.name.toLowerCase();
    }
  }
  return keep.sort(compareEntries).slice(0, max);
}

/**
 * Counts a directory's entries by type.
 *
 * @param entries All entries.
 * @returns The counts.
 */
export function countEntries(entries: readonly FsDirEntry[]): ListTotals {
  const total: ListTotals = { entries: entries.length, directories: 0, files: 0, other: 0 };
  for (const entry of entries) {
    if (entry.type === "directory") total.directories++;
    else if (entry.type === "file") total.files++;
    else total.other++;
  }
  return total;
}

/**
 * The footer of a listing.
 *
 * @param total Counts of the complete directory.
 * @param shown How many entries were rendered.
 * @returns The footer line.
 */
export function listFooter(total: ListTotals, shown: number): string {
  if (total.entries === 0) return "(Empty directory)";
  const kinds = `${plural(total.directories, "directory", "directories")}, ${
    plural(total.files, "file", "files")
  }${total.other > 0 ? `, ${total.other} other` : ""}`;
  if (shown < total.entries) {
    return `(Showing ${shown} of ${total.entries} entries: ${kinds}. Entries are directories first, then files, each alphabetical; list a subdirectory to see the rest.)`;
  }
  return `(${plural(total.entries, "entry", "entries")}: ${kinds})`;
}

/**
 * Renders a directory listing.
 *
 * @param displayPath The directory's display path (C3.4).
 * @param entries The directory's complete entries, in any order.
 * @param max `listMaxEntries`.
 * @returns The text, the rendered entries and the counts.
 *
 * @example
 * ```ts
 * import { renderList } from "./list_render.ts";
 * import assert from "node:assert/strict";
 *
 * const view = renderList(".", [{ name: "b.txt", type: "file" }, { name: "src", type: "directory" }], 200);
 * assert.equal(
 *   view.text,
 *   "<path>.</path>\n<type>directory</type>\n<content>\nsrc/\nb.txt\n\n(2 entries: 1 directory, 1 file)\n</content>",
 * );
 * ```
 */
export function renderList(
  displayPath: string,
  entries: readonly FsDirEntry[],
  max: number,
): ListView {
  const shown = selectEntries(entries, max);
  const total = countEntries(entries);
  let body = "";
  for (const entry of shown) {
    body += renderName(entry.name, MARKERS[entry.type]) + "\n";
  }
  const text = renderView(displayPath, "directory", body, listFooter(total, shown.length));
  return { text, entries: shown, total };
}
