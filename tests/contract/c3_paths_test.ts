// CONTRACT C3 (paths and roots) at the tools level, against real files.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../../mod.ts";
import { failed, ok, readText, writeText } from "../_helpers.ts";
import { type Sandbox, sandbox } from "../_sandbox.ts";
import { RecordingFs } from "../_recording_fs.ts";
import { argsOf } from "./_shared.ts";

/** A root beside a sibling `root_evil`, an outside file and escaping links. */
async function escapeSandbox(): Promise<Sandbox> {
  const box = await sandbox("local", {
    "inside.txt": "inside\n",
    "../outside.txt": "secret\n",
    "../root_evil/secret.txt": "evil\n",
  });
  const { base: dir, root } = box;
  await Deno.symlink(join(dir, "outside.txt"), join(root, "out_abs"));
  await Deno.symlink("../outside.txt", join(root, "out_rel"));
  await Deno.symlink(join(dir, "root_evil"), join(root, "evil_dir"));
  await Deno.symlink("hop2", join(root, "hop1"));
  await Deno.symlink("hop3", join(root, "hop2"));
  await Deno.symlink("../root_evil/secret.txt", join(root, "hop3"));
  await Deno.symlink(join(dir, "not_there.txt"), join(root, "dangling_out"));
  await Deno.symlink(join(dir, "no_dir", "x.txt"), join(root, "dangling_deep"));
  return box;
}

Deno.test("C3.1 a relative path resolves against ctx.cwd, else the tools' cwd", async () => {
  await using box = await sandbox("local", { "a.txt": "top\n", "sub/a.txt": "sub\n" });
  const { root, tools } = box;
  assert.equal(
    ok(await tools.execute("read", { file_path: "a.txt" })),
    readText("a.txt", ["1: top"], "(End of file - total 1 lines)"),
  );
  assert.equal(
    ok(await tools.execute("read", { file_path: "a.txt" }, { cwd: "sub" })),
    readText("a.txt", ["1: sub"], "(End of file - total 1 lines)"),
  );
  assert.equal(
    ok(await tools.execute("read", { file_path: "a.txt" }, { cwd: join(root, "sub") })),
    readText("a.txt", ["1: sub"], "(End of file - total 1 lines)"),
  );
});

Deno.test("C3.1 '~' is not expanded", async () => {
  await using box = await sandbox("local", { "~/notes.txt": "tilde dir\n" });
  const { tools } = box;
  assert.equal(
    ok(await tools.execute("read", { file_path: "~/notes.txt" })),
    readText("~/notes.txt", ["1: tilde dir"], "(End of file - total 1 lines)"),
  );
  assert.equal(
    (await tools.execute("read", { file_path: "~/.bashrc" })).error?.code,
    "FS_NOT_FOUND",
  );
});

Deno.test("C3.2 paths escaping the root fail with FS_OUTSIDE_ROOT quoting the path as given", async () => {
  await using box = await escapeSandbox();
  const { base: dir, tools } = box;
  const escapes = [
    "../outside.txt",
    "sub/../../outside.txt",
    "./../root/../outside.txt",
    join(dir, "outside.txt"),
    "../root_evil/secret.txt",
    join(dir, "root_evil/secret.txt"),
    "out_abs",
    "out_rel",
    "evil_dir/secret.txt",
    "hop1",
    "dangling_out",
    "dangling_deep",
    "/etc/hostname",
  ];
  for (const path of escapes) {
    for (const op of ["read", "write", "edit"]) {
      const args = { file_path: path, content: "pwned\n", old_string: "secret", new_string: "x" };
      assert.deepEqual(failed(await tools.execute(op, argsOf(op, args))), [
        `Error: cannot ${op} "${path}": outside the permitted roots`,
        "FS_OUTSIDE_ROOT",
      ], `${op} ${path}`);
    }
  }
  for (const path of ["..", "../root_evil", "evil_dir", dir, "/"]) {
    assert.deepEqual(failed(await tools.execute("list", { path })), [
      `Error: cannot list "${path}": outside the permitted roots`,
      "FS_OUTSIDE_ROOT",
    ]);
  }
  // Nothing outside changed or appeared.
  assert.equal(await Deno.readTextFile(join(dir, "outside.txt")), "secret\n");
  assert.equal(await Deno.readTextFile(join(dir, "root_evil/secret.txt")), "evil\n");
  assert.deepEqual(
    [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
    ["outside.txt", "root", "root_evil"],
  );
  assert.deepEqual(
    [...Deno.readDirSync(join(dir, "root_evil"))].map((e) => e.name),
    ["secret.txt"],
  );
});

Deno.test("C3.2 new files below a link that leaves the root are refused and not created", async () => {
  await using box = await escapeSandbox();
  const { base: dir, tools } = box;
  for (const path of ["evil_dir/new.txt", "evil_dir/deep/new.txt", "../root_evil/new.txt"]) {
    assert.equal(
      (await tools.execute("write", { file_path: path, content: "x" })).error?.code,
      "FS_OUTSIDE_ROOT",
    );
  }
  assert.deepEqual(
    [...Deno.readDirSync(join(dir, "root_evil"))].map((e) => e.name),
    ["secret.txt"],
  );
});

Deno.test("C3.2 containment is separator-aware: root /w does not contain /w_evil or /w2", async () => {
  await using box = await sandbox("local", {
    "../w/a.txt": "w\n",
    "../w_evil/a.txt": "evil\n",
    "../w2/a.txt": "two\n",
  });
  const { base: dir } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [join(dir, "w")] }) });
  ok(await tools.execute("read", { file_path: join(dir, "w/a.txt") }));
  for (const path of [join(dir, "w_evil/a.txt"), join(dir, "w2/a.txt"), "../w_evil/a.txt"]) {
    assert.equal(
      (await tools.execute("read", { file_path: path })).error?.code,
      "FS_OUTSIDE_ROOT",
    );
  }
});

Deno.test("C3.2 a new path inside the root is judged by its nearest existing ancestor", async () => {
  await using box = await sandbox("local", { "sub/": "" });
  const { root, tools } = box;
  assert.equal(
    ok(await tools.execute("write", { file_path: "sub/x/y/z.txt", content: "z" })),
    writeText("sub/x/y/z.txt", true),
  );
  assert.equal(await Deno.readTextFile(join(root, "sub/x/y/z.txt")), "z");
});

Deno.test("C3.3 write and edit under a read-only root fail with FS_READ_ONLY", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [{ path: root, write: false }] });
  const tools = createFsTools({ fs });
  ok(await tools.execute("read", { file_path: "a.txt" }));
  assert.deepEqual(
    failed(await tools.execute("edit", { file_path: "a.txt", old_string: "a", new_string: "b" })),
    ['Error: cannot edit "a.txt": the root is read-only', "FS_READ_ONLY"],
  );
  assert.deepEqual(failed(await tools.execute("write", { file_path: "new.txt", content: "b" })), [
    'Error: cannot write "new.txt": the root is read-only',
    "FS_READ_ONLY",
  ]);
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "a\n");
  assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["a.txt"]);
});

Deno.test("C3.4 the display path is relative to the session cwd, '.' for it, else absolute", async () => {
  await using box = await sandbox("local", {
    "top.txt": "t\n",
    "sub/a.txt": "a\n",
    "../second/b.txt": "b\n",
  });
  const { base: dir, root } = box;
  const fs = new LocalFileSystem({ roots: [root, join(dir, "second")] });
  const tools = createFsTools({ fs });
  const shown = async (args: Record<string, unknown>, cwd?: string) =>
    ok(await tools.execute(args.path !== undefined ? "list" : "read", args, { cwd }))
      .split("\n")[0];
  assert.equal(await shown({ file_path: "sub/a.txt" }), "<path>sub/a.txt</path>");
  assert.equal(await shown({ file_path: "./sub/../sub/a.txt" }), "<path>sub/a.txt</path>");
  assert.equal(await shown({ file_path: join(root, "sub/a.txt") }), "<path>sub/a.txt</path>");
  assert.equal(await shown({ path: "." }), "<path>.</path>");
  assert.equal(await shown({ path: root }), "<path>.</path>");
  assert.equal(await shown({ path: "sub/" }), "<path>sub</path>");
  assert.equal(await shown({ file_path: "a.txt" }, "sub"), "<path>a.txt</path>");
  assert.equal(await shown({ file_path: "../top.txt" }, "sub"), `<path>${root}/top.txt</path>`);
  assert.equal(await shown({ path: ".." }, "sub"), `<path>${root}</path>`);
  assert.equal(
    await shown({ file_path: join(dir, "second/b.txt") }),
    `<path>${dir}/second/b.txt</path>`,
  );
  assert.equal(
    (await tools.execute("read", { file_path: "../top.txt/x" }, { cwd: "sub" })).content,
    `Error: cannot read "${root}/top.txt/x": not found`,
  );
});

Deno.test("C3.5 a symlink inside the root is followed by read, write and edit; the link stays", async () => {
  await using box = await sandbox("local", { "real/target.txt": "one\n" });
  const { root } = box;
  await Deno.symlink("real/target.txt", join(root, "link.txt"));
  await Deno.symlink("real", join(root, "dirlink"));
  const { tools } = box;
  assert.equal(
    ok(await tools.execute("read", { file_path: "link.txt" })),
    readText("link.txt", ["1: one"], "(End of file - total 1 lines)"),
  );
  assert.equal(
    ok(await tools.execute("write", { file_path: "link.txt", content: "two\n" })),
    writeText("link.txt", false),
  );
  assert.equal(
    ok(
      await tools.execute("edit", {
        file_path: "dirlink/target.txt",
        old_string: "two",
        new_string: "three",
      }),
    ),
    "The file dirlink/target.txt has been updated successfully.",
  );
  assert.ok((await Deno.lstat(join(root, "link.txt"))).isSymlink);
  assert.equal(await Deno.readLink(join(root, "link.txt")), "real/target.txt");
  assert.equal(await Deno.readTextFile(join(root, "real/target.txt")), "three\n");
});

Deno.test("C3.6 a NUL byte in a path is rejected before any file system call", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  const fs = new RecordingFs({ roots: [root] });
  const tools = createFsTools({ fs });
  const nul = "a\0b.txt";
  for (const op of ["read", "write", "edit"]) {
    const args = { file_path: nul, content: "", old_string: "x", new_string: "y" };
    assert.deepEqual(failed(await tools.execute(op, argsOf(op, args))), [
      "Error: file_path must not contain a NUL byte",
      "FS_INVALID_ARGUMENT",
    ]);
  }
  assert.deepEqual(failed(await tools.execute("list", { path: "dir\0" })), [
    "Error: path must not contain a NUL byte",
    "FS_INVALID_ARGUMENT",
  ]);
  assert.deepEqual(fs.calls, []);
});

Deno.test("C3.7 the display path is lexical: a link shows as the link", async () => {
  await using box = await sandbox("local", { "real.txt": "r\n" });
  const { root } = box;
  await Deno.symlink("real.txt", join(root, "alias.txt"));
  const { tools } = box;
  const result = await tools.execute("read", { file_path: "alias.txt" });
  assert.equal(result.content, readText("alias.txt", ["1: r"], "(End of file - total 1 lines)"));
  assert.equal((result.value as { path: string }).path, join(root, "alias.txt"));
});

Deno.test("C3.7 with nested roots the most specific root decides whether it is writable", async () => {
  await using box = await sandbox("local", {
    "a.txt": "a\n",
    "docs/b.txt": "b\n",
    "rw/c.txt": "c\n",
  });
  const { base: dir, root } = box;
  await Deno.symlink(join(root, "docs"), join(root, "docs_link"));
  // A writable root with a read-only root inside it.
  const fs = new LocalFileSystem({ roots: [root, { path: join(root, "docs"), write: false }] });
  const tools = createFsTools({ fs, policy: false });
  ok(await tools.execute("write", { file_path: "a.txt", content: "A\n" }));
  for (const path of ["docs/b.txt", "docs_link/b.txt", "docs/new.txt"]) {
    assert.deepEqual(failed(await tools.execute("write", { file_path: path, content: "x" })), [
      `Error: cannot write "${path}": the root is read-only`,
      "FS_READ_ONLY",
    ]);
  }
  // A read-only root with a writable root inside it.
  const inverse = createFsTools({
    fs: new LocalFileSystem({ roots: [{ path: root, write: false }, join(root, "rw")] }),
    policy: false,
  });
  ok(await inverse.execute("write", { file_path: "rw/c.txt", content: "C\n" }));
  assert.equal(
    (await inverse.execute("write", { file_path: "a.txt", content: "x" })).error?.code,
    "FS_READ_ONLY",
  );
  assert.equal(await Deno.readTextFile(join(root, "rw/c.txt")), "C\n");
  assert.equal(await Deno.readTextFile(join(root, "docs/b.txt")), "b\n");
  assert.ok(dir);
});

Deno.test("C3.8 checks run in order: arguments, abort, NUL, containment, read-only, existence, policy, content", async () => {
  await using box = await sandbox("local", {
    "bin.dat": new Uint8Array([1, 0, 2]),
    "a.txt": "a\n",
    "d/": "",
  });
  const { root, tools } = box;
  const aborted = AbortSignal.abort();
  // Argument validation before the abort, the abort before the NUL check.
  assert.equal(
    (await tools.execute("read", { file_path: "a\0", offset: 0 }, { signal: aborted })).error
      ?.code,
    "FS_INVALID_ARGUMENT",
  );
  assert.equal(
    (await tools.execute("read", { file_path: "a\0" }, { signal: aborted })).error?.code,
    "FS_ABORTED",
  );
  // NUL before containment.
  assert.equal(
    (await tools.execute("read", { file_path: "../\0" })).content,
    "Error: file_path must not contain a NUL byte",
  );
  // Containment before read-only, read-only before existence.
  const ro = createFsTools({
    fs: new LocalFileSystem({ roots: [{ path: root, write: false }] }),
  });
  assert.equal(
    (await ro.execute("write", { file_path: "../x", content: "" })).error?.code,
    "FS_OUTSIDE_ROOT",
  );
  assert.equal(
    (await ro.execute("edit", { file_path: "missing.txt", old_string: "a", new_string: "b" }))
      .error?.code,
    "FS_READ_ONLY",
  );
  // Existence and type before the policy.
  assert.deepEqual(
    failed(
      await tools.execute("edit", {
        file_path: "missing.txt",
        old_string: "a",
        new_string: "b",
      }),
    ),
    ['Error: cannot edit "missing.txt": not found', "FS_NOT_FOUND"],
  );
  assert.deepEqual(failed(await tools.execute("write", { file_path: "d", content: "x" })), [
    'Error: cannot write "d": not a regular file',
    "FS_NOT_REGULAR_FILE",
  ]);
  // The policy before the content checks (binary, match).
  assert.equal(
    (await tools.execute("edit", { file_path: "bin.dat", old_string: "a", new_string: "b" }))
      .error?.code,
    "FS_NOT_OBSERVED",
  );
  assert.equal(
    (await tools.execute("edit", { file_path: "a.txt", old_string: "zzz", new_string: "b" }))
      .error?.code,
    "FS_NOT_OBSERVED",
  );
});

Deno.test("C3.5 write through a dangling link inside the root creates its target and keeps the link", async () => {
  await using box = await sandbox("local", { "d/": "" });
  const { root } = box;
  await Deno.symlink("d/target.txt", join(root, "link.txt"));
  const { tools } = box;
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
