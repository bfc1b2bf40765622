// CONTRACT C7 (errors and aborts) at the tools level, against real files.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, type FsPolicy, LocalFileSystem } from "../../mod.ts";
import { failed, needsRun, readText, tempFiles, writeText } from "../_helpers.ts";
import { sandbox } from "../_sandbox.ts";
import { argsOf } from "./_shared.ts";

/** A policy that approves everything, aborting the call's controller as it does. */
function abortingPolicy(controller: AbortController): FsPolicy {
  return {
    writeIntent: () => {
      controller.abort();
      return { kind: "none" };
    },
    editIntent: () => {
      controller.abort();
      return { kind: "none" };
    },
    observed: () => {},
  };
}

Deno.test("C7.1 a failure is exactly 'Error: <message>' with { name: 'FsError', code }", async () => {
  await using box = await sandbox("local");
  const result = await box.toolsWith().execute("read", { file_path: "x.txt" });
  assert.deepEqual(result, {
    content: 'Error: cannot read "x.txt": not found',
    isError: true,
    error: { name: "FsError", code: "FS_NOT_FOUND" },
  });
});

Deno.test("C7.1 a parent that is a file makes read, list and edit report not found", async () => {
  await using box = await sandbox("local", { "f.txt": "x" });
  const tools = box.toolsWith({ policy: false });
  assert.deepEqual(failed(await tools.execute("read", { file_path: "f.txt/a" })), [
    'Error: cannot read "f.txt/a": not found',
    "FS_NOT_FOUND",
  ]);
  assert.deepEqual(failed(await tools.execute("list", { path: "f.txt/a" })), [
    'Error: cannot list "f.txt/a": not found',
    "FS_NOT_FOUND",
  ]);
  assert.deepEqual(
    failed(
      await tools.execute("edit", { file_path: "f.txt/a", old_string: "a", new_string: "b" }),
    ),
    [
      'Error: cannot edit "f.txt/a": not found',
      "FS_NOT_FOUND",
    ],
  );
});

Deno.test({
  name: "C7.1 other OS failures are FS_IO_ERROR with the OS's message (link loop, name too long)",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using box = await sandbox("local");
    const { root } = box;
    await Deno.symlink("loop_b", join(root, "loop_a"));
    await Deno.symlink("loop_a", join(root, "loop_b"));
    const tools = box.toolsWith({ policy: false });
    for (const op of ["read", "write", "edit"]) {
      const args = { file_path: "loop_a", content: "x", old_string: "a", new_string: "b" };
      assert.deepEqual(failed(await tools.execute(op, argsOf(op, args))), [
        `Error: cannot ${op} "loop_a": Too many levels of symbolic links (os error 40)`,
        "FS_IO_ERROR",
      ]);
    }
    const long = "n".repeat(300);
    assert.deepEqual(failed(await tools.execute("read", { file_path: long })), [
      `Error: cannot read "${long}": File name too long (os error 36)`,
      "FS_IO_ERROR",
    ]);
    assert.deepEqual(failed(await tools.execute("write", { file_path: long, content: "x" })), [
      `Error: cannot write "${long}": File name too long (os error 36)`,
      "FS_IO_ERROR",
    ]);
  },
});

Deno.test("C7.1 an OS refusal is FS_PERMISSION_DENIED", async (t) => {
  await using box = await sandbox("local", { "locked.txt": "secret\n", "ok.txt": "fine\n" });
  const { root } = box;
  const path = join(root, "locked.txt");
  await Deno.chmod(path, 0o000);
  let enforced = true;
  try {
    await Deno.readFile(path);
    enforced = false;
  } catch { /* refused, as expected */ }
  await t.step({
    name: "read of a mode-000 file",
    ignore: !enforced,
    async fn() {
      const { tools } = box;
      assert.deepEqual(failed(await tools.execute("read", { file_path: "locked.txt" })), [
        'Error: cannot read "locked.txt": permission denied',
        "FS_PERMISSION_DENIED",
      ]);
    },
  });
  if (!enforced) console.warn("skipped: this process ignores file modes (running as root)");
  await Deno.chmod(path, 0o600);
});

const deniedTest = "C7.1 a path Deno refuses (--deny-read/--deny-write) is FS_PERMISSION_DENIED";
Deno.test({
  name: deniedTest,
  ignore: needsRun(deniedTest),
  async fn() {
    await using box = await sandbox("local", { "locked.txt": "secret\n", "fine.txt": "fine\n" });
    const { root } = box;
    const locked = join(root, "locked.txt");
    const calls = [
      ["read", { file_path: "locked.txt" }],
      ["write", { file_path: "locked.txt", content: "x" }],
      ["edit", { file_path: "locked.txt", old_string: "secret", new_string: "x" }],
      ["read", { file_path: "fine.txt" }],
    ];
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        `--allow-read=${root}`,
        `--allow-write=${root}`,
        `--deny-read=${locked}`,
        `--deny-write=${locked}`,
        new URL("../_tools_child.ts", import.meta.url).pathname,
        root,
        JSON.stringify(calls),
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.deepEqual(JSON.parse(new TextDecoder().decode(output.stdout)), [
      ['Error: cannot read "locked.txt": permission denied', "FS_PERMISSION_DENIED"],
      ['Error: cannot write "locked.txt": permission denied', "FS_PERMISSION_DENIED"],
      ['Error: cannot edit "locked.txt": permission denied', "FS_PERMISSION_DENIED"],
      [readText("fine.txt", ["1: fine"], "(End of file - total 1 lines)"), null],
    ]);
    assert.equal(await Deno.readTextFile(locked), "secret\n");
    assert.deepEqual(await tempFiles(root), []);
  },
});

Deno.test("C7.2 a call aborted before it starts fails with FS_ABORTED and changes nothing", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n", "d/": "" });
  const { root } = box;
  const tools = box.toolsWith({ policy: false });
  const signal = AbortSignal.abort();
  const calls: [string, Record<string, unknown>, string][] = [
    ["list", { path: "d" }, 'Error: cannot list "d": aborted'],
    ["read", { file_path: "a.txt" }, 'Error: cannot read "a.txt": aborted'],
    ["write", { file_path: "a.txt", content: "b" }, 'Error: cannot write "a.txt": aborted'],
    [
      "edit",
      { file_path: "a.txt", old_string: "a", new_string: "b" },
      'Error: cannot edit "a.txt": aborted',
    ],
  ];
  for (const [op, args, content] of calls) {
    assert.deepEqual(failed(await tools.execute(op, args, { signal })), [content, "FS_ABORTED"]);
  }
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "a\n");
});

Deno.test("C7.2 an abort seen before the commit gives FS_ABORTED and leaves the old file", async () => {
  await using box = await sandbox("local", { "a.txt": "old\n" });
  const { root } = box;
  for (const op of ["write", "edit"]) {
    const controller = new AbortController();
    const tools = box.toolsWith({ policy: abortingPolicy(controller) });
    const args = { file_path: "a.txt", content: "new\n", old_string: "old", new_string: "new" };
    assert.deepEqual(
      failed(await tools.execute(op, argsOf(op, args), { signal: controller.signal })),
      [
        `Error: cannot ${op} "a.txt": aborted`,
        "FS_ABORTED",
      ],
    );
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "old\n");
    assert.deepEqual(await tempFiles(root), []);
  }
});

Deno.test("C7.2 an abort seen after the commit reports success", async () => {
  await using box = await sandbox("local", { "a.txt": "old\n" });
  const { root } = box;
  const controller = new AbortController();
  class AbortAfterCommit extends LocalFileSystem {
    override async writeText(...args: Parameters<LocalFileSystem["writeText"]>) {
      const outcome = await super.writeText(...args);
      controller.abort();
      return outcome;
    }
  }
  const tools = createFsTools({ fs: new AbortAfterCommit({ roots: [root] }), policy: false });
  const result = await tools.execute("write", { file_path: "a.txt", content: "new\n" }, {
    signal: controller.signal,
  });
  assert.equal(result.content, writeText("a.txt", false));
  assert.ok(controller.signal.aborted);
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "new\n");
});

Deno.test("C7.2 an aborted streamed read stops promptly", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  const line = "0123456789".repeat(10) + "\n";
  await Deno.writeTextFile(join(root, "big.txt"), line.repeat(40_000)); // 4 MiB
  const controller = new AbortController();
  let chunks = 0;
  // Aborts after the tenth 64-byte chunk of the 65,000 a full scan would take.
  class AbortMidway extends LocalFileSystem {
    override async streamText(...args: Parameters<LocalFileSystem["streamText"]>) {
      const handle = await super.streamText(...args);
      return {
        ...handle,
        close: () => handle.close(),
        async *chunks(position: number) {
          for await (const chunk of handle.chunks(position)) {
            if (++chunks === 10) controller.abort();
            yield chunk;
          }
        },
      };
    }
  }
  const fs = new AbortMidway({ roots: [root], chunkSize: 64 });
  const tools = createFsTools({ fs, config: { readStreamMinSize: 0 } });
  const result = await tools.execute("read", { file_path: "big.txt", offset: 39_999 }, {
    signal: controller.signal,
  });
  assert.deepEqual(failed(result), ['Error: cannot read "big.txt": aborted', "FS_ABORTED"]);
  assert.ok(chunks <= 11, `read ${chunks} chunks after the abort`);
});

Deno.test("C7.2 an abort while the temporary file is being written leaves the old file and no temp file", async () => {
  await using box = await sandbox("local", { "a.txt": "old\n" });
  const { root } = box;
  const tools = box.toolsWith({ policy: false });
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
