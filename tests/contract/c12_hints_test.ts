// CONTRACT C12: strict arguments and hints that let a model recover in one step.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem, systemPrompt } from "../../mod.ts";
import { failed, ok } from "../_helpers.ts";
import { expect, forEachProvider, sandbox } from "../_sandbox.ts";

const INVALID = "FS_INVALID_ARGUMENT";

Deno.test("C12.1 an argument the schema lacks is refused with its arguments listed", async () => {
  await using box = await sandbox("local", { "a.txt": "one\ntwo\nthree\n" });
  const { tools } = box;
  assert.deepEqual(
    failed(await tools.execute("read", { file_path: "a.txt", start_line: 2, end_line: 3 })),
    [
      'Error: unknown argument "start_line" for read; its arguments are file_path, offset, limit',
      INVALID,
    ],
  );
  assert.deepEqual(failed(await tools.execute("list", { dir: "." })), [
    'Error: unknown argument "dir" for list; its arguments are path',
    INVALID,
  ]);
  assert.deepEqual(failed(await tools.execute("write", { path: "b.txt", content: "x" })), [
    'Error: unknown argument "path" for write; its arguments are file_path, content',
    INVALID,
  ]);
});

Deno.test("C12.1 a near-miss argument gets did-you-mean (case, _ and -, edit distance 2)", async () => {
  await using box = await sandbox("local", { "a.txt": "x\nx\n" });
  const { root, tools } = box;
  ok(await tools.execute("read", { file_path: "a.txt" }));
  const edit = { file_path: "a.txt", old_string: "x", new_string: "y" };
  assert.deepEqual(failed(await tools.execute("edit", { ...edit, replaceAll: true })), [
    'Error: unknown argument "replaceAll" for edit; did you mean "replace_all"?',
    INVALID,
  ]);
  assert.deepEqual(failed(await tools.execute("read", { filePath: "a.txt" })), [
    'Error: unknown argument "filePath" for read; did you mean "file_path"?',
    INVALID,
  ]);
  assert.deepEqual(failed(await tools.execute("read", { file_path: "a.txt", ofset: 2 })), [
    'Error: unknown argument "ofset" for read; did you mean "offset"?',
    INVALID,
  ]);
  assert.deepEqual(failed(await tools.execute("write", { file_path: "b", contents: "x" })), [
    'Error: unknown argument "contents" for write; did you mean "content"?',
    INVALID,
  ]);
  // Nothing was edited or written.
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "x\nx\n");
  await assert.rejects(Deno.stat(join(root, "b")), Deno.errors.NotFound);
});

Deno.test("C12.1 unknown keys are refused before any other validation, first in key order", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  // file_path is missing too, and offset is wrong: the unknown key is reported first.
  assert.deepEqual(failed(await tools.execute("read", { offset: "x", limt: 3, to: 4 })), [
    'Error: unknown argument "limt" for read; did you mean "limit"?',
    INVALID,
  ]);
  assert.deepEqual(failed(await tools.execute("read", { to: 4, lines: 3 })), [
    'Error: unknown argument "to" for read; its arguments are file_path, offset, limit',
    INVALID,
  ]);
  // A NUL byte in the path is checked after the arguments.
  assert.deepEqual(failed(await tools.execute("read", { file_path: "a\0", x: 1 })), [
    'Error: unknown argument "x" for read; its arguments are file_path, offset, limit',
    INVALID,
  ]);
});

Deno.test("C12.1 absent or null arguments are {}; any other non-object is refused", async () => {
  await using box = await sandbox("local", { "a.txt": "x" });
  const { tools } = box;
  assert.match(ok(await tools.execute("list", null)), /^<path>\.<\/path>/);
  assert.match(ok(await tools.execute("list", undefined)), /^<path>\.<\/path>/);
  assert.deepEqual(failed(await tools.execute("read", null)), [
    "Error: file_path must be a non-empty string",
    INVALID,
  ]);
  for (const args of [[], ["a.txt"], "a.txt", '{"file_path":"a.txt"}', 3, true]) {
    assert.deepEqual(failed(await tools.execute("read", args)), [
      "Error: arguments must be an object",
      INVALID,
    ], JSON.stringify(args));
  }
});

Deno.test("C12.2 an unknown tool lists the tools in canonical order", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  for (const name of ["find", "Read", "bash", ""]) {
    assert.deepEqual(failed(await tools.execute(name, {})), [
      `Error: unknown tool ${JSON.stringify(name)}; the tools are ${
        tools.definitions.map((d) => d.name).join(", ")
      }`,
      "FS_UNKNOWN_TOOL",
    ]);
  }
  assert.deepEqual(failed(await tools.execute("find", {})), [
    'Error: unknown tool "find"; the tools are list, read, write, edit, glob, grep',
    "FS_UNKNOWN_TOOL",
  ]);
  // C9.1: a tool left out of the configured subset is unknown too.
  const readOnly = box.toolsWith({ tools: ["list", "read"] });
  assert.deepEqual(failed(await readOnly.execute("grep", {})), [
    'Error: unknown tool "grep"; the tools are list, read',
    "FS_UNKNOWN_TOOL",
  ]);
});

const SOURCE = [
  "export function greet(name: string): string {",
  "  if (name === '') {",
  "    return 'hello';",
  "  }",
  "  return `hello ${name}`;",
  "}",
  "",
].join("\n");

Deno.test("C12.3 no match: line-number prefixes copied from read are named first", async () => {
  await using box = await sandbox("local", { "g.ts": SOURCE });
  const { root, tools } = box;
  ok(await tools.execute("read", { file_path: "g.ts" }));
  const prefixed = "2:   if (name === '') {\n3:     return 'hello';\n4:   }";
  assert.deepEqual(
    failed(
      await tools.execute("edit", { file_path: "g.ts", old_string: prefixed, new_string: "" }),
    ),
    [
      'Error: old_string was not found in "g.ts"; remove the line numbers that read puts before each line',
      "FS_NO_MATCH",
    ],
  );
  // Even one prefixed line, indented as read pads numbers, with blank lines between.
  assert.deepEqual(
    failed(
      await tools.execute("edit", {
        file_path: "g.ts",
        old_string: "  5:   return `hello ${name}`;\n\n",
        new_string: "x",
      }),
    ),
    [
      'Error: old_string was not found in "g.ts"; remove the line numbers that read puts before each line',
      "FS_NO_MATCH",
    ],
  );
  assert.equal(await Deno.readTextFile(join(root, "g.ts")), SOURCE);
});

Deno.test("C12.3 no match: a whitespace-only difference names the lines", async () => {
  await using box = await sandbox("local", { "g.ts": SOURCE });
  const { root, tools } = box;
  ok(await tools.execute("read", { file_path: "g.ts" }));
  const tabs = "\tif (name === '') {\n\t\treturn 'hello';\n\t}";
  assert.deepEqual(
    failed(await tools.execute("edit", { file_path: "g.ts", old_string: tabs, new_string: "" })),
    [
      'Error: old_string was not found in "g.ts"; lines 2-4 match except for whitespace, so copy the indentation exactly',
      "FS_NO_MATCH",
    ],
  );
  assert.deepEqual(
    failed(
      await tools.execute("edit", {
        file_path: "g.ts",
        old_string: "return  `hello ${name}`;",
        new_string: "return name;",
      }),
    ),
    [
      'Error: old_string was not found in "g.ts"; line 5 matches except for whitespace, so copy the indentation exactly',
      "FS_NO_MATCH",
    ],
  );
  assert.equal(await Deno.readTextFile(join(root, "g.ts")), SOURCE);
});

Deno.test("C12.3 no match: otherwise read the file again", async () => {
  await using box = await sandbox("local", { "g.ts": SOURCE });
  const { tools } = box;
  ok(await tools.execute("read", { file_path: "g.ts" }));
  for (const old_string of ["return 'goodbye';", "if (name==='') {", "12: nothing here"]) {
    const expected = old_string.startsWith("12:")
      ? 'Error: old_string was not found in "g.ts"; remove the line numbers that read puts before each line'
      : 'Error: old_string was not found in "g.ts"; read the file again and copy old_string exactly';
    assert.deepEqual(
      failed(await tools.execute("edit", { file_path: "g.ts", old_string, new_string: "x" })),
      [expected, "FS_NO_MATCH"],
    );
  }
});

Deno.test("C12.4 an ambiguous match lists the lines occurrences start on", async () => {
  const many = Array.from({ length: 12 }, (_, i) => `x = ${i};`).join("\n") + "\n";
  await using box = await sandbox("local", {
    "a.txt": "a b\nb\nc\nb\n",
    "one.txt": "b b b\n",
    "many.txt": many,
  });
  const { root, tools } = box;
  for (const f of ["a.txt", "one.txt", "many.txt"]) {
    ok(await tools.execute("read", { file_path: f }));
  }
  const edit = (file_path: string, old_string: string) =>
    tools.execute("edit", { file_path, old_string, new_string: "z" });
  assert.deepEqual(failed(await edit("a.txt", "b")), [
    'Error: old_string matches 3 times in "a.txt" (lines 1, 2, 4); add surrounding context to make it unique or set replace_all to true',
    "FS_AMBIGUOUS_MATCH",
  ]);
  assert.deepEqual(failed(await edit("one.txt", "b")), [
    'Error: old_string matches 3 times in "one.txt" (line 1); add surrounding context to make it unique or set replace_all to true',
    "FS_AMBIGUOUS_MATCH",
  ]);
  assert.deepEqual(failed(await edit("many.txt", "x = ")), [
    'Error: old_string matches 12 times in "many.txt" (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …); add surrounding context to make it unique or set replace_all to true',
    "FS_AMBIGUOUS_MATCH",
  ]);
  assert.equal(await Deno.readTextFile(join(root, "many.txt")), many);
});

Deno.test("C12.4 in a CRLF file the lines are those read shows", async () => {
  await using box = await sandbox("local", { "w.txt": "a\r\nb\r\na\r\n" });
  const { tools } = box;
  ok(await tools.execute("read", { file_path: "w.txt" }));
  assert.deepEqual(
    failed(
      await tools.execute("edit", { file_path: "w.txt", old_string: "a\n", new_string: "c\n" }),
    ),
    [
      'Error: old_string matches 2 times in "w.txt" (lines 1, 3); add surrounding context to make it unique or set replace_all to true',
      "FS_AMBIGUOUS_MATCH",
    ],
  );
});

Deno.test("C12.5 a missing target gets up to three close names in its parent", async () => {
  await using box = await sandbox("local", {
    "src/main.ts": "",
    "src/mian.rs": "",
    "src/util.ts": "",
    "README.md": "",
    "docs/": "",
    "a.ts": "",
    "b.ts": "",
    "c.ts": "",
    "d.ts": "",
  });
  const { root, tools } = box;
  assert.deepEqual(failed(await tools.execute("read", { file_path: "readme.md" })), [
    'Error: cannot read "readme.md": not found; did you mean "README.md"?',
    "FS_NOT_FOUND",
  ]);
  assert.deepEqual(failed(await tools.execute("read", { file_path: "src/mian.ts" })), [
    'Error: cannot read "src/mian.ts": not found; did you mean "src/mian.rs" or "src/main.ts"?',
    "FS_NOT_FOUND",
  ]);
  assert.deepEqual(failed(await tools.execute("read", { file_path: "e.ts" })), [
    'Error: cannot read "e.ts": not found; did you mean "a.ts", "b.ts" or "c.ts"?',
    "FS_NOT_FOUND",
  ]);
  assert.deepEqual(
    failed(
      await tools.execute("edit", {
        file_path: "src/utils.ts",
        old_string: "a",
        new_string: "b",
      }),
    ),
    ['Error: cannot edit "src/utils.ts": not found; did you mean "src/util.ts"?', "FS_NOT_FOUND"],
  );
  assert.deepEqual(failed(await tools.execute("list", { path: "dcos" })), [
    // Both are two edits away: ties in path order.
    'Error: cannot list "dcos": not found; did you mean "d.ts" or "docs"?',
    "FS_NOT_FOUND",
  ]);
  // An absolute path gets display paths; a session cwd makes them relative to it.
  assert.deepEqual(failed(await tools.execute("read", { file_path: join(root, "src/utl.ts") })), [
    `Error: cannot read "src/utl.ts": not found; did you mean "src/util.ts"?`,
    "FS_NOT_FOUND",
  ]);
  assert.deepEqual(
    failed(await tools.execute("read", { file_path: "Main.ts" }, { cwd: "src" })),
    ['Error: cannot read "Main.ts": not found; did you mean "main.ts"?', "FS_NOT_FOUND"],
  );
});

Deno.test("C12.5 no hint without an existing parent or a close name, and none for write", async () => {
  await using box = await sandbox("local", { "a.txt": "x", "f.txt": "x" });
  const { tools } = box;
  for (const file_path of ["zzz/a.txt", "unrelated.md", "f.txt/a.txt"]) {
    assert.deepEqual(failed(await tools.execute("read", { file_path })), [
      `Error: cannot read "${file_path}": not found`,
      "FS_NOT_FOUND",
    ]);
  }
});

Deno.test("C12.5 names outside the roots, symlinks among them, are never suggested", async () => {
  await using box = await sandbox("local", {
    "sub/": "",
    "../secret.txt": "s",
    "../outside/secrets.txt": "s",
  });
  const { root, base: dir } = box;
  await Deno.symlink(join(dir, "secret.txt"), join(root, "secret.txt"));
  await Deno.symlink(join(dir, "outside"), join(root, "secrets"));
  await Deno.writeTextFile(join(root, "sub", "in.txt"), "x");
  await Deno.symlink(join(root, "sub", "in.txt"), join(root, "sub", "link.txt"));
  const { tools } = box;
  assert.deepEqual(failed(await tools.execute("read", { file_path: "secret" })), [
    'Error: cannot read "secret": not found',
    "FS_NOT_FOUND",
  ]);
  assert.deepEqual(failed(await tools.execute("read", { file_path: "sub/link" })), [
    'Error: cannot read "sub/link": not found',
    "FS_NOT_FOUND",
  ]);
  // The parent directory outside the roots is never listed.
  assert.deepEqual(failed(await tools.execute("read", { file_path: "../secret" })), [
    'Error: cannot read "../secret": outside the permitted roots',
    "FS_OUTSIDE_ROOT",
  ]);
  assert.deepEqual(failed(await tools.execute("read", { file_path: "secrets/secret.txt" })), [
    'Error: cannot read "secrets/secret.txt": outside the permitted roots',
    "FS_OUTSIDE_ROOT",
  ]);
});

Deno.test("C12.6 read of a directory says to use list", async () => {
  await using box = await sandbox("local", { "src/a.ts": "" });
  const { tools } = box;
  assert.deepEqual(failed(await tools.execute("read", { file_path: "src" })), [
    'Error: cannot read "src": not a regular file; it is a directory, use list',
    "FS_NOT_REGULAR_FILE",
  ]);
  assert.deepEqual(failed(await tools.execute("read", { file_path: "." })), [
    'Error: cannot read ".": not a regular file; it is a directory, use list',
    "FS_NOT_REGULAR_FILE",
  ]);
});

Deno.test("C12.7 write over an existing unread file says it exists", async () => {
  await using box = await sandbox("local", { "a.txt": "keep\n" });
  const { root, tools } = box;
  assert.deepEqual(failed(await tools.execute("write", { file_path: "a.txt", content: "x" })), [
    'Error: cannot write "a.txt": the file already exists; read it first',
    "FS_NOT_OBSERVED",
  ]);
  assert.deepEqual(
    failed(
      await tools.execute("edit", { file_path: "a.txt", old_string: "keep", new_string: "x" }),
    ),
    ['Error: cannot edit "a.txt": read it first', "FS_NOT_OBSERVED"],
  );
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "keep\n");
  ok(await tools.execute("read", { file_path: "a.txt" }));
  ok(await tools.execute("write", { file_path: "a.txt", content: "x" }));
});

const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

Deno.test("C12.8 editSnippet 0 (the default) keeps the plain success text", async () => {
  await using box = await sandbox("local", { "a.txt": TEN });
  const { tools } = box;
  ok(await tools.execute("read", { file_path: "a.txt" }));
  assert.equal(
    ok(
      await tools.execute("edit", {
        file_path: "a.txt",
        old_string: "line 5",
        new_string: "five",
      }),
    ),
    "The file a.txt has been updated successfully.",
  );
});

Deno.test("C12.8 editSnippet n shows n lines around the first replacement as read renders them", async () => {
  await using box = await sandbox("local", {
    "a.txt": TEN,
    "b.txt": "x\ny\nx\nz\nx\n",
    "w.txt": "a\r\nb\r\nc\r\n",
  });
  const tools = box.toolsWith({ config: { editSnippet: 2 } });
  for (const f of ["a.txt", "b.txt", "w.txt"]) {
    ok(
      await tools.execute("read", { file_path: f }),
    );
  }
  assert.equal(
    ok(
      await tools.execute("edit", {
        file_path: "a.txt",
        old_string: "line 5\nline 6",
        new_string: "five\nsix\nsix and a half",
      }),
    ),
    "The file a.txt has been updated successfully.\n\n3: line 3\n4: line 4\n5: five\n6: six\n7: six and a half\n8: line 7\n9: line 8",
  );
  assert.equal(
    ok(
      await tools.execute("edit", {
        file_path: "a.txt",
        old_string: "line 1\n",
        new_string: "",
      }),
    ),
    // A deletion's place is the line that now follows it.
    "The file a.txt has been updated successfully.\n\n1: line 2\n2: line 3\n3: line 4",
  );
  assert.equal(
    ok(
      await tools.execute("edit", {
        file_path: "b.txt",
        old_string: "x",
        new_string: "X",
        replace_all: true,
      }),
    ),
    "The file b.txt has been updated. All occurrences were successfully replaced.\n\n1: X\n2: y\n3: X\n(2 more replacements not shown)",
  );
  assert.equal(
    ok(await tools.execute("edit", { file_path: "w.txt", old_string: "c", new_string: "C" })),
    "The file w.txt has been updated successfully.\n\n1: a\n2: b\n3: C",
  );
});

Deno.test("C12.8 the snippet truncates long lines and says one more replacement", async () => {
  const long = "y".repeat(30);
  await using box = await sandbox("local", { "a.txt": `x ${long}\nx\n` });
  const tools = box.toolsWith({ config: { editSnippet: 1, readMaxLineLength: 10 } });
  ok(await tools.execute("read", { file_path: "a.txt" }));
  assert.equal(
    ok(
      await tools.execute("edit", {
        file_path: "a.txt",
        old_string: "x",
        new_string: "z",
        replace_all: true,
      }),
    ),
    "The file a.txt has been updated. All occurrences were successfully replaced.\n\n1: z yyyyyyyy... (line truncated to 10 chars)\n2: z\n(1 more replacement not shown)",
  );
});

Deno.test("C12.9 systemPrompt states the workspace and each root with its access", async () => {
  await using box = await sandbox("local", { "docs/": "" });
  const { root } = box;
  const docs = join(root, "docs");
  const fs = new LocalFileSystem({ roots: [root, { path: docs, write: false }] });
  const tools = createFsTools({ fs });
  const guidance = systemPrompt(tools.definitions);
  const section =
    `The workspace is ${root}; relative paths resolve against it. Paths must lie inside these roots: ${root} (read-write), ${docs} (read-only).`;
  assert.equal(systemPrompt(tools.definitions, { roots: fs.roots }), `${guidance}\n\n${section}`);
  // Byte-stable: the same configuration gives the same bytes.
  assert.equal(
    systemPrompt(tools.definitions, { roots: fs.roots }),
    systemPrompt(createFsTools({ fs }).definitions, { roots: fs.roots }),
  );
  // A session cwd is stated instead of the first root.
  const sub = join(root, "docs");
  assert.equal(
    systemPrompt(tools.definitions, { roots: fs.roots, cwd: sub }),
    `${guidance}\n\nThe workspace is ${sub}; relative paths resolve against it. Paths must lie inside these roots: ${root} (read-write), ${docs} (read-only).`,
  );
  // Without roots the prompt is the guidance alone, as before.
  assert.equal(systemPrompt(tools.definitions, {}), guidance);
  return Promise.resolve();
});

Deno.test("C12.9 an absolute path from the stated workspace works", async () => {
  await using box = await sandbox("local", { "src/x.ts": "x\n" });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [root] });
  const tools = createFsTools({ fs });
  assert.match(
    systemPrompt(tools.definitions, { roots: fs.roots }),
    new RegExp(`The workspace is ${root};`),
  );
  assert.match(ok(await tools.execute("read", { file_path: join(root, "src/x.ts") })), /1: x/);
  assert.deepEqual(failed(await tools.execute("read", { file_path: "/src/x.ts" })), [
    // C12.10: meant relative to the workspace.
    'Error: cannot read "/src/x.ts": outside the permitted roots; did you mean "src/x.ts"?',
    "FS_OUTSIDE_ROOT",
  ]);
});

forEachProvider(
  "C12.3-C12.7 every hint is the same on both providers",
  { "src/main.ts": "if (a) {\n  go();\n}\nx\nx\n", "src/util.ts": "", "docs/": "" },
  async (box) => {
    await expect(
      box,
      "read",
      { file_path: "src/mian.ts" },
      'Error: cannot read "src/mian.ts": not found; did you mean "src/main.ts"?',
      "FS_NOT_FOUND",
    );
    await expect(
      box,
      "list",
      { path: "Docs" },
      'Error: cannot list "Docs": not found; did you mean "docs"?',
      "FS_NOT_FOUND",
    );
    await expect(
      box,
      "read",
      { file_path: "docs" },
      'Error: cannot read "docs": not a regular file; it is a directory, use list',
      "FS_NOT_REGULAR_FILE",
    );
    await expect(
      box,
      "write",
      { file_path: "src/util.ts", content: "x" },
      'Error: cannot write "src/util.ts": the file already exists; read it first',
      "FS_NOT_OBSERVED",
    );
    assert.equal((await box.run("read", { file_path: "src/main.ts" })).isError, false);
    const edit = (old_string: string) => ({
      file_path: "src/main.ts",
      old_string,
      new_string: "y",
    });
    await expect(
      box,
      "edit",
      edit("1: if (a) {"),
      'Error: old_string was not found in "src/main.ts"; remove the line numbers that read puts before each line',
      "FS_NO_MATCH",
    );
    await expect(
      box,
      "edit",
      edit("if (a) {\n\tgo();"),
      'Error: old_string was not found in "src/main.ts"; lines 1-2 match except for whitespace, so copy the indentation exactly',
      "FS_NO_MATCH",
    );
    await expect(
      box,
      "edit",
      edit("x\n"),
      'Error: old_string matches 2 times in "src/main.ts" (lines 4, 5); add surrounding context to make it unique or set replace_all to true',
      "FS_AMBIGUOUS_MATCH",
    );
    assert.equal(await box.read("src/main.ts"), "if (a) {\n  go();\n}\nx\nx\n");
  },
);
