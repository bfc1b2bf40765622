// CONTRACT C4.3 (`write`) and C4.4 (`edit`) at the tools level: atomic replacement, temp files, line breaks.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../../mod.ts";
import { encoder, failed, ok, readText, tempFiles, writeText } from "../_helpers.ts";
import { sandbox } from "../_sandbox.ts";
import { BOM, concat } from "./_shared.ts";

const BOM_TEXT = "\uFEFF";

Deno.test("C4.3 write validates file_path and content", async () => {
  await using box = await sandbox("local");
  const { root, tools } = box;
  const cases: [Record<string, unknown>, string][] = [
    [{ content: "x" }, "file_path must be a non-empty string"],
    [{ file_path: "", content: 5 }, "file_path must be a non-empty string"],
    [{ file_path: "a.txt" }, "content must be a string"],
    [{ file_path: "a.txt", content: null }, "content must be a string"],
    [{ file_path: "a.txt", content: ["x"] }, "content must be a string"],
  ];
  for (const [args, message] of cases) {
    assert.deepEqual(failed(await tools.execute("write", args)), [
      `Error: ${message}`,
      "FS_INVALID_ARGUMENT",
    ]);
  }
  assert.deepEqual([...Deno.readDirSync(root)], []);
});

Deno.test("C4.3 write creates missing parents and says 'Created file' then 'Updated file'", async () => {
  await using box = await sandbox("local");
  const { root, tools } = box;
  const created = await tools.execute("write", { file_path: "a/b/c.txt", content: "one\n" });
  assert.equal(created.content, writeText("a/b/c.txt", true));
  assert.deepEqual(created.value, {
    path: join(root, "a/b/c.txt"),
    operation: "create",
    before: null,
    after: "one\n",
  });
  const updated = await tools.execute("write", { file_path: "a/b/c.txt", content: "two\n" });
  assert.equal(
    updated.content,
    "<path>a/b/c.txt</path>\n<type>file</type>\n<content>\nUpdated file\n</content>",
  );
  assert.deepEqual(updated.value, {
    path: join(root, "a/b/c.txt"),
    operation: "update",
    before: "one\n",
    after: "two\n",
  });
  assert.equal(await Deno.readTextFile(join(root, "a/b/c.txt")), "two\n");
  assert.deepEqual(await tempFiles(root), []);
});

Deno.test("C4.3 write keeps an existing file's permission bits", async () => {
  await using box = await sandbox("local", { "a.sh": "#!/bin/sh\n" });
  const { root } = box;
  const path = join(root, "a.sh");
  await Deno.chmod(path, 0o640);
  const tools = box.toolsWith({ policy: false });
  ok(await tools.execute("write", { file_path: "a.sh", content: "echo hi\n" }));
  assert.equal((await Deno.stat(path)).mode! & 0o7777, 0o640);
  await Deno.chmod(path, 0o755);
  ok(await tools.execute("edit", { file_path: "a.sh", old_string: "hi", new_string: "ho" }));
  assert.equal((await Deno.stat(path)).mode! & 0o7777, 0o755);
  assert.equal(await Deno.readTextFile(path), "echo ho\n");
});

Deno.test("C4.3 write records an observation at the new version", async () => {
  await using box = await sandbox("local");
  const { root, tools } = box;
  ok(await tools.execute("write", { file_path: "a.txt", content: "1" }));
  ok(await tools.execute("write", { file_path: "a.txt", content: "22" }));
  ok(await tools.execute("edit", { file_path: "a.txt", old_string: "22", new_string: "333" }));
  await Deno.writeTextFile(join(root, "a.txt"), "4444");
  assert.equal(
    (await tools.execute("write", { file_path: "a.txt", content: "5" })).error?.code,
    "FS_STALE",
  );
});

Deno.test("C4.3 write below a parent that is a file fails with FS_NOT_DIRECTORY", async () => {
  await using box = await sandbox("local", { "f.txt": "x" });
  const { root, tools } = box;
  assert.deepEqual(
    failed(await tools.execute("write", { file_path: "f.txt/a/b.txt", content: "y" })),
    [
      'Error: cannot write "f.txt/a/b.txt": a parent is not a directory',
      "FS_NOT_DIRECTORY",
    ],
  );
  assert.equal(await Deno.readTextFile(join(root, "f.txt")), "x");
});

Deno.test("C4.4 edit validates its arguments in order", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { tools } = box;
  const cases: [Record<string, unknown>, string][] = [
    [{ old_string: "", new_string: 1 }, "file_path must be a non-empty string"],
    [
      { file_path: "a.txt", old_string: "", new_string: 1 },
      "old_string must be a non-empty string; to create a file use write, and to insert text include a neighbouring line in old_string and new_string",
    ],
    [
      { file_path: "a.txt", new_string: "b" },
      "old_string must be a non-empty string; to create a file use write, and to insert text include a neighbouring line in old_string and new_string",
    ],
    [{ file_path: "a.txt", old_string: "a", new_string: 1 }, "new_string must be a string"],
    [{ file_path: "a.txt", old_string: "a" }, "new_string must be a string"],
    [
      { file_path: "a.txt", old_string: "a", new_string: "a", replace_all: "yes" },
      "replace_all must be a boolean when given",
    ],
    [
      { file_path: "a.txt", old_string: "a", new_string: "a" },
      "old_string and new_string must differ",
    ],
  ];
  for (const [args, message] of cases) {
    assert.deepEqual(failed(await tools.execute("edit", args)), [
      `Error: ${message}`,
      "FS_INVALID_ARGUMENT",
    ]);
  }
});

Deno.test("C4.4 edit is literal: no regular expressions, '$&', '$1', '$$' inserted as typed", async () => {
  await using box = await sandbox("local", { "a.txt": "price: a.c abc (x)\n" });
  const { root } = box;
  const tools = box.toolsWith({ policy: false });
  assert.equal(
    (await tools.execute("edit", {
      file_path: "a.txt",
      old_string: "a.c",
      new_string: "[$&|$1|$$|$'|$`]",
    })).content,
    "The file a.txt has been updated successfully.",
  );
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "price: [$&|$1|$$|$'|$`] abc (x)\n");
  ok(await tools.execute("edit", { file_path: "a.txt", old_string: "(x)", new_string: "$0" }));
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "price: [$&|$1|$$|$'|$`] abc $0\n");
  assert.equal(
    (await tools.execute("edit", { file_path: "a.txt", old_string: "a.*c", new_string: "x" }))
      .error?.code,
    "FS_NO_MATCH",
  );
});

Deno.test("C4.4 in a CRLF file an LF old_string matches and the replacement is written with CRLF", async () => {
  await using box = await sandbox("local", {
    "w.txt": "one\r\ntwo\r\nthree\r\n",
    "mixed.txt": "a\r\nb\nc\nd\n",
  });
  const { root, tools } = box;
  ok(await tools.execute("read", { file_path: "w.txt" }));
  const result = await tools.execute("edit", {
    file_path: "w.txt",
    old_string: "one\ntwo",
    new_string: "1\n2\n2.5",
  });
  assert.equal(result.content, "The file w.txt has been updated successfully.");
  assert.equal(await Deno.readTextFile(join(root, "w.txt")), "1\r\n2\r\n2.5\r\nthree\r\n");
  assert.deepEqual(result.value, {
    path: join(root, "w.txt"),
    before: "one\r\ntwo\r\nthree\r\n",
    after: "1\r\n2\r\n2.5\r\nthree\r\n",
  });
  // Where bare \n breaks are the majority, an LF old_string does not match a CRLF break.
  ok(await tools.execute("read", { file_path: "mixed.txt" }));
  assert.deepEqual(
    failed(
      await tools.execute("edit", {
        file_path: "mixed.txt",
        old_string: "a\nb",
        new_string: "x",
      }),
    ),
    [
      'Error: old_string was not found in "mixed.txt"; lines 1-2 match except for whitespace, so copy the indentation exactly',
      "FS_NO_MATCH",
    ],
  );
  ok(
    await tools.execute("edit", {
      file_path: "mixed.txt",
      old_string: "b\nc",
      new_string: "B\nC",
    }),
  );
  assert.equal(await Deno.readTextFile(join(root, "mixed.txt")), "a\r\nB\nC\nd\n");
});

Deno.test("C4.4 edit keeps a BOM and invalid UTF-8 outside the replacement byte for byte", async () => {
  const before = concat(
    BOM,
    "head ",
    new Uint8Array([0xff, 0xfe, 0xc3]),
    "\nmiddle\ntail ",
    new Uint8Array([0x80]),
  );
  await using box = await sandbox("local", { "odd.txt": before });
  const { root, tools } = box;
  ok(await tools.execute("read", { file_path: "odd.txt" }));
  const result = await tools.execute("edit", {
    file_path: "odd.txt",
    old_string: "middle",
    new_string: "MIDDLE",
  });
  assert.equal(result.content, "The file odd.txt has been updated successfully.");
  const expected = concat(
    BOM,
    "head ",
    new Uint8Array([0xff, 0xfe, 0xc3]),
    "\nMIDDLE\ntail ",
    new Uint8Array([0x80]),
  );
  assert.deepEqual(await Deno.readFile(join(root, "odd.txt")), expected);
  assert.deepEqual(result.value, {
    path: join(root, "odd.txt"),
    before: "head \uFFFD\uFFFD\uFFFD\nmiddle\ntail \uFFFD",
    after: "head \uFFFD\uFFFD\uFFFD\nMIDDLE\ntail \uFFFD",
  });
});

Deno.test("C4.4 edit reports no match, an ambiguous match, and replaces all with replace_all", async () => {
  await using box = await sandbox("local", { "a.txt": "x = 1\nx = 1\nx = 1\n" });
  const { root, tools } = box;
  ok(await tools.execute("read", { file_path: "a.txt" }));
  assert.deepEqual(
    failed(
      await tools.execute("edit", {
        file_path: "a.txt",
        old_string: "y = 1",
        new_string: "y = 2",
      }),
    ),
    [
      'Error: old_string was not found in "a.txt"; read the file again and copy old_string exactly',
      "FS_NO_MATCH",
    ],
  );
  assert.deepEqual(
    failed(
      await tools.execute("edit", {
        file_path: "a.txt",
        old_string: "x = 1",
        new_string: "x = 2",
      }),
    ),
    [
      'Error: old_string matches 3 times in "a.txt" (lines 1, 2, 3); add surrounding context to make it unique or set replace_all to true',
      "FS_AMBIGUOUS_MATCH",
    ],
  );
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "x = 1\nx = 1\nx = 1\n");
  const all = await tools.execute("edit", {
    file_path: "a.txt",
    old_string: "x = 1",
    new_string: "x = 2",
    replace_all: true,
  });
  assert.equal(
    all.content,
    "The file a.txt has been updated. All occurrences were successfully replaced.",
  );
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "x = 2\nx = 2\nx = 2\n");
  // replace_all with a single occurrence still uses the replace-all text (the notes' text).
  assert.equal(
    ok(
      await tools.execute("edit", {
        file_path: "a.txt",
        old_string: "x = 2\nx",
        new_string: "y",
        replace_all: true,
      }),
    ),
    "The file a.txt has been updated. All occurrences were successfully replaced.",
  );
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "y = 2\nx = 2\n");
});

Deno.test("C4.4 edit of a missing file, a directory, a binary file or below a file", async () => {
  await using box = await sandbox("local", {
    "d/": "",
    "bin": new Uint8Array([0x61, 0, 0x62]),
    "f.txt": "f",
  });
  const { root } = box;
  const tools = box.toolsWith({ policy: false });
  const edit = (file_path: string) =>
    tools.execute("edit", { file_path, old_string: "a", new_string: "b" });
  assert.deepEqual(failed(await edit("nope.txt")), [
    'Error: cannot edit "nope.txt": not found',
    "FS_NOT_FOUND",
  ]);
  assert.deepEqual(failed(await edit("d")), [
    'Error: cannot edit "d": not a regular file',
    "FS_NOT_REGULAR_FILE",
  ]);
  assert.deepEqual(failed(await edit("bin")), [
    'Error: cannot edit "bin": binary file',
    "FS_BINARY",
  ]);
  assert.deepEqual(failed(await edit("f.txt/x")), [
    'Error: cannot edit "f.txt/x": not found',
    "FS_NOT_FOUND",
  ]);
  assert.deepEqual(await Deno.readFile(join(root, "bin")), new Uint8Array([0x61, 0, 0x62]));
  assert.deepEqual(await tempFiles(root), []);
});

Deno.test("C4.4 edit records an observation at the new version", async () => {
  await using box = await sandbox("local", { "a.txt": "one two\n" });
  const { root, tools } = box;
  ok(await tools.execute("read", { file_path: "a.txt" }));
  ok(await tools.execute("edit", { file_path: "a.txt", old_string: "one", new_string: "1" }));
  ok(await tools.execute("edit", { file_path: "a.txt", old_string: "two", new_string: "2" }));
  ok(await tools.execute("write", { file_path: "a.txt", content: "3\n" }));
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "3\n");
});

Deno.test("C4.3 a reader sees the old or the new content, never a mix", async () => {
  const a = "A".repeat(1 << 20); // larger than one read chunk, so a torn read would show
  const b = "B".repeat(3 << 18) + "b".repeat(1 << 18);
  await using box = await sandbox("local", { "big.txt": a });
  const { root } = box;
  const path = join(root, "big.txt");
  const tools = box.toolsWith({ policy: false });
  let writing = true;
  let reads = 0;
  const reader = (async () => {
    while (writing) {
      const text = await Deno.readTextFile(path);
      assert.ok(text === a || text === b, `a reader saw ${text.length} mixed bytes`);
      reads++;
    }
  })();
  for (let i = 0; i < 12; i++) {
    ok(await tools.execute("write", { file_path: "big.txt", content: i % 2 ? a : b }));
  }
  writing = false;
  await reader;
  assert.ok(reads > 0);
  assert.equal(await Deno.readTextFile(path), a);
  assert.deepEqual(await tempFiles(root), []);
});

Deno.test("C4.3 no temporary file is left after a success, any failure, or an abort", async () => {
  const files = { "a.txt": "one\none\n", "bin": new Uint8Array([0, 1]), "ro/r.txt": "r\n" };
  await using box = await sandbox("local", files);
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [root, { path: join(root, "ro"), write: false }] });
  const tools = createFsTools({ fs });
  const loose = createFsTools({ fs, policy: false });
  const outcomes: string[] = [];
  const run = async (
    t: typeof tools,
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ) => {
    const result = await t.execute(name, args, { signal });
    outcomes.push(result.error?.code ?? "ok");
    assert.deepEqual(await tempFiles(root), [], `after ${name} ${JSON.stringify(args)}`);
  };
  await run(tools, "write", { file_path: "a.txt", content: "x" }); // not observed
  await run(tools, "read", { file_path: "a.txt" });
  await run(tools, "edit", { file_path: "a.txt", old_string: "one", new_string: "two" }); // ambiguous
  await run(tools, "edit", { file_path: "a.txt", old_string: "zzz", new_string: "two" }); // no match
  await run(tools, "edit", {
    file_path: "a.txt",
    old_string: "one",
    new_string: "two",
    replace_all: true,
  });
  await Deno.writeTextFile(join(root, "a.txt"), "external\n");
  await run(tools, "write", { file_path: "a.txt", content: "x" }); // stale
  await run(loose, "edit", { file_path: "bin", old_string: "a", new_string: "b" }); // binary
  await run(loose, "write", { file_path: "ro/r.txt", content: "x" }); // read-only
  await run(loose, "write", { file_path: "a.txt/x", content: "x" }); // parent is a file
  await run(loose, "write", { file_path: "a.txt", content: "x" }, AbortSignal.abort());
  await run(loose, "write", { file_path: "new/deep/b.txt", content: "b" });
  await run(loose, "edit", { file_path: "new/deep/b.txt", old_string: "b", new_string: "c" });
  assert.deepEqual(outcomes, [
    "FS_NOT_OBSERVED",
    "ok",
    "FS_AMBIGUOUS_MATCH",
    "FS_NO_MATCH",
    "ok",
    "FS_STALE",
    "FS_BINARY",
    "FS_READ_ONLY",
    "FS_NOT_DIRECTORY",
    "FS_ABORTED",
    "ok",
    "ok",
  ]);
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "external\n");
});

Deno.test("C4.3 write stores content as given: a BOM, an empty file, CRLF", async () => {
  await using box = await sandbox("local");
  const { root, tools } = box;
  const bom = await tools.execute("write", {
    file_path: "bom.txt",
    content: `${BOM_TEXT}hi\r\n`,
  });
  assert.deepEqual(bom.value, {
    path: join(root, "bom.txt"),
    operation: "create",
    before: null,
    after: "hi\r\n",
  });
  assert.deepEqual(
    await Deno.readFile(join(root, "bom.txt")),
    encoder.encode(`${BOM_TEXT}hi\r\n`),
  );
  assert.equal(
    ok(await tools.execute("write", { file_path: "empty.txt", content: "" })),
    writeText("empty.txt", true),
  );
  assert.equal((await Deno.stat(join(root, "empty.txt"))).size, 0);
  assert.equal(
    ok(await tools.execute("read", { file_path: "empty.txt" })),
    readText("empty.txt", [], "(End of file - total 0 lines)"),
  );
});

Deno.test("C4.4 CRLF files: replace_all, single-line matches and CRLF already in new_string", async () => {
  await using box = await sandbox("local", { "w.txt": "a = 1\r\nb = 1\r\na = 1\r\n" });
  const { root } = box;
  const tools = box.toolsWith({ policy: false });
  const file = () => Deno.readTextFile(join(root, "w.txt"));
  assert.deepEqual(
    failed(
      await tools.execute("edit", { file_path: "w.txt", old_string: "= 1\n", new_string: "x" }),
    ),
    [
      'Error: old_string matches 3 times in "w.txt" (lines 1, 2, 3); add surrounding context to make it unique or set replace_all to true',
      "FS_AMBIGUOUS_MATCH",
    ],
  );
  ok(
    await tools.execute("edit", {
      file_path: "w.txt",
      old_string: "a = 1\n",
      new_string: "a = 2\n\n",
      replace_all: true,
    }),
  );
  assert.equal(await file(), "a = 2\r\n\r\nb = 1\r\na = 2\r\n\r\n");
  ok(
    await tools.execute("edit", { file_path: "w.txt", old_string: "b = 1", new_string: "b = 2" }),
  );
  assert.equal(await file(), "a = 2\r\n\r\nb = 2\r\na = 2\r\n\r\n");
  ok(
    await tools.execute("edit", {
      file_path: "w.txt",
      old_string: "b = 2\r\n",
      new_string: "b = 3\r\nc\n",
    }),
  );
  assert.equal(await file(), "a = 2\r\n\r\nb = 3\r\nc\r\na = 2\r\n\r\n");
});

Deno.test("C4.4 occurrences are counted without overlap", async () => {
  await using box = await sandbox("local", { "a.txt": "aaaa" });
  const { root } = box;
  const tools = box.toolsWith({ policy: false });
  assert.equal(
    (await tools.execute("edit", { file_path: "a.txt", old_string: "aa", new_string: "b" }))
      .content,
    'Error: old_string matches 2 times in "a.txt" (line 1); add surrounding context to make it unique or set replace_all to true',
  );
  ok(
    await tools.execute("edit", {
      file_path: "a.txt",
      old_string: "aa",
      new_string: "b",
      replace_all: true,
    }),
  );
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "bb");
  ok(await tools.execute("edit", { file_path: "a.txt", old_string: "bb", new_string: "" }));
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "");
  assert.equal(
    (await tools.execute("edit", { file_path: "a.txt", old_string: "b", new_string: "c" }))
      .content,
    'Error: old_string was not found in "a.txt"; read the file again and copy old_string exactly',
  );
});
