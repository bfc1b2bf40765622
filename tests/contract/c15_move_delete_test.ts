// CONTRACT C15 (`move` and `delete`): exact texts, values, never overwriting, roots, the policy
// and its intents, observations following a move, abort. Both providers unless marked.

import assert from "node:assert/strict";
import {
  createFsTools,
  type FsEntryIntent,
  FsError,
  type FsIntent,
  type FsObservation,
  type FsPolicy,
  type FsToolName,
  LocalFileSystem,
  ReadBeforeWritePolicy,
} from "../../mod.ts";
import type { FsPrecondition } from "../../provider.ts";
import { MemoryFileSystem } from "../../memory.ts";
import { entriesSkip, forEachProvider, outcome, type Sandbox, sandbox } from "../_sandbox.ts";

const ALL: FsToolName[] = ["list", "read", "write", "edit", "glob", "grep", "move", "delete"];
const WITH = { tools: ALL };

function run(box: Sandbox, name: string, args: unknown, signal?: AbortSignal) {
  return box.run(name, args, signal ? { signal } : undefined).then((r) => outcome(box, r));
}

Deno.test("C15.1 move and delete are opt-in: the default definitions stay the six", () => {
  const fs = new MemoryFileSystem({ roots: ["/w"] });
  assert.deepEqual(createFsTools({ fs }).definitions.map((d) => d.name), ALL.slice(0, 6));
  const picked = createFsTools({ fs, tools: ["delete", "read", "move"] });
  assert.deepEqual(picked.definitions.map((d) => d.name), ["read", "move", "delete"]);
});

forEachProvider("C15.2 move renames a file, creating the destination's parents", {
  "a.txt": "one\n",
}, async (box) => {
  const result = await box.run("move", { source_path: "a.txt", destination_path: "b/c/d.txt" });
  assert.equal(result.content, "Moved a.txt to b/c/d.txt");
  assert.deepEqual(result.value, {
    from: box.path("a.txt"),
    to: box.path("b/c/d.txt"),
    type: "file",
  });
  assert.equal(await box.read("a.txt"), null);
  assert.equal(await box.read("b/c/d.txt"), "one\n");
}, WITH);

forEachProvider("C15.2 move never overwrites: the destination exists", {
  "a.txt": "mine\n",
  "b.txt": "theirs\n",
  "d/x.txt": "x\n",
}, async (box) => {
  assert.deepEqual(await run(box, "move", { source_path: "a.txt", destination_path: "b.txt" }), [
    'Error: cannot move "a.txt" to "b.txt": the destination exists',
    "FS_EXISTS",
  ]);
  assert.deepEqual(await run(box, "move", { source_path: "d", destination_path: "b.txt" }), [
    'Error: cannot move "d" to "b.txt": the destination exists',
    "FS_EXISTS",
  ]);
  assert.equal(await box.read("a.txt"), "mine\n");
  assert.equal(await box.read("b.txt"), "theirs\n");
  assert.equal(await box.read("d/x.txt"), "x\n");
}, WITH);

forEachProvider("C15.2 move of a missing source, a root, a directory into itself", {
  "d/x.txt": "x\n",
}, async (box) => {
  assert.deepEqual(await run(box, "move", { source_path: "qqqq.bin", destination_path: "z" }), [
    'Error: cannot move "qqqq.bin": not found',
    "FS_NOT_FOUND",
  ]);
  assert.deepEqual(await run(box, "move", { source_path: ".", destination_path: "z" }), [
    'Error: cannot move ".": it is a root',
    "FS_INVALID_ARGUMENT",
  ]);
  assert.deepEqual(await run(box, "move", { source_path: "d", destination_path: "d/e" }), [
    'Error: cannot move "d": a directory cannot move into itself',
    "FS_INVALID_ARGUMENT",
  ]);
  assert.equal(await box.read("d/x.txt"), "x\n");
  assert.equal(await box.read("z"), null);
}, WITH);

forEachProvider("C15.2 move of a directory; the session's observations follow it", {
  "d/x.txt": "let x;\n",
  "d/sub/y.txt": "y\n",
}, async (box) => {
  await box.run("read", { file_path: "d/x.txt" });
  const result = await box.run("move", { source_path: "d", destination_path: "e" });
  assert.equal(result.content, "Moved d to e");
  assert.deepEqual(result.value, { from: box.path("d"), to: box.path("e"), type: "directory" });
  assert.equal(await box.read("e/sub/y.txt"), "y\n");
  const edit = await box.run("edit", { file_path: "e/x.txt", old_string: "x", new_string: "z" });
  assert.equal(edit.isError, false, edit.content);
  assert.equal(await box.read("e/x.txt"), "let z;\n");
}, WITH);

forEachProvider("C15.2 a destination outside the roots or in a read-only root", {
  "a.txt": "a\n",
}, async (box) => {
  assert.deepEqual(
    await run(box, "move", { source_path: "a.txt", destination_path: "../out.txt" }),
    [
      'Error: cannot move "a.txt" to "../out.txt": the destination is outside the permitted roots',
      "FS_OUTSIDE_ROOT",
    ],
  );
  assert.deepEqual(
    await run(box, "move", { source_path: "a.txt", destination_path: "../docs/a.txt" }),
    ['Error: cannot move "<base>/docs/a.txt": the root is read-only', "FS_READ_ONLY"],
  );
  assert.deepEqual(await run(box, "delete", { path: "../docs/k.txt" }), [
    'Error: cannot delete "<base>/docs/k.txt": the root is read-only',
    "FS_READ_ONLY",
  ]);
  assert.equal(await box.read("a.txt"), "a\n");
}, { ...WITH, roots: [{ name: "docs", write: false }] });

forEachProvider("C15.3 delete of a file needs a read at its current version", {
  "a.txt": "a\n",
}, async (box) => {
  assert.deepEqual(await run(box, "delete", { path: "a.txt" }), [
    'Error: cannot delete "a.txt": read it first',
    "FS_NOT_OBSERVED",
  ]);
  await box.run("read", { file_path: "a.txt" });
  await box.write("a.txt", "changed by someone else\n");
  assert.deepEqual(await run(box, "delete", { path: "a.txt" }), [
    'Error: cannot delete "a.txt": it changed since it was last read; read it again',
    "FS_STALE",
  ]);
  assert.equal(await box.read("a.txt"), "changed by someone else\n");
  await box.run("read", { file_path: "a.txt" });
  const result = await box.run("delete", { path: "a.txt" });
  assert.equal(result.content, "Deleted a.txt");
  assert.deepEqual(result.value, {
    path: box.path("a.txt"),
    type: "file",
    files: 1,
    directories: 0,
  });
  assert.equal(await box.read("a.txt"), null);
  assert.deepEqual(await run(box, "delete", { path: "a.txt" }), [
    'Error: cannot delete "a.txt": not found',
    "FS_NOT_FOUND",
  ]);
}, WITH);

forEachProvider("C15.3 a tree: not empty without recursive, unread files counted, then deleted", {
  "d/x.txt": "x\n",
  "d/sub/y.txt": "y\n",
  "d/sub/z.txt": "z\n",
  "e/": "",
}, async (box) => {
  assert.deepEqual(await run(box, "delete", { path: "d" }), [
    'Error: cannot delete "d": the directory is not empty; pass recursive: true to delete it and its contents',
    "FS_NOT_EMPTY",
  ]);
  assert.deepEqual(await run(box, "delete", { path: "d", recursive: true }), [
    'Error: cannot delete "d": it holds 3 files this session has not read',
    "FS_NOT_OBSERVED",
  ]);
  await box.run("read", { file_path: "d/x.txt" });
  await box.run("read", { file_path: "d/sub/y.txt" });
  assert.deepEqual(await run(box, "delete", { path: "d", recursive: true }), [
    'Error: cannot delete "d": it holds 1 file this session has not read',
    "FS_NOT_OBSERVED",
  ]);
  assert.equal(await box.read("d/sub/z.txt"), "z\n");
  await box.run("read", { file_path: "d/sub/z.txt" });
  const result = await box.run("delete", { path: "d", recursive: true });
  assert.equal(result.content, "Deleted d (3 files, 2 directories)");
  assert.deepEqual(result.value, {
    path: box.path("d"),
    type: "directory",
    files: 3,
    directories: 2,
  });
  assert.equal(await box.read("d/x.txt"), null);
  const empty = await box.run("delete", { path: "e" });
  assert.equal(empty.content, "Deleted e (0 files, 1 directory)");
  assert.deepEqual(await run(box, "delete", { path: ".", recursive: true }), [
    'Error: cannot delete ".": it is a root',
    "FS_INVALID_ARGUMENT",
  ]);
}, WITH);

forEachProvider(
  "C15.3 a file changed after the tree was read makes the delete stale, nothing deleted",
  {
    "d/x.txt": "x\n",
    "d/y.txt": "y\n",
  },
  async (box) => {
    await box.run("read", { file_path: "d/x.txt" });
    await box.run("read", { file_path: "d/y.txt" });
    await box.write("d/y.txt", "changed\n");
    assert.deepEqual(await run(box, "delete", { path: "d", recursive: true }), [
      'Error: cannot delete "d": it holds 1 file this session has not read',
      "FS_NOT_OBSERVED",
    ]);
    assert.equal(await box.read("d/x.txt"), "x\n");
  },
  WITH,
);

/** The default policy, recording every move and delete intent; refuses deleting `keep.txt`. */
class AskingPolicy implements FsPolicy {
  inner = new ReadBeforeWritePolicy();
  intents: FsEntryIntent[] = [];
  writeIntent(intent: FsIntent): FsPrecondition {
    return this.inner.writeIntent(intent);
  }
  editIntent(intent: FsIntent): FsPrecondition {
    return this.inner.editIntent(intent);
  }
  moveIntent(intent: FsEntryIntent): void {
    this.intents.push(intent);
  }
  deleteIntent(intent: FsEntryIntent) {
    this.intents.push(intent);
    if (intent.displayPath === "keep.txt") {
      throw new FsError("FS_PERMISSION_DENIED", { message: "the user declined the delete" });
    }
    return { kind: "none" } as const;
  }
  observed(observation: FsObservation): void {
    this.inner.observed(observation);
  }
}

forEachProvider("C15.4 a custom policy sees moves and deletes as intents and can refuse", {
  "keep.txt": "k\n",
  "d/a.txt": "a\n",
  "d/b.txt": "b\n",
}, async (box) => {
  const policy = new AskingPolicy();
  const tools = box.toolsWith({ ...WITH, policy });
  const refused = await tools.execute("delete", { path: "keep.txt" });
  assert.deepEqual([refused.content, refused.error?.code], [
    "Error: the user declined the delete",
    "FS_PERMISSION_DENIED",
  ]);
  assert.equal(await box.read("keep.txt"), "k\n");
  assert.equal(
    (await tools.execute("move", { source_path: "d", destination_path: "e" })).isError,
    false,
  );
  const gone = await tools.execute("delete", { path: "e", recursive: true });
  assert.equal(gone.content, "Deleted e (2 files, 1 directory)");
  const seen = policy.intents.map((i) => ({
    op: i.op,
    displayPath: i.displayPath,
    type: i.type,
    to: i.destination?.displayPath,
    files: i.files.length,
  }));
  assert.deepEqual(seen, [
    { op: "delete", displayPath: "keep.txt", type: "file", to: undefined, files: 1 },
    { op: "move", displayPath: "d", type: "directory", to: "e", files: 2 },
    { op: "delete", displayPath: "e", type: "directory", to: undefined, files: 2 },
  ]);
}, WITH);

forEachProvider("C15.1/C7.2 an aborted move or delete changes nothing", {
  "a.txt": "a\n",
}, async (box) => {
  await box.run("read", { file_path: "a.txt" });
  const signal = AbortSignal.abort();
  assert.deepEqual(await run(box, "delete", { path: "a.txt" }, signal), [
    'Error: cannot delete "a.txt": aborted',
    "FS_ABORTED",
  ]);
  assert.deepEqual(
    await run(box, "move", { source_path: "a.txt", destination_path: "b.txt" }, signal),
    ['Error: cannot move "a.txt": aborted', "FS_ABORTED"],
  );
  assert.equal(await box.read("a.txt"), "a\n");
  assert.equal(await box.read("b.txt"), null);
}, WITH);

forEachProvider("C15 with policy: false, delete and move are unconditional", {
  "d/x.txt": "x\n",
}, async (box) => {
  const tools = box.toolsWith({ ...WITH, policy: false });
  const result = await tools.execute("delete", { path: "d", recursive: true });
  assert.equal(result.content, "Deleted d (1 file, 1 directory)");
}, WITH);

forEachProvider("C15 argument checks", {}, async (box) => {
  assert.deepEqual(await run(box, "move", { source_path: "", destination_path: "b" }), [
    "Error: source_path must be a non-empty string",
    "FS_INVALID_ARGUMENT",
  ]);
  assert.deepEqual(await run(box, "move", { source_path: "a" }), [
    "Error: destination_path must be a non-empty string",
    "FS_INVALID_ARGUMENT",
  ]);
  assert.deepEqual(await run(box, "delete", { path: "a", recursive: "yes" }), [
    "Error: recursive must be a boolean when given",
    "FS_INVALID_ARGUMENT",
  ]);
  assert.deepEqual(await run(box, "delete", {}), [
    "Error: path must be a non-empty string",
    "FS_INVALID_ARGUMENT",
  ]);
}, WITH);

// --- local only: links, other file systems, another process's lock -----------------------

Deno.test("C15.2/C15.3 a symbolic link is moved and deleted itself, its target untouched [local]", {
  ignore: entriesSkip() !== null,
}, async () => {
  await using box = await sandbox(
    "local",
    { "t.txt": "target\n", "../out.txt": "outside\n" },
    WITH,
  );
  await Deno.symlink(box.path("t.txt"), box.path("in.lnk"));
  await Deno.symlink(`${box.base}/out.txt`, box.path("out.lnk"));
  const moved = await box.run("move", { source_path: "in.lnk", destination_path: "d/in2.lnk" });
  assert.equal(moved.content, "Moved in.lnk to d/in2.lnk");
  assert.equal((moved.value as { type: string }).type, "other");
  assert.equal(await Deno.readLink(box.path("d/in2.lnk")), box.path("t.txt"));
  for (const path of ["d/in2.lnk", "out.lnk"]) {
    const result = await box.run("delete", { path });
    assert.deepEqual(result.value, {
      path: box.path(path),
      type: "other",
      files: 1,
      directories: 0,
    });
  }
  assert.equal(await box.read("t.txt"), "target\n");
  assert.equal(await Deno.readTextFile(`${box.base}/out.txt`), "outside\n");
});

Deno.test(
  "C15.3 a tree's links (and a FIFO) count as files in its text and need no read; their targets stay [local]",
  {
    ignore: entriesSkip() !== null,
  },
  async () => {
    await using box = await sandbox(
      "local",
      { "d/x.txt": "x\n", "d/sub/y.txt": "y\n", "t.txt": "target\n", "../out.txt": "outside\n" },
      WITH,
    );
    await Deno.symlink("x.txt", box.path("d/in.lnk"));
    await Deno.symlink(box.path("t.txt"), box.path("d/sub/up.lnk"));
    await Deno.symlink(`${box.base}/out.txt`, box.path("d/sub/out.lnk"));
    // Another special entry, where mkfifo runs: it counts as a file too and is never opened.
    const fifo = await new Deno.Command("mkfifo", { args: [box.path("d/sub/p.fifo")] }).output()
      .then((out) => out.success, () => false);
    const files = 5 + (fifo ? 1 : 0);
    // Only the two regular files wait for a read; the links are removed themselves.
    assert.deepEqual(await run(box, "delete", { path: "d", recursive: true }), [
      'Error: cannot delete "d": it holds 2 files this session has not read',
      "FS_NOT_OBSERVED",
    ]);
    await box.run("read", { file_path: "d/x.txt" });
    await box.run("read", { file_path: "d/sub/y.txt" });
    const result = await box.run("delete", { path: "d", recursive: true });
    // `<f>` counts the two files, the three links (and the FIFO); `<d>` counts d and d/sub.
    assert.equal(result.content, `Deleted d (${files} files, 2 directories)`);
    assert.deepEqual(result.value, {
      path: box.path("d"),
      type: "directory",
      files,
      directories: 2,
    });
    assert.equal(await Deno.lstat(box.path("d")).catch(() => null), null);
    assert.equal(await box.read("t.txt"), "target\n");
    assert.equal(await Deno.readTextFile(`${box.base}/out.txt`), "outside\n");
  },
);

Deno.test(
  "C15.2 across file systems a file moves (its source goes once copied) and a directory never does [local]",
  { ignore: entriesSkip() !== null },
  async (t) => {
    const shm = await Deno.makeTempDir({ dir: "/dev/shm" }).catch(() => null);
    if (!shm || (await Deno.stat(shm)).dev === (await Deno.stat(Deno.cwd())).dev) {
      t.step({ name: "no second file system at /dev/shm", ignore: true, fn: () => {} });
      return;
    }
    await using box = await sandbox("local", {
      "a.txt": "a\n",
      "d/x.txt": "x\n",
      "d/s/y.txt": "y\n",
    });
    try {
      const fs = new LocalFileSystem({ roots: [box.root, shm] });
      const tools = createFsTools({ fs, tools: ALL });
      await Deno.symlink("x.txt", box.path("d/x.lnk"));
      const mtime = new Date("2020-01-02T03:04:05Z");
      await Deno.utime(box.path("a.txt"), mtime, mtime);
      await Deno.chmod(box.path("a.txt"), 0o666); // set through the copy's descriptor, no umask
      // As the superuser the copy keeps its owner and group, as `mv` does (C4.3a's rule).
      const owner = Deno.uid() === 0 ? 65534 : null;
      if (owner !== null) await Deno.chown(box.path("a.txt"), owner, owner);

      const file = await tools.execute("move", {
        source_path: "a.txt",
        destination_path: `${shm}/a.txt`,
      });
      assert.equal(file.content, `Moved a.txt to ${shm}/a.txt`);
      assert.equal(await Deno.readTextFile(`${shm}/a.txt`), "a\n");
      assert.equal((await Deno.stat(`${shm}/a.txt`)).mtime?.getTime(), mtime.getTime());
      assert.equal((await Deno.stat(`${shm}/a.txt`)).mode! & 0o777, 0o666);
      if (owner !== null) {
        const moved = await Deno.stat(`${shm}/a.txt`);
        assert.deepEqual([moved.uid, moved.gid], [owner, owner]);
      }
      assert.deepEqual([...Deno.readDirSync(box.root)].map((e) => e.name).sort(), ["d"]);
      assert.equal(await box.read("a.txt"), null);
      const dir = await tools.execute("move", { source_path: "d", destination_path: `${shm}/d` });
      assert.equal(
        dir.content,
        `Error: cannot move "d" to "${shm}/d": they are on different file systems; move the files one by one`,
      );
      assert.equal(dir.isError, true);
      assert.equal(dir.error?.code, "FS_INVALID_ARGUMENT");
      assert.equal(await Deno.lstat(`${shm}/d`).catch(() => null), null);
      assert.equal(await box.read("d/x.txt"), "x\n");
      assert.equal(await box.read("d/s/y.txt"), "y\n");
      assert.equal(await Deno.readLink(box.path("d/x.lnk")), "x.txt");
    } finally {
      await Deno.remove(shm, { recursive: true });
    }
  },
);

Deno.test("C7.2 a delete waiting for another holder's lock stops promptly on abort [local]", {
  ignore: entriesSkip() !== null,
}, async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" }, WITH);
  await box.run("read", { file_path: "a.txt" });
  using held = await Deno.open(box.path("a.txt"), { read: true, write: true });
  await held.lock(true);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const result = await box.run("delete", { path: "a.txt" }, { signal: controller.signal });
  assert.deepEqual(outcome(box, result), ['Error: cannot delete "a.txt": aborted', "FS_ABORTED"]);
  assert.equal(await box.read("a.txt"), "a\n");
});

Deno.test("C8/C15 presentCall for move and delete: kinds move and delete, both paths located", () => {
  const fs = new MemoryFileSystem({ roots: [Deno.cwd()] });
  const tools = createFsTools({ fs, tools: ALL });
  const cwd = tools.cwd;
  assert.deepEqual(tools.presentCall("move", { source_path: "a.ts", destination_path: "b/a.ts" }), {
    title: "Move a.ts to b/a.ts",
    kind: "move",
    locations: [{ path: `${cwd}/a.ts` }, { path: `${cwd}/b/a.ts` }],
  });
  assert.deepEqual(tools.presentCall("delete", { path: "build", recursive: true }), {
    title: "Delete build",
    kind: "delete",
    rawInput: { recursive: true },
    locations: [{ path: `${cwd}/build` }],
  });
  assert.deepEqual(tools.presentCall("delete", {}), { title: "Delete", kind: "delete" });
});

Deno.test("C15.3 a tree of more files than are kept locked at once is deleted whole [local]", {
  ignore: entriesSkip() !== null,
}, async () => {
  const files = Object.fromEntries(
    Array.from({ length: 600 }, (_, i) => [`big/f${i}.txt`, `${i}\n`]),
  );
  await using box = await sandbox("local", files, { ...WITH, policy: false });
  const result = await box.run("delete", { path: "big", recursive: true });
  assert.equal(result.content, "Deleted big (600 files, 1 directory)");
  assert.equal(await box.read("big/f599.txt"), null);
});

forEachProvider("C15.2 a move onto a root is refused as an existing destination", {
  "a.txt": "a\n",
}, async (box) => {
  assert.deepEqual(await run(box, "move", { source_path: "a.txt", destination_path: "." }), [
    'Error: cannot move "a.txt" to ".": the destination exists',
    "FS_EXISTS",
  ]);
}, WITH);

forEachProvider(
  "C15.1 a delete racing an edit of one file: every reported success holds",
  {},
  async (box) => {
    for (let i = 0; i < 20; i++) {
      const file = `f${i}.txt`;
      await box.write(file, "old\n");
      await box.run("read", { file_path: file });
      const [edit, del] = await Promise.all([
        box.run("edit", { file_path: file, old_string: "old", new_string: "new" }),
        box.run("delete", { path: file }),
      ]);
      const now = await box.read(file);
      if (!del.isError) assert.equal(now, null, `${file}: deleted, yet still there`);
      else assert.equal(now, edit.isError ? "old\n" : "new\n", del.content);
      assert.ok(!edit.isError || !del.isError || now === "old\n");
    }
  },
  WITH,
);

forEachProvider(
  "C15.2/C15.3 an entry that holds a root (read-only or not) neither moves nor goes",
  {
    "a/b/vendor/v.txt": "v\n",
    "a/b/x.txt": "x\n",
  },
  async (box) => {
    await box.run("read", { file_path: "a/b/x.txt" });
    await box.run("read", { file_path: "a/b/vendor/v.txt" });
    const root = box.path("a/b/vendor");
    assert.deepEqual(await run(box, "move", { source_path: "a", destination_path: "z" }), [
      `Error: cannot move "a": it holds the root "${box.portable(root)}"`,
      "FS_INVALID_ARGUMENT",
    ]);
    assert.deepEqual(await run(box, "move", { source_path: "a/b", destination_path: "z" }), [
      `Error: cannot move "a/b": it holds the root "${box.portable(root)}"`,
      "FS_INVALID_ARGUMENT",
    ]);
    assert.deepEqual(await run(box, "delete", { path: "a", recursive: true }), [
      `Error: cannot delete "a": it holds the root "${box.portable(root)}"`,
      "FS_INVALID_ARGUMENT",
    ]);
    assert.equal(await box.read("a/b/vendor/v.txt"), "v\n");
    assert.equal(await box.read("a/b/x.txt"), "x\n");
    assert.equal(await box.read("z/b/x.txt"), null);
    const moved = await box.run("move", { source_path: "a/b/x.txt", destination_path: "y.txt" });
    assert.equal(moved.content, "Moved a/b/x.txt to y.txt");
  },
  { ...WITH, roots: [{ name: "root/a/b/vendor", write: false }] },
);
