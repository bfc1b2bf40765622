// Issue 19, finding 4 ("bound time per file"), beyond CONTRACT C11 (which has no text for it):
// a file whose search takes longer than `grepFileTimeMs` is given up; a directory search names
// it after the footer (`grepSkippedNote`, src/render/search_render.ts), a file named as `path`
// is an `FS_IO_ERROR` (`grepTimeDetail`). On both providers.

import { deepEqual, equal } from "node:assert/strict";
import type { GrepValue } from "../../mod.ts";
import { grepSkippedNote } from "../../src/render/search_render.ts";
import { forEachProvider, outcome } from "../_sandbox.ts";

// No literal: every block of lines goes through the engine, far longer than 1 ms for 4 MiB.
const PATTERN = "[a-c][0-9]";
const slow = "xyz 1234 qrs tuv\n".repeat(256 * 1024);
const files = { "a.txt": "b7\n", "big.log": slow, "sub/c.txt": "plain\n" };
const config = { grepFileTimeMs: 1 };

forEachProvider(
  "issue 19: a directory search skips a file over grepFileTimeMs and names it after the footer",
  files,
  async (box) => {
    const tools = box.toolsWith({ config });
    const result = await tools.execute("grep", { pattern: PATTERN });
    deepEqual(outcome(box, result), [
      "<path>.</path>\n<type>grep</type>\n<content>\na.txt\n1: b7\n\n" +
      "(1 matching line in 1 file; 2 files searched)\n" +
      "(Skipped 1 file whose search took longer than 1 ms: big.log)\n</content>",
      undefined,
    ]);
    equal((result.value as GrepValue).totalFiles, 1);
    const counted = await tools.execute("grep", { pattern: PATTERN, output_mode: "count" });
    equal(
      counted.content.split("\n").slice(-3).join("\n"),
      "(1 matching line in 1 file; 2 files searched)\n" +
        "(Skipped 1 file whose search took longer than 1 ms: big.log)\n</content>",
    );
    const none = await tools.execute("grep", {
      pattern: "q[0-9]",
      output_mode: "files_with_matches",
    });
    equal(
      none.content.split("\n").slice(-3).join("\n"),
      '(No matches for "q[0-9]"; 2 files searched)\n' +
        "(Skipped 1 file whose search took longer than 1 ms: big.log)\n</content>",
    );
    // Within the default bound the file is searched as any other (no note).
    const whole = await box.run("grep", { pattern: PATTERN, output_mode: "count" });
    equal(whole.content.includes("Skipped"), false, whole.content);
    equal(whole.content.includes("(1 matching line in 1 file; 3 files searched)"), true);
  },
);

forEachProvider(
  "issue 19: a file named as path and over grepFileTimeMs is an FS_IO_ERROR",
  files,
  async (box) => {
    const tools = box.toolsWith({ config });
    const result = await tools.execute("grep", { pattern: PATTERN, path: "big.log" });
    deepEqual(outcome(box, result), [
      'Error: cannot grep "big.log": its search took longer than 1 ms; try a simpler pattern, or read the file in parts',
      "FS_IO_ERROR",
    ]);
    // A file of one piece is never given up, however short the bound.
    const small = await tools.execute("grep", { pattern: PATTERN, path: "a.txt" });
    equal(small.isError, false, small.content);
  },
);

Deno.test("issue 19: the skipped note names at most 10 files, quoting unsafe names", () => {
  const paths = Array.from({ length: 12 }, (_, i) => `f${i}.log`);
  equal(
    grepSkippedNote({ matches: 0, files: 0, searched: 3, skipped: { paths, ms: 10000 } }),
    "\n(Skipped 12 files whose search took longer than 10000 ms: f0.log, f1.log, f2.log, " +
      "f3.log, f4.log, f5.log, f6.log, f7.log, f8.log, f9.log and 2 more)",
  );
  equal(grepSkippedNote({ matches: 0, files: 0, searched: 3 }), "");
  equal(
    grepSkippedNote({
      matches: 0,
      files: 0,
      searched: 0,
      skipped: { paths: ["a\nb.log"], ms: 5 },
    }),
    `\n(Skipped 1 file whose search took longer than 5 ms: "a\\nb.log")`,
  );
});
