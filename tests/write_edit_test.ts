// `write` and `edit` end to end (CONTRACT C4.3, C4.4, C5, C7.2): atomic replacement, temp files,
// line breaks, serialization. Real files in temp dirs throughout.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../mod.ts";
import {
  encoder,
  failed,
  ok,
  readText,
  tempFiles,
  toolsAt,
  withSandbox,
  writeText,
} from "./_helpers.ts";

const BOM = "\uFEFF";

Deno.test("C4.3 a reader sees the old or the new content, never a mix", async () => {
  const a = "A".repeat(4 << 20);
  const b = "B".repeat(3 << 20) + "b".repeat(1 << 20);
  await withSandbox({ "big.txt": a }, async ({ root }) => {
    const path = join(root, "big.txt");
    const tools = toolsAt(root, { policy: false });
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
});

Deno.test("C7.2 an abort while the temporary file is being written leaves the old file and no temp file", async () => {
  await withSandbox({ "a.txt": "old\n" }, async ({ root }) => {
    const tools = toolsAt(root, { policy: false });
    const controller = new AbortController();
    const watcher = Deno.watchFs(root);
    let sawTemp = false;
    const watching = (async () => {
      for await (const event of watcher) {
        if (event.paths.some((path) => path.includes(".toolfs-"))) {
          sawTemp = true;
          controller.abort();
          break;
        }
      }
    })();
    const result = await tools.execute("write", {
      file_path: "a.txt",
      content: "new\n".repeat(16 << 20), // 64 MiB: the abort lands long before the rename
    }, { signal: controller.signal });
    watcher.close();
    await watching;
    assert.ok(sawTemp);
    assert.deepEqual(failed(result), ['Error: cannot write "a.txt": aborted', "FS_ABORTED"]);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "old\n");
    assert.deepEqual(await tempFiles(root), []);
  });
});

Deno.test("C4.3 no temporary file is left after a success, any failure, or an abort", async () => {
  const files = { "a.txt": "one\none\n", "bin": new Uint8Array([0, 1]), "ro/r.txt": "r\n" };
  await withSandbox(files, async ({ root }) => {
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
});

Deno.test("C4.3 write stores content as given: a BOM, an empty file, CRLF", async () => {
  await withSandbox({}, async ({ root }) => {
    const tools = toolsAt(root);
    const bom = await tools.execute("write", { file_path: "bom.txt", content: `${BOM}hi\r\n` });
    assert.deepEqual(bom.value, {
      path: join(root, "bom.txt"),
      operation: "create",
      before: null,
      after: "hi\r\n",
    });
    assert.deepEqual(await Deno.readFile(join(root, "bom.txt")), encoder.encode(`${BOM}hi\r\n`));
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
});

Deno.test("C3.5 write through a dangling link inside the root creates its target and keeps the link", async () => {
  await withSandbox({ "d/": "" }, async ({ root }) => {
    await Deno.symlink("d/target.txt", join(root, "link.txt"));
    const tools = toolsAt(root);
    assert.deepEqual(failed(await tools.execute("read", { file_path: "link.txt" })), [
      'Error: cannot read "link.txt": not found',
      "FS_NOT_FOUND",
    ]);
    assert.equal(
      ok(await tools.execute("write", { file_path: "link.txt", content: "t\n" })),
      writeText("link.txt", true),
    );
    assert.ok((await Deno.lstat(join(root, "link.txt"))).isSymlink);
    assert.equal(await Deno.readTextFile(join(root, "d/target.txt")), "t\n");
  });
});

Deno.test("C4.4 CRLF files: replace_all, single-line matches and CRLF already in new_string", async () => {
  await withSandbox({ "w.txt": "a = 1\r\nb = 1\r\na = 1\r\n" }, async ({ root }) => {
    const tools = toolsAt(root, { policy: false });
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
});

Deno.test("C4.4 occurrences are counted without overlap", async () => {
  await withSandbox({ "a.txt": "aaaa" }, async ({ root }) => {
    const tools = toolsAt(root, { policy: false });
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
});

Deno.test("C5.5 one session's concurrent creates of one new file all land, one after the other", async () => {
  await withSandbox({}, async ({ root }) => {
    const tools = toolsAt(root);
    const results = await Promise.all(
      ["v1\n", "v2\n", "v3\n"].map((content) =>
        tools.execute("write", { file_path: "n.txt", content })
      ),
    );
    assert.deepEqual(results.map((r) => r.content).sort(), [
      writeText("n.txt", true),
      writeText("n.txt", false),
      writeText("n.txt", false),
    ]);
    // Each replaced the one before it: the last to land is the one no other write saw as `before`.
    const values = results.map((r) => r.value as { before: string | null; after: string });
    const last = values.filter((v) => !values.some((w) => w.before === v.after));
    assert.equal(last.length, 1);
    assert.equal(await Deno.readTextFile(join(root, "n.txt")), last[0].after);
  });
});

Deno.test("C5.5 a racing second session gets FS_STALE, never a lost update, for every interleaving", async () => {
  await withSandbox({ "c.txt": "0" }, async ({ root }) => {
    const tools = toolsAt(root);
    // 10 sessions each read then increment; whatever lands, no increment is silently lost.
    const sessions = Array.from({ length: 10 }, () => ({}));
    for (const session of sessions) {
      ok(await tools.execute("read", { file_path: "c.txt" }, { session }));
    }
    const results = await Promise.all(
      sessions.map((session) =>
        tools.execute("write", { file_path: "c.txt", content: "1" }, { session })
      ),
    );
    assert.equal(results.filter((r) => !r.isError).length, 1);
    assert.ok(results.filter((r) => r.isError).every((r) => r.error?.code === "FS_STALE"));
  });
});

Deno.test("C5 sessions are isolated: one session's read or write does not let another write", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    const alice = {};
    const bob = {};
    ok(await tools.execute("write", { file_path: "new.txt", content: "n\n" }, { session: alice }));
    assert.deepEqual(
      failed(
        await tools.execute("write", { file_path: "new.txt", content: "m\n" }, { session: bob }),
      ),
      [
        'Error: cannot write "new.txt": the file already exists; read it first',
        "FS_NOT_OBSERVED",
      ],
    );
    ok(await tools.execute("read", { file_path: "a.txt" }, { session: bob }));
    ok(await tools.execute("read", { file_path: "a.txt" }, { session: alice }));
    ok(
      await tools.execute("edit", { file_path: "a.txt", old_string: "a", new_string: "b" }, {
        session: bob,
      }),
    );
    // Bob's edit changed the file under Alice's observation.
    assert.equal(
      (await tools.execute("edit", { file_path: "a.txt", old_string: "b", new_string: "c" }, {
        session: alice,
      }))
        .error?.code,
      "FS_STALE",
    );
  });
});

Deno.test("C5.7 a stale check also holds for files above readStreamMinSize", async () => {
  await withSandbox({}, async ({ root }) => {
    const path = join(root, "big.txt");
    await Deno.writeTextFile(path, "x".repeat(100_000) + "\n");
    const tools = toolsAt(root, { config: { readStreamMinSize: 1000 } });
    ok(await tools.execute("read", { file_path: "big.txt", limit: 1 }));
    const { atime, mtime } = await Deno.stat(path);
    const file = await Deno.open(path, { write: true });
    await file.write(encoder.encode("y")); // same size, same inode, first byte changed
    file.close();
    await Deno.utime(path, atime!, mtime!);
    assert.equal(
      (await tools.execute("write", { file_path: "big.txt", content: "z" })).error?.code,
      "FS_STALE",
    );
    ok(await tools.execute("read", { file_path: "big.txt", limit: 1 }));
    ok(await tools.execute("write", { file_path: "big.txt", content: "z" }));
  });
});
