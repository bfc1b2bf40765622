/**
 * A unified diff of two texts (as `diff -u` and `git diff` print it), for a person who reviews
 * a change before it is made (the policy intents of write, edit, patch and delete). Pure.
 *
 * @module
 */

/** Options of {@linkcode unifiedDiff}. */
export interface UnifiedDiffOptions {
  /**
   * Unchanged lines shown around each change.
   * @default {3}
   */
  context?: number;
}

/** Edit scripts longer than this many insertions and deletions are shown as one replacement. */
const MAX_EDITS = 2000;

/** Line comparisons the search may make before it shows the middle as one replacement. */
const MAX_WORK = 10_000_000;

/**
 * The unified diff turning `before` into `after`: `--- a/<path>` and `+++ b/<path>` (or
 * `/dev/null` for a text that is `null`: a file created or deleted), then `@@ -l,n +l,n @@`
 * hunks; `\ No newline at end of file` after a last line without a line break. Equal texts give
 * `""`.
 *
 * @param path The path both headers name.
 * @param before The old text, or `null` when the file does not exist yet.
 * @param after The new text, or `null` when the file goes.
 * @param options The context lines.
 * @returns The diff, each line ending with `\n`.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { unifiedDiff } from "./unified_diff.ts";
 *
 * equal(
 *   unifiedDiff("a.txt", "one\ntwo\n", "one\n2\n"),
 *   "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n",
 * );
 * ```
 */
export function unifiedDiff(
  path: string,
  before: string | null,
  after: string | null,
  options: UnifiedDiffOptions = {},
): string {
  if (before === after) return "";
  const context = options.context ?? 3;
  const a = linesOf(before ?? "");
  const b = linesOf(after ?? "");
  // A last line without a break differs from the same line with one.
  const key = (l: Line) => l.broken ? `${l.text}\n` : l.text;
  const ops = editScript(a.map(key), b.map(key));
  const out = [
    before === null ? "--- /dev/null" : `--- a/${path}`,
    after === null ? "+++ /dev/null" : `+++ b/${path}`,
  ];
  for (const hunk of hunksOf(ops, context)) {
    out.push(`@@ -${range(hunk.aStart, hunk.aCount)} +${range(hunk.bStart, hunk.bCount)} @@`);
    for (const op of hunk.ops) {
      const line = op.kind === "+" ? b[op.b] : a[op.a];
      out.push(`${op.kind}${line.text}`);
      if (!line.broken) out.push("\\ No newline at end of file");
    }
  }
  return out.join("\n") + "\n";
}

/** A line without its break (`\r` kept), and whether a break followed it. */
interface Line {
  text: string;
  broken: boolean;
}

function linesOf(text: string): Line[] {
  if (text === "") return [];
  const parts = text.split("\n");
  const last = parts.pop()!;
  const lines = parts.map((text) => ({ text, broken: true }));
  if (last !== "") lines.push({ text: last, broken: false });
  return lines;
}

/** One step of an edit script: keep `a[a]`, delete `a[a]`, or insert `b[b]`. */
interface Op {
  kind: " " | "-" | "+";
  a: number;
  b: number;
}

/**
 * A shortest edit script (Myers' O(ND) algorithm) after the common head and tail are taken off;
 * beyond {@linkcode MAX_EDITS} edits, the middle is shown as deleted, then inserted.
 */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  const ops: Op[] = [];
  for (let i = 0; i < head; i++) ops.push({ kind: " ", a: i, b: i });
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  for (const op of middle) ops.push({ kind: op.kind, a: op.a + head, b: op.b + head });
  for (let i = tail; i > 0; i--) {
    ops.push({ kind: " ", a: a.length - i, b: b.length - i });
  }
  return ops;
}

function myers(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = n === 0 && m === 0;
  let work = 0;
  for (let d = 0; d <= max && !found; d++) {
    if (work > MAX_WORK) break;
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])
        ? v[offset + k + 1]
        : v[offset + k - 1] + 1;
      let y = x - k;
      const from = x;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      work += x - from + 1;
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  if (!found) return replaceAll(n, m);
  // Walk the trace back from (n, m).
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d];
    const k = x - y;
    const down = k === -d || (k !== d && vd[offset + k - 1] < vd[offset + k + 1]);
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push({ kind: " ", a: --x, b: --y });
    if (d === 0) break;
    if (down) ops.push({ kind: "+", a: x, b: --y });
    else ops.push({ kind: "-", a: --x, b: y });
  }
  return ops.reverse();
}

function replaceAll(n: number, m: number): Op[] {
  const ops: Op[] = [];
  for (let i = 0; i < n; i++) ops.push({ kind: "-", a: i, b: 0 });
  for (let j = 0; j < m; j++) ops.push({ kind: "+", a: n, b: j });
  return ops;
}

interface Hunk {
  aStart: number;
  aCount: number;
  bStart: number;
  bCount: number;
  ops: Op[];
}

/** Groups changes whose context overlaps into hunks. */
function hunksOf(ops: readonly Op[], context: number): Hunk[] {
  const changed = ops.flatMap((op, i) => op.kind === " " ? [] : [i]);
  const hunks: Hunk[] = [];
  let i = 0;
  while (i < changed.length) {
    const start = Math.max(0, changed[i] - context);
    let end = changed[i];
    while (i + 1 < changed.length && changed[i + 1] - end <= 2 * context) end = changed[++i];
    i++;
    const slice = ops.slice(start, Math.min(ops.length, end + context + 1));
    const aCount = slice.filter((op) => op.kind !== "+").length;
    const bCount = slice.filter((op) => op.kind !== "-").length;
    const first = slice[0];
    hunks.push({
      aStart: aCount === 0 ? first.a : first.a + 1,
      aCount,
      bStart: bCount === 0 ? first.b : first.b + 1,
      bCount,
      ops: slice,
    });
  }
  return hunks;
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}
