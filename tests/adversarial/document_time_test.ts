// CONTRACT C17.2a: `readDocumentTimeMs` bounds a PDF read with the contract's message, and a window
// completed before the bound is kept. Kept out of the core suite (tests/contract/) because each
// read spends the bound's seconds of a core parsing pages (issue 33.6's CPU budget); the other
// C17.2a cases are in tests/contract/c17_document_bounds_test.ts.

import assert from "node:assert/strict";
import { heavyPagesPdf } from "../_pdf.ts";
import { outcome, sandbox } from "../_sandbox.ts";

/**
 * 4000 pages that each show the same 3000 lines: pdf.js parses them again for every page, so
 * reading the whole (a window's total) takes tens of seconds on any machine.
 */
const HEAVY = heavyPagesPdf(4000, 3000);

Deno.test("C17.2a readDocumentTimeMs: a read past it fails with the contract's message; a window it completes is kept", async () => {
  await using box = await sandbox("local", { "pages.pdf": HEAVY });
  // 1 ms: over before the worker has even opened the file.
  const short = box.toolsWith({ config: { readDocumentTimeMs: 1 } });
  assert.deepEqual(outcome(box, await short.execute("read", { file_path: "pages.pdf" })), [
    'Error: cannot read "pages.pdf": extracting its text took longer than 1 ms; read a smaller part with offset and limit',
    "FS_IO_ERROR",
  ]);
  // Page 1 makes the window; counting the 3,999 pages after it is what the bound ends: the window
  // comes back without the total (the plain footer even with detailedFooters: no byte cap was
  // reached), and a later read of the same file does not count again.
  const expected = [
    "1: --- page 1 ---",
    "2: w",
    "3: w",
    "4: w",
    "",
    "(Output capped. Showing lines 1-4. Use offset=5 to continue.)",
    "</content>",
  ];
  const tools = box.toolsWith({ config: { readDocumentTimeMs: 5000 } });
  const detailed = box.toolsWith({ config: { readDocumentTimeMs: 5000, detailedFooters: true } });
  for (const each of [tools, detailed, tools]) {
    const result = await each.execute("read", { file_path: "pages.pdf", limit: 4 });
    assert.equal(result.isError, false, result.content);
    assert.deepEqual(result.content.split("\n").slice(3), expected);
    assert.equal((result.value as { totalLines?: number }).totalLines, undefined);
  }
});
