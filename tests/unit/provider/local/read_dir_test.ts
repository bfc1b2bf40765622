// Tests of the directory reading behind `list` (src/provider/local/_read_dir.ts), CONTRACT C4.1: a
// big directory is read in a worker thread, a small one in place, with the same entries and
// types as `Deno.readDir`.

import assert from "node:assert/strict";
import { join } from "node:path";
import { LocalFileSystem } from "../../../../mod.ts";
import { readDirEntries } from "../../../../src/provider/local/_read_dir.ts";
import { sandbox } from "../../../_sandbox.ts";

async function expected(path: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    const type = entry.isDirectory ? "directory" : entry.isFile ? "file" : "other";
    out.push(`${type} ${entry.name}`);
  }
  return out.sort();
}

Deno.test("read_dir: a big directory lists the same entries and types as Deno.readDir", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  const big = join(root, "big");
  await Deno.mkdir(big);
  for (let i = 0; i < 1500; i++) {
    const name = join(big, `entry-with-a-longish-name-${i}`);
    if (i % 7 === 0) await Deno.mkdir(name);
    else await Deno.writeFile(name, new Uint8Array());
  }
  await Deno.symlink("entry-with-a-longish-name-1", join(big, "link"));
  const size = (await Deno.stat(big)).size;
  const want = await expected(big);
  // Once as the directory's real size says, once forced through the worker, once in place.
  for (const sizeHint of [size, 1 << 30, 1]) {
    const got = (await readDirEntries(big, sizeHint)).map((e) => `${e.type} ${e.name}`).sort();
    assert.deepEqual(got, want, `size hint ${sizeHint}`);
  }
  const fs = new LocalFileSystem({ roots: [root] });
  const listed = await fs.listDir(await fs.resolve("big", { cwd: root, op: "list" }));
  assert.equal(listed.length, 1501);
});

Deno.test("read_dir: the worker's errors are Deno's error classes", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  await assert.rejects(readDirEntries(join(root, "missing"), 1 << 30), Deno.errors.NotFound);
  await Deno.writeTextFile(join(root, "file"), "x");
  await assert.rejects(readDirEntries(join(root, "file"), 1 << 30), Deno.errors.NotADirectory);
});

Deno.test("read_dir: an aborted read of a big directory rejects with the abort", async () => {
  await using box = await sandbox("local", { "a/": "" });
  const { root } = box;
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(readDirEntries(join(root, "a"), 1 << 30, controller.signal));
  const pending = new AbortController();
  const read = readDirEntries(join(root, "a"), 1 << 30, pending.signal);
  pending.abort();
  await assert.rejects(read);
});
