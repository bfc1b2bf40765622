// CONTRACT C11 (pattern compiled, `invalid pattern: …`), C10/C9.3 (glob validation), C4.2's
// NUL-run rule as grep applies it, and C11's bounded memory: the limits of issue 19 (findings
// 4, 7 and 12), on both providers.

import { deepEqual, equal } from "node:assert/strict";
import type { GrepValue } from "../../mod.ts";
import { forEachProvider, outcome } from "../_sandbox.ts";

const grepValue = (result: { value?: unknown }) => result.value as GrepValue;

forEachProvider(
  "C11: a pattern over 2000 characters is refused before compiling",
  { "a.txt": "a\n" },
  async (box) => {
    const result = await box.run("grep", { pattern: "a".repeat(24000) });
    deepEqual(outcome(box, result), [
      "Error: invalid pattern: expression too long (24000 characters; at most 2000)",
      "FS_INVALID_ARGUMENT",
    ]);
  },
);

forEachProvider(
  "C11: a pattern compiling to over 2000 instructions is refused (RE2's budget)",
  { "a.txt": "a\n" },
  async (box) => {
    const result = await box.run("grep", { pattern: ".{1000}".repeat(10) });
    deepEqual(outcome(box, result), [
      "Error: invalid pattern: expression too large (10002 instructions compiled; at most 2000), so use fewer or smaller repeat counts",
      "FS_INVALID_ARGUMENT",
    ]);
    // One such repeat is within the budget.
    equal((await box.run("grep", { pattern: "x.{1000}" })).isError, false);
  },
);

forEachProvider(
  "C10: a glob pattern over 1024 characters is a validation error, not FS_IO_ERROR",
  { "a.txt": "a\n" },
  async (box) => {
    deepEqual(outcome(box, await box.run("glob", { pattern: "*".repeat(65536) })), [
      "Error: pattern must be at most 1024 characters",
      "FS_INVALID_ARGUMENT",
    ]);
    deepEqual(
      outcome(box, await box.run("grep", { pattern: "a", glob: "a".repeat(1025) })),
      ["Error: glob must be at most 1024 characters", "FS_INVALID_ARGUMENT"],
    );
  },
);

const MiB = 1 << 20;
const sparse = new Uint8Array(3 * MiB);
// Text past the first 8 KiB (so the head check passes), no newline, then a hole.
sparse.set(new TextEncoder().encode("header needle " + "y".repeat(16 * 1024)), 0);

forEachProvider(
  "C4.2/C11: grep treats a file with a 1 MiB run of NUL bytes as binary",
  { "holey.dat": sparse, "plain.txt": "needle\n" },
  async (box) => {
    const named = await box.run("grep", { pattern: "needle", path: "holey.dat" });
    deepEqual(outcome(box, named), [
      'Error: cannot grep "holey.dat": binary file',
      "FS_BINARY",
    ]);
    const all = await box.run("grep", { pattern: "needle", output_mode: "files_with_matches" });
    equal(grepValue(all).totalFiles, 1);
  },
);

forEachProvider(
  "C11: a line longer than 1 MiB is matched on its first 1 MiB and counted as one line",
  {
    "long.txt": "start " + "x".repeat(3 * MiB) + " late\nnext start\n",
  },
  async (box) => {
    const early = await box.run("grep", {
      pattern: "start",
      path: "long.txt",
      output_mode: "count",
    });
    equal(grepValue(early).totalMatches, 2, early.content);
    const late = await box.run("grep", { pattern: "late", path: "long.txt", output_mode: "count" });
    equal(grepValue(late).totalMatches, 0, late.content);
    const second = await box.run("grep", { pattern: "^next", path: "long.txt" });
    equal(grepValue(second).matches[0]?.line, 2, second.content);
  },
);
