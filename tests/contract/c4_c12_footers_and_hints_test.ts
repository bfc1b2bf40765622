// Issue 21 on both providers: C4.2a (`detailedFooters`) the byte-capped footer names the cap and
// the total; C4.4 the replace-all count with it; C12.10 a `/path` meant relative to the workspace; C12.11 suggestions across
// missing directories; C12.12 the empty old_string message.

import { deepEqual, equal } from "node:assert/strict";
import { expect, forEachProvider, outcome } from "../_sandbox.ts";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

forEachProvider("C4.2a: the detailed byte-capped footer names the cap and the total lines", {
  "a.txt": lines(30),
}, async (box) => {
  const capped = box.toolsWith({ config: { readMaxBytes: 40, detailedFooters: true } });
  const result = await capped.execute("read", { file_path: "a.txt", offset: 5 });
  equal(
    result.content.split("\n").at(-2),
    "(Output capped at 40 bytes. Showing lines 5-8 of 30. Use offset=9 to continue.)",
  );
  equal((result.value as { totalLines?: number }).totalLines, 30);
  // Streamed (readStreamMinSize 0): a small file is counted through, so the footer is the same.
  const streamed = box.toolsWith({
    config: { readMaxBytes: 40, readStreamMinSize: 0, detailedFooters: true },
  });
  equal(
    (await streamed.execute("read", { file_path: "a.txt", offset: 5 })).content,
    result.content,
  );
});

forEachProvider(
  "C4.2a: a large streamed file's detailed capped footer gains the total once a pass counted it",
  {},
  async (box) => {
    await box.write("big.txt", lines(200_000)); // about 2.3 MB, over the 1 MiB counted through
    const tools = box.toolsWith({
      config: { readMaxBytes: 30, readStreamMinSize: 0, detailedFooters: true },
    });
    const footer = async (offset: number) =>
      (await tools.execute("read", { file_path: "big.txt", offset })).content.split("\n").at(-2);
    equal(
      await footer(1),
      "(Output capped at 30 bytes. Showing lines 1-3. Use offset=4 to continue.)",
    );
    // A window at the end counts the file; the same tools then know the total.
    equal(await footer(200_000), "(End of file - total 200000 lines)");
    equal(
      await footer(1),
      "(Output capped at 30 bytes. Showing lines 1-3 of 200000. Use offset=4 to continue.)",
    );
  },
);

forEachProvider(
  "C4.4/C4.2a: replace_all with detailedFooters says how many occurrences it replaced",
  { "a.txt": "x x\nx\n", "b.txt": "q\n" },
  async (box) => {
    const tools = box.toolsWith({ config: { detailedFooters: true } });
    for (const file_path of ["a.txt", "b.txt"]) await tools.execute("read", { file_path });
    const edit = async (file_path: string, old_string: string) =>
      (await tools.execute("edit", { file_path, old_string, new_string: "y", replace_all: true }))
        .content;
    equal(
      await edit("a.txt", "x"),
      "The file a.txt has been updated. All 3 occurrences were successfully replaced.",
    );
    equal(await box.read("a.txt"), "y y\ny\n");
    equal(
      await edit("b.txt", "q"),
      "The file b.txt has been updated. 1 occurrence was successfully replaced.",
    );
  },
);

forEachProvider(
  "C12.12: an empty old_string says how to create or insert",
  { "a.txt": "a\n" },
  async (box) => {
    const message =
      "Error: old_string must be a non-empty string; to create a file use write, and to insert text include a neighbouring line in old_string and new_string";
    await expect(
      box,
      "edit",
      { file_path: "a.txt", old_string: "", new_string: "b" },
      message,
      "FS_INVALID_ARGUMENT",
    );
    await expect(
      box,
      "edit",
      { file_path: "new.txt", new_string: "b" },
      message,
      "FS_INVALID_ARGUMENT",
    );
  },
);

const HONO = {
  "src/middleware/basic-auth/index.ts": "export {}\n",
  "src/middleware/bearer-auth/index.ts": "export {}\n",
  "src/index.ts": "x\n",
};

forEachProvider(
  "C12.10: a /path outside the roots that exists relative to the cwd is suggested",
  HONO,
  async (box) => {
    await expect(
      box,
      "read",
      { file_path: "/src/index.ts" },
      'Error: cannot read "/src/index.ts": outside the permitted roots; did you mean "src/index.ts"?',
      "FS_OUTSIDE_ROOT",
    );
    await expect(
      box,
      "list",
      { path: "/src/middleware" },
      'Error: cannot list "/src/middleware": outside the permitted roots; did you mean "src/middleware"?',
      "FS_OUTSIDE_ROOT",
    );
    // Relative to a session cwd below the root.
    await expect(
      box,
      "read",
      { file_path: "/index.ts" },
      'Error: cannot read "/index.ts": outside the permitted roots',
      "FS_OUTSIDE_ROOT",
    );
    deepEqual(
      outcome(box, await box.run("read", { file_path: "/index.ts" }, { cwd: "src" })),
      [
        'Error: cannot read "/index.ts": outside the permitted roots; did you mean "index.ts"?',
        "FS_OUTSIDE_ROOT",
      ],
    );
  },
);

forEachProvider("C12.11: suggestions correct missing directories on the way", HONO, async (box) => {
  await expect(
    box,
    "read",
    { file_path: "src/middleware/basicauth/index.ts" },
    'Error: cannot read "src/middleware/basicauth/index.ts": not found; did you mean "src/middleware/basic-auth/index.ts"?',
    "FS_NOT_FOUND",
  );
  await expect(
    box,
    "read",
    { file_path: "sorc/middleware/bearer-auht/index.ts" },
    'Error: cannot read "sorc/middleware/bearer-auht/index.ts": not found; did you mean "src/middleware/bearer-auth/index.ts"?',
    "FS_NOT_FOUND",
  );
  await expect(
    box,
    "grep",
    { pattern: "x", path: "src/midleware/basic-auth" },
    'Error: cannot grep "src/midleware/basic-auth": not found; did you mean "src/middleware/basic-auth"?',
    "FS_NOT_FOUND",
  );
  // Only existing paths: the file name must exist (or be close) in the corrected directory.
  await expect(
    box,
    "read",
    { file_path: "src/middleware/basicauth/other.ts" },
    'Error: cannot read "src/middleware/basicauth/other.ts": not found',
    "FS_NOT_FOUND",
  );
});
