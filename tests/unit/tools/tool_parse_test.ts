// Unit tests of each tool's `parse` (src/tools/<tool>.ts): the `{ parse, run }` shape of issue 11.
// `parse` alone validates, in the contract's order, with the contract's messages, and touches no
// file; the contract tests cover the same checks end to end through `execute`.

import assert from "node:assert/strict";
import { DEFAULT_CONFIG, resolveConfig } from "../../../src/config.ts";
import { FsError } from "../../../src/fs_error.ts";
import { editTool } from "../../../src/tools/edit.ts";
import { globTool } from "../../../src/tools/glob.ts";
import { grepTool } from "../../../src/tools/grep/mod.ts";
import { listTool } from "../../../src/tools/list.ts";
import { readTool } from "../../../src/tools/read.ts";
import { writeTool } from "../../../src/tools/write.ts";

/** The FsError `parse` throws, checked to be an `FS_INVALID_ARGUMENT` with a complete message. */
function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    assert.ok(error instanceof FsError, `not an FsError: ${error}`);
    assert.equal(error.code, "FS_INVALID_ARGUMENT");
    assert.equal(error.hasMessage, true);
    return error.message;
  }
  assert.fail("parse accepted the arguments");
}

Deno.test("C4.1: list parse gives the path, '.' when absent or null, and refuses an empty one", () => {
  assert.equal(listTool.parse({}, DEFAULT_CONFIG), ".");
  assert.equal(listTool.parse({ path: null }, DEFAULT_CONFIG), ".");
  assert.equal(listTool.parse({ path: "src" }, DEFAULT_CONFIG), "src");
  assert.equal(
    refusal(() => listTool.parse({ path: "" }, DEFAULT_CONFIG)),
    "path must be a non-empty string when given",
  );
});

Deno.test("C4.2: read parse defaults offset to 1 and limit to the configured readLimit", () => {
  const config = resolveConfig({ readLimit: 50 });
  assert.deepEqual(readTool.parse({ file_path: "a.txt" }, config), {
    filePath: "a.txt",
    offset: 1,
    limit: 50,
    windowGiven: false,
  });
  assert.deepEqual(readTool.parse({ file_path: "a.txt", offset: 3, limit: null }, config), {
    filePath: "a.txt",
    offset: 3,
    limit: 50,
    windowGiven: true,
  });
});

Deno.test("C4.2: read parse checks file_path, offset, then limit, with the contract's messages", () => {
  const config = resolveConfig({ readLimit: 50 });
  assert.equal(
    refusal(() => readTool.parse({ offset: 0, limit: 0 }, config)),
    "file_path must be a non-empty string",
  );
  assert.equal(
    refusal(() => readTool.parse({ file_path: "a", offset: 0, limit: 0 }, config)),
    "offset must be a positive integer",
  );
  assert.equal(
    refusal(() => readTool.parse({ file_path: "a", limit: 1.5 }, config)),
    "limit must be a positive integer",
  );
  assert.equal(
    refusal(() => readTool.parse({ file_path: "a", limit: 51 }, config)),
    "limit must be less than or equal to 50",
  );
});

Deno.test("C4.3: write parse takes any string content, the empty one included", () => {
  assert.deepEqual(writeTool.parse({ file_path: "a", content: "" }, DEFAULT_CONFIG), {
    filePath: "a",
    content: "",
  });
  assert.equal(
    refusal(() => writeTool.parse({ file_path: "a", content: 1 }, DEFAULT_CONFIG)),
    "content must be a string",
  );
});

Deno.test("C4.4: edit parse checks in the contract's order and defaults replace_all to false", () => {
  assert.deepEqual(
    editTool.parse({ file_path: "a", old_string: "x", new_string: "y" }, DEFAULT_CONFIG),
    { filePath: "a", oldString: "x", newString: "y", replaceAll: false },
  );
  const cases: [Record<string, unknown>, string][] = [
    [{ old_string: "", new_string: 1 }, "file_path must be a non-empty string"],
    [
      { file_path: "a", old_string: "", new_string: 1 },
      "old_string must be a non-empty string; to create a file use write, and to insert text include a neighbouring line in old_string and new_string",
    ],
    [{ file_path: "a", old_string: "x", new_string: 1 }, "new_string must be a string"],
    [
      { file_path: "a", old_string: "x", new_string: "x", replace_all: "yes" },
      "replace_all must be a boolean when given",
    ],
    [{ file_path: "a", old_string: "x", new_string: "x" }, "old_string and new_string must differ"],
  ];
  for (const [args, message] of cases) {
    assert.equal(refusal(() => editTool.parse(args, DEFAULT_CONFIG)), message);
  }
});

Deno.test("C10: glob parse checks pattern before path", () => {
  const { compiled, ...parsed } = globTool.parse(
    { pattern: "**/*.ts", path: null },
    DEFAULT_CONFIG,
  );
  assert.deepEqual(parsed, {
    pattern: "**/*.ts",
    path: undefined,
    sort: "path",
    offset: 1,
    limit: undefined,
  });
  assert.equal(compiled.match("a/b.ts"), true);
  assert.equal(
    refusal(() => globTool.parse({ pattern: "", path: "" }, DEFAULT_CONFIG)),
    "pattern must be a non-empty string",
  );
  assert.equal(
    refusal(() => globTool.parse({ pattern: "*", path: "" }, DEFAULT_CONFIG)),
    "path must be a non-empty string when given",
  );
});

Deno.test("C11: grep parse compiles the pattern and refuses context over 10", () => {
  const parsed = grepTool.parse({ pattern: "a+b", context: 2 }, DEFAULT_CONFIG);
  assert.equal(parsed.pattern, "a+b");
  assert.equal(parsed.outputMode, "content");
  assert.equal(parsed.context, 2);
  assert.equal(
    refusal(() => grepTool.parse({ pattern: "a", context: 11 }, DEFAULT_CONFIG)),
    "context must be an integer from 0 to 10",
  );
  assert.match(
    refusal(() => grepTool.parse({ pattern: "(" }, DEFAULT_CONFIG)),
    /^invalid pattern: /,
  );
});
