// CONTRACT C5 (read-before-write) at the tools level: sessions, versions, serialization.

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  createFsTools,
  type FsIntent,
  type FsObservation,
  type FsPolicy,
  LocalFileSystem,
  ReadBeforeWritePolicy,
} from "../../mod.ts";
import type { FsPrecondition } from "../../provider.ts";
import { encoder, failed, ok, tempFiles, writeText } from "../_helpers.ts";
import { sandbox } from "../_sandbox.ts";

/** The default policy, except that it creates the file right after approving a create. */
class AppearingFilePolicy implements FsPolicy {
  #inner = new ReadBeforeWritePolicy();
  async writeIntent(intent: FsIntent): Promise<FsPrecondition> {
    const precondition = this.#inner.writeIntent(intent);
    if (!intent.exists) await Deno.writeTextFile(intent.realPath, "theirs\n");
    return precondition;
  }
  editIntent(intent: FsIntent): FsPrecondition {
    return this.#inner.editIntent(intent);
  }
  observed(observation: FsObservation): void {
    this.#inner.observed(observation);
  }
}

Deno.test("C5.1 overwriting needs a read at the current version; creating needs none", async () => {
  await using box = await sandbox("local", { "old.txt": "old\n" });
  const { root, tools } = box;
  assert.equal(
    ok(await tools.execute("write", { file_path: "fresh.txt", content: "new\n" })),
    writeText("fresh.txt", true),
  );
  assert.deepEqual(failed(await tools.execute("write", { file_path: "old.txt", content: "x" })), [
    'Error: cannot write "old.txt": the file already exists; read it first',
    "FS_NOT_OBSERVED",
  ]);
  ok(await tools.execute("read", { file_path: "old.txt" }));
  await Deno.writeTextFile(join(root, "old.txt"), "changed by someone else\n");
  assert.deepEqual(failed(await tools.execute("write", { file_path: "old.txt", content: "x" })), [
    'Error: cannot write "old.txt": it changed since it was last read; read it again',
    "FS_STALE",
  ]);
  assert.equal(await Deno.readTextFile(join(root, "old.txt")), "changed by someone else\n");
  ok(await tools.execute("read", { file_path: "old.txt" }));
  ok(await tools.execute("write", { file_path: "old.txt", content: "x" }));
});

Deno.test("C5.1 a file that appears between the check and the create fails with FS_EXISTS", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  const tools = box.toolsWith({ policy: new AppearingFilePolicy() });
  assert.deepEqual(
    failed(await tools.execute("write", { file_path: "new.txt", content: "mine\n" })),
    [
      'Error: cannot write "new.txt": it was created meanwhile; read it first',
      "FS_EXISTS",
    ],
  );
  assert.equal(await Deno.readTextFile(join(root, "new.txt")), "theirs\n");
  assert.deepEqual(await tempFiles(root), []);
});

Deno.test("C5.2 edit needs a read observation of any window at the current version", async () => {
  await using box = await sandbox("local", { "a.txt": "1\n2\n3\n4\n" });
  const { root, tools } = box;
  assert.deepEqual(
    failed(
      await tools.execute("edit", { file_path: "a.txt", old_string: "1", new_string: "one" }),
    ),
    ['Error: cannot edit "a.txt": read it first', "FS_NOT_OBSERVED"],
  );
  ok(await tools.execute("read", { file_path: "a.txt", offset: 4, limit: 1 }));
  ok(await tools.execute("edit", { file_path: "a.txt", old_string: "1", new_string: "one" }));
  await Deno.writeTextFile(join(root, "a.txt"), "one\n2\n3\n4\n5\n");
  assert.deepEqual(
    failed(
      await tools.execute("edit", { file_path: "a.txt", old_string: "2", new_string: "two" }),
    ),
    ['Error: cannot edit "a.txt": it changed since it was last read; read it again', "FS_STALE"],
  );
});

Deno.test("C5.3 the never-read and changed-since-read messages name the operation and path", async () => {
  await using box = await sandbox("local", { "sub/a.txt": "a\n" });
  const { root, tools } = box;
  assert.equal(
    (await tools.execute("write", { file_path: "sub/a.txt", content: "b" })).content,
    'Error: cannot write "sub/a.txt": the file already exists; read it first',
  );
  assert.equal(
    (await tools.execute("edit", { file_path: "a.txt", old_string: "a", new_string: "b" }, {
      cwd: "sub",
    })).content,
    'Error: cannot edit "a.txt": read it first',
  );
  ok(await tools.execute("read", { file_path: "sub/a.txt" }));
  await Deno.writeTextFile(join(root, "sub/a.txt"), "z\n");
  assert.equal(
    (await tools.execute("edit", { file_path: "a.txt", old_string: "z", new_string: "b" }, {
      cwd: "sub",
    })).content,
    'Error: cannot edit "a.txt": it changed since it was last read; read it again',
  );
});

Deno.test("C5.4 a list never counts as a read; a session's own write and edit do", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { tools } = box;
  ok(await tools.execute("list", {}));
  assert.equal(
    (await tools.execute("edit", { file_path: "a.txt", old_string: "a", new_string: "b" })).error
      ?.code,
    "FS_NOT_OBSERVED",
  );
  ok(await tools.execute("write", { file_path: "b.txt", content: "b\n" }));
  ok(await tools.execute("edit", { file_path: "b.txt", old_string: "b", new_string: "c" }));
  ok(await tools.execute("write", { file_path: "b.txt", content: "d\n" }));
});

Deno.test("C5.5 20 concurrent edits of one file by one session all land", async () => {
  const text = Array.from({ length: 20 }, (_, i) => `slot ${i}: todo`).join("\n") + "\n";
  await using box = await sandbox("local", { "slots.txt": text });
  const { root, tools } = box;
  ok(await tools.execute("read", { file_path: "slots.txt" }));
  const results = await Promise.all(
    Array.from(
      { length: 20 },
      (_, i) =>
        tools.execute("edit", {
          file_path: "slots.txt",
          old_string: `slot ${i}: todo`,
          new_string: `slot ${i}: done`,
        }),
    ),
  );
  assert.deepEqual(
    results.map((r) => r.content),
    Array(20).fill("The file slots.txt has been updated successfully."),
  );
  assert.equal(
    await Deno.readTextFile(join(root, "slots.txt")),
    Array.from({ length: 20 }, (_, i) => `slot ${i}: done`).join("\n") + "\n",
  );
  assert.deepEqual(await tempFiles(root), []);
});

Deno.test("C5.5 two sessions racing on one file never lose an update", async () => {
  await using box = await sandbox("local", { "a.txt": "alpha beta\n" });
  const { root, tools } = box;
  const alice = {};
  const bob = {};
  ok(await tools.execute("read", { file_path: "a.txt" }, { session: alice }));
  ok(await tools.execute("read", { file_path: "a.txt" }, { session: bob }));
  const [a, b] = await Promise.all([
    tools.execute("edit", { file_path: "a.txt", old_string: "alpha", new_string: "ALPHA" }, {
      session: alice,
    }),
    tools.execute("edit", { file_path: "a.txt", old_string: "beta", new_string: "BETA" }, {
      session: bob,
    }),
  ]);
  assert.deepEqual([a.isError, b.isError].sort(), [false, true]);
  const loser = a.isError ? a : b;
  assert.equal(
    loser.content,
    'Error: cannot edit "a.txt": it changed since it was last read; read it again',
  );
  const text = await Deno.readTextFile(join(root, "a.txt"));
  assert.equal(text, a.isError ? "alpha BETA\n" : "ALPHA beta\n");
});

Deno.test("C5.5 concurrent edits with policy false are serialized and all land", async () => {
  const text = Array.from({ length: 20 }, (_, i) => `[${i}]`).join("");
  await using box = await sandbox("local", { "a.txt": text });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [root] });
  // Two tool sets over one provider: the provider's lock alone must serialize them.
  const one = createFsTools({ fs, policy: false });
  const two = createFsTools({ fs, policy: false });
  const results = await Promise.all(
    Array.from(
      { length: 20 },
      (_, i) =>
        (i % 2 ? one : two).execute("edit", {
          file_path: "a.txt",
          old_string: `[${i}]`,
          new_string: `<${i}>`,
        }),
    ),
  );
  assert.ok(results.every((r) => !r.isError), results.map((r) => r.content).join("\n"));
  assert.equal(
    await Deno.readTextFile(join(root, "a.txt")),
    Array.from({ length: 20 }, (_, i) => `<${i}>`).join(""),
  );
});

Deno.test("C5.6 with policy false writes and edits are unconditional", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { root } = box;
  const tools = box.toolsWith({ policy: false });
  ok(await tools.execute("edit", { file_path: "a.txt", old_string: "a", new_string: "b" }));
  await Deno.writeTextFile(join(root, "a.txt"), "changed\n");
  ok(await tools.execute("write", { file_path: "a.txt", content: "c\n" }));
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "c\n");
});

Deno.test("C5.7 the version changes with content even when size and mtime are put back", async () => {
  await using box = await sandbox("local", { "a.txt": "aaaa\n" });
  const { root } = box;
  const path = join(root, "a.txt");
  const { tools } = box;
  ok(await tools.execute("read", { file_path: "a.txt" }));
  const { mtime, atime } = await Deno.stat(path);
  // Same size, same inode (rewritten in place), mtime restored.
  await Deno.writeTextFile(path, "bbbb\n");
  await Deno.utime(path, atime!, mtime!);
  const now = await Deno.stat(path);
  assert.equal(now.mtime?.getTime(), mtime?.getTime());
  assert.equal(now.size, 5);
  assert.deepEqual(
    failed(await tools.execute("write", { file_path: "a.txt", content: "mine\n" })),
    [
      'Error: cannot write "a.txt": it changed since it was last read; read it again',
      "FS_STALE",
    ],
  );
  assert.equal(await Deno.readTextFile(path), "bbbb\n");
});

Deno.test("C5.7 the version changes with identity, size or mtime alone", async () => {
  await using box = await sandbox("local", { "a.txt": "same\n", "b.txt": "same\n" });
  const { root } = box;
  const path = join(root, "a.txt");
  const { tools } = box;
  const stale = async () =>
    (await tools.execute("edit", { file_path: "a.txt", old_string: "same", new_string: "mine" }))
      .error?.code;
  // Identity: another file with the same bytes and mtime moved into place.
  ok(await tools.execute("read", { file_path: "a.txt" }));
  const info = await Deno.stat(path);
  await Deno.utime(join(root, "b.txt"), info.atime!, info.mtime!);
  await Deno.rename(join(root, "b.txt"), path);
  assert.equal(await stale(), "FS_STALE");
  // mtime alone.
  ok(await tools.execute("read", { file_path: "a.txt" }));
  await Deno.utime(path, new Date(2001, 1, 1), new Date(2001, 1, 1));
  assert.equal(await stale(), "FS_STALE");
  // Nothing changed: the edit goes through.
  ok(await tools.execute("read", { file_path: "a.txt" }));
  ok(await tools.execute("read", { file_path: "a.txt" }));
  assert.equal(await stale(), undefined);
});

Deno.test("C5.5 one session's concurrent creates of one new file all land, one after the other", async () => {
  await using box = await sandbox("local");
  const { root, tools } = box;
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

Deno.test("C5.5 a racing second session gets FS_STALE, never a lost update, for every interleaving", async () => {
  await using box = await sandbox("local", { "c.txt": "0" });
  const { tools } = box;
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

Deno.test("C5 sessions are isolated: one session's read or write does not let another write", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { tools } = box;
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

Deno.test("C5.7 a stale check also holds for files above readStreamMinSize", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  const path = join(root, "big.txt");
  await Deno.writeTextFile(path, "x".repeat(100_000) + "\n");
  const tools = box.toolsWith({ config: { readStreamMinSize: 1000 } });
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
