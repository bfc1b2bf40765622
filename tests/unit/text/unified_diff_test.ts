// The unified diff a reviewing policy shows (issue 34.6): exact output for the common shapes,
// and, over random texts, a diff that turns the old text into the new one when applied.

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import fc from "fast-check";
import { unifiedDiff } from "../../../src/text/unified_diff.ts";

Deno.test("unifiedDiff: a changed line with context, a new file, a deleted file, equal texts", () => {
  assertEquals(
    unifiedDiff("a.txt", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n"),
    "--- a/a.txt\n+++ b/a.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
  );
  assertEquals(
    unifiedDiff("n.txt", null, "x\ny\n"),
    "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n",
  );
  assertEquals(
    unifiedDiff("d.txt", "x\n", null),
    "--- a/d.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n",
  );
  assertEquals(unifiedDiff("e.txt", "same\n", "same\n"), "");
});

Deno.test("unifiedDiff: a missing final line break is marked; an insertion names the line above", () => {
  assertEquals(
    unifiedDiff("a.txt", "a\nb", "a\nb\n"),
    "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
  );
  assertEquals(
    unifiedDiff("a.txt", "1\n2\n3\n4\n5\n", "1\n2\n3\n4\n5\nnew\n", { context: 0 }),
    "--- a/a.txt\n+++ b/a.txt\n@@ -5,0 +6 @@\n+new\n",
  );
});

/** Applies a unified diff to `before` (a test oracle: hunks in order, context checked). */
function apply(before: string, diff: string): string {
  if (diff === "") return before;
  const a = before === "" ? [] : before.split(/(?<=\n)/);
  const lines = diff.split("\n").slice(2, -1);
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    const head = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(lines[i]);
    if (head) {
      const start = Number(head[1]) - (head[2] === "0" ? 0 : 1);
      while (at < start) out.push(a[at++]);
      continue;
    }
    const next = lines[i + 1] === "\\ No newline at end of file";
    const text = lines[i].slice(1) + (next ? "" : "\n");
    if (next) i++;
    if (lines[i - (next ? 1 : 0)][0] === "+") out.push(text);
    else {
      if (a[at] !== text) throw new Error(`context mismatch at ${at}`);
      if (lines[i - (next ? 1 : 0)][0] === " ") out.push(text);
      at++;
    }
  }
  while (at < a.length) out.push(a[at++]);
  return out.join("");
}

Deno.test("unifiedDiff: applied to the old text, the diff gives the new text (property)", () => {
  const text = fc.array(fc.constantFrom("a", "b", "c", "d", ""), { maxLength: 30 }).chain((lines) =>
    fc.boolean().map((end) => lines.join("\n") + (end && lines.length ? "\n" : ""))
  );
  fc.assert(
    fc.property(text, text, fc.nat(4), (before, after, context) => {
      assertEquals(apply(before, unifiedDiff("f", before, after, { context })), after);
    }),
    { numRuns: 500 },
  );
});

Deno.test("unifiedDiff: past its budget the changed middle is one replacement, still exact", () => {
  const before = Array.from({ length: 6000 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const after = Array.from({ length: 6000 }, (_, i) => i % 2 ? `line ${i}` : `LINE ${i}`)
    .join("\n") + "\n";
  const diff = unifiedDiff("big.txt", before, after);
  assertEquals(apply(before, diff), after);
});
