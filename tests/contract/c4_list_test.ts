// CONTRACT C4.1 (`list`) at the tools level, against real files.

import assert from "node:assert/strict";
import { join } from "node:path";
import { failed, listText, mkfifo, needsRun, ok } from "../_helpers.ts";
import { sandbox } from "../_sandbox.ts";

Deno.test("C4.1 list validates path", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  for (const path of ["", 5, false, {}, []]) {
    assert.deepEqual(failed(await tools.execute("list", { path })), [
      "Error: path must be a non-empty string when given",
      "FS_INVALID_ARGUMENT",
    ]);
  }
});

Deno.test("C4.1 list shows directories, then files, then others, each by lower-cased name", async () => {
  const files = {
    "src/": "",
    "Docs/": "",
    "a_dir/": "",
    "b.txt": "",
    "a.txt": "",
    "A.txt": "",
    "Z.md": "",
    "_x": "",
  };
  await using box = await sandbox("local", files);
  const { root } = box;
  await Deno.symlink("src", join(root, "link_to_dir"));
  await Deno.symlink("b.txt", join(root, "Link_to_file"));
  const { tools } = box;
  const result = await tools.execute("list", {});
  assert.equal(
    result.content,
    listText(
      ".",
      [
        "a_dir/",
        "Docs/",
        "src/",
        "_x",
        "A.txt",
        "a.txt",
        "b.txt",
        "Z.md",
        "link_to_dir@",
        "Link_to_file@",
      ],
      "(10 entries: 3 directories, 5 files, 2 other)",
    ),
  );
  assert.deepEqual(result.value, {
    path: root,
    entries: [
      { name: "a_dir", type: "directory" },
      { name: "Docs", type: "directory" },
      { name: "src", type: "directory" },
      { name: "_x", type: "file" },
      { name: "A.txt", type: "file" },
      { name: "a.txt", type: "file" },
      { name: "b.txt", type: "file" },
      { name: "Z.md", type: "file" },
      { name: "link_to_dir", type: "other" },
      { name: "Link_to_file", type: "other" },
    ],
    total: { entries: 10, directories: 3, files: 5, other: 2 },
  });
});

const fifoListTest = "C4.1 list shows a FIFO as 'name@' and counts it as other";
Deno.test({
  name: fifoListTest,
  ignore: needsRun(fifoListTest),
  async fn() {
    await using box = await sandbox("local", { "f.txt": "" });
    const { root } = box;
    await mkfifo(join(root, "pipe"));
    assert.equal(
      ok(await box.toolsWith().execute("list", {})),
      listText(".", ["f.txt", "pipe@"], "(2 entries: 0 directories, 1 file, 1 other)"),
    );
  },
});

Deno.test("C4.1 list of an empty directory says (Empty directory)", async () => {
  await using box = await sandbox("local", { "empty/": "" });
  const { root } = box;
  const result = await box.toolsWith().execute("list", { path: "empty" });
  assert.equal(
    result.content,
    "<path>empty</path>\n<type>directory</type>\n<content>\n\n(Empty directory)\n</content>",
  );
  assert.deepEqual(result.value, {
    path: join(root, "empty"),
    entries: [],
    total: { entries: 0, directories: 0, files: 0, other: 0 },
  });
});

Deno.test("C4.1 list footers use singulars for a count of one; 'other' never changes", async () => {
  await using box = await sandbox("local", {
    "one/d/": "",
    "two/d/": "",
    "two/f": "",
    "three/f": "",
    "three/g": "",
  });
  const { root } = box;
  await Deno.symlink("f", join(root, "three/l"));
  const { tools } = box;
  const footer = async (path: string) =>
    ok(await tools.execute("list", { path })).split("\n").at(-2);
  assert.equal(await footer("one"), "(1 entry: 1 directory, 0 files)");
  assert.equal(await footer("two"), "(2 entries: 1 directory, 1 file)");
  assert.equal(await footer("three"), "(3 entries: 0 directories, 2 files, 1 other)");
  await Deno.symlink("g", join(root, "three/m"));
  assert.equal(await footer("three"), "(4 entries: 0 directories, 2 files, 2 other)");
});

Deno.test("C4.1 list renders only listMaxEntries and says so, counting the whole directory", async () => {
  await using box = await sandbox("local", {
    "c/": "",
    "a/": "",
    "b/": "",
    "y.txt": "",
    "x.txt": "",
  });
  const { root } = box;
  await Deno.symlink("x.txt", join(root, "z"));
  const tools = box.toolsWith({ config: { listMaxEntries: 4 } });
  const result = await tools.execute("list", {});
  assert.equal(
    result.content,
    listText(
      ".",
      ["a/", "b/", "c/", "x.txt"],
      "(Showing 4 of 6 entries: 3 directories, 2 files, 1 other. Entries are directories first, then files, each alphabetical; list a subdirectory to see the rest.)",
    ),
  );
  assert.equal((result.value as { entries: unknown[] }).entries.length, 4);
  const one = box.toolsWith({ config: { listMaxEntries: 1 } });
  assert.equal(
    ok(await one.execute("list", {})).split("\n").at(-2),
    "(Showing 1 of 6 entries: 3 directories, 2 files, 1 other. Entries are directories first, then files, each alphabetical; list a subdirectory to see the rest.)",
  );
});

Deno.test("C4.1 list of a missing path or a file fails with not found / not a directory", async () => {
  await using box = await sandbox("local", { "f.txt": "x" });
  const { tools } = box;
  assert.deepEqual(failed(await tools.execute("list", { path: "nope" })), [
    'Error: cannot list "nope": not found',
    "FS_NOT_FOUND",
  ]);
  assert.deepEqual(failed(await tools.execute("list", { path: "f.txt" })), [
    'Error: cannot list "f.txt": not a directory',
    "FS_NOT_DIRECTORY",
  ]);
});

Deno.test("C4.1 a listing records no read observation and emits no event", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { tools } = box;
  const seen: string[] = [];
  for (const type of ["list", "read", "write", "edit"]) {
    tools.events.addEventListener(type, () => seen.push(type));
  }
  ok(await tools.execute("list", {}));
  assert.deepEqual(seen, []);
  assert.deepEqual(failed(await tools.execute("write", { file_path: "a.txt", content: "b" })), [
    'Error: cannot write "a.txt": the file already exists; read it first',
    "FS_NOT_OBSERVED",
  ]);
});
