// CONTRACT C9.6: a grep `content` view is a read observation of each file whose lines it
// renders, at the version searched; the other modes and glob record none. Both providers.

import assert from "node:assert/strict";
import { forEachProvider, outcome } from "../_sandbox.ts";

forEachProvider("C9.6 grep then edit with no read in between, in every rendered file", {
  "src/a.ts": "export function checkOld() {}\n",
  "src/b.ts": "import { checkOld } from './a.ts';\r\ncheckOld();\r\n",
  "src/c.ts": "\uFEFFconst x = checkOld;\n",
}, async (box) => {
  const grep = await box.run("grep", { pattern: "checkOld", path: "src" });
  assert.equal(grep.isError, false, grep.content);
  for (const file of ["src/a.ts", "src/b.ts", "src/c.ts"]) {
    const edit = await box.run("edit", {
      file_path: file,
      old_string: "checkOld",
      new_string: "checkNew",
      replace_all: true,
    });
    assert.equal(edit.isError, false, edit.content);
  }
  assert.equal(await box.read("src/b.ts"), "import { checkNew } from './a.ts';\r\ncheckNew();\r\n");
});

forEachProvider("C9.6 a file changed after the grep is stale", {
  "a.ts": "let needle = 1;\n",
}, async (box) => {
  await box.run("grep", { pattern: "needle" });
  await box.write("a.ts", "let needle = 2;\n");
  assert.deepEqual(
    outcome(box, await box.run("edit", { file_path: "a.ts", old_string: "2", new_string: "3" })),
    ['Error: cannot edit "a.ts": it changed since it was last read; read it again', "FS_STALE"],
  );
});

forEachProvider("C9.6 files_with_matches, count and glob record no observation", {
  "a.ts": "let needle = 1;\n",
}, async (box) => {
  await box.run("grep", { pattern: "needle", output_mode: "files_with_matches" });
  await box.run("grep", { pattern: "needle", output_mode: "count" });
  await box.run("glob", { pattern: "*.ts" });
  assert.deepEqual(
    outcome(box, await box.run("edit", { file_path: "a.ts", old_string: "1", new_string: "2" })),
    ['Error: cannot edit "a.ts": read it first', "FS_NOT_OBSERVED"],
  );
});

forEachProvider("C9.6 a file whose lines the capped view did not render records none", {
  "a.ts": "needle 1\nneedle 2\n",
  "b.ts": "needle 3\n",
}, async (box) => {
  const tools = box.toolsWith({ config: { grepMaxMatches: 2 } });
  await tools.execute("grep", { pattern: "needle" });
  const b = await tools.execute("edit", { file_path: "b.ts", old_string: "3", new_string: "4" });
  assert.equal(b.error?.code, "FS_NOT_OBSERVED");
  const a = await tools.execute("edit", { file_path: "a.ts", old_string: "1", new_string: "0" });
  assert.equal(a.isError, false, a.content);
});

forEachProvider("C9.6 an aborted search gives FS_ABORTED", { "a.ts": "needle\n" }, async (box) => {
  const result = await box.run("grep", { pattern: "needle" }, { signal: AbortSignal.abort() });
  assert.equal(result.error?.code, "FS_ABORTED");
});

forEachProvider("C9.6 a streamed file (readStreamMinSize) is observed too", {
  "big.txt": "first line\r\nsecond needle\nthird\n",
}, async (box) => {
  const tools = box.toolsWith({ config: { readStreamMinSize: 8 } });
  await tools.execute("grep", { pattern: "needle" });
  const edit = await tools.execute("edit", {
    file_path: "big.txt",
    old_string: "second",
    new_string: "2nd",
  });
  assert.equal(edit.isError, false, edit.content);
});
