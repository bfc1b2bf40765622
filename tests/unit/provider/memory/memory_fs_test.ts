// MemoryFileSystem details below the tools: copies, handles, hand-made targets (C1.7).

import assert from "node:assert/strict";
import { FsError, LocalFileSystem, type RootSpec } from "../../../../mod.ts";
import type { FsTarget, RootSpec as ProviderRootSpec } from "../../../../provider.ts";
import {
  MemoryFileSystem,
  type MemoryRootSpec,
  type RootSpec as MemoryEntryRootSpec,
} from "../../../../memory.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function at(fs: MemoryFileSystem, path: string): FsTarget {
  return { path, realPath: path, root: fs.roots[0] };
}

async function code(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    assert.ok(error instanceof FsError, String(error));
    return error.code;
  }
}

Deno.test("C1.7: initial bytes are copied: changing the caller's array later changes no file", async () => {
  const bytes = encoder.encode("abc");
  const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/a": bytes } });
  bytes[0] = 0x7a;
  assert.equal(decoder.decode((await fs.readText(at(fs, "/w/a"))).bytes), "abc");
  const read = await fs.readText(at(fs, "/w/a"));
  read.bytes[0] = 0x7a;
  assert.equal(decoder.decode(fs.readFile("/w/a")), "abc");
  const edited = await fs.editText(at(fs, "/w/a"), {
    content: [encoder.encode("abc"), encoder.encode("d")],
  });
  edited.after[0] = 0x7a;
  assert.equal(decoder.decode(fs.readFile("/w/a")), "abcd");
});

Deno.test("C1.7: a path ending in / is an empty directory; roots may nest and normalize", async () => {
  const fs = new MemoryFileSystem({
    roots: ["/w/", { path: "/w/docs//", write: false }],
    files: { "/w/empty/": "", "/w/docs/a.md": "a" },
  });
  assert.deepEqual(fs.roots.map((r) => r.path), ["/w", "/w/docs"]);
  assert.deepEqual(await fs.listDir(at(fs, "/w/empty")), []);
  assert.deepEqual(fs.paths(), ["/w/docs/a.md"]);
  const target = await fs.resolve("docs/a.md", { cwd: "/w", op: "read" });
  assert.equal(target.root.writable, false);
});

Deno.test("C1.7: hand-made targets are checked too: outside and read-only roots", async () => {
  const fs = new MemoryFileSystem({
    roots: ["/w", { path: "/ro", write: false }],
    files: { "/etc/secret": "s", "/ro/a": "a" },
  });
  const outside = at(fs, "/etc/secret");
  assert.equal(await code(fs.readText(outside)), "FS_OUTSIDE_ROOT");
  assert.equal(await code(fs.stat(outside)), "FS_OUTSIDE_ROOT");
  assert.equal(await code(fs.writeText(outside, "x")), "FS_OUTSIDE_ROOT");
  assert.equal(await code(fs.writeText(at(fs, "/ro/a"), "x")), "FS_READ_ONLY");
  assert.equal(
    await code(fs.editText(at(fs, "/ro/a"), { content: encoder.encode("b") })),
    "FS_READ_ONLY",
  );
  assert.equal(decoder.decode(fs.readFile("/etc/secret")), "s");
  assert.equal(decoder.decode(fs.readFile("/ro/a")), "a");
});

Deno.test("C1.7: a read handle serves any position and refuses reads once closed", async () => {
  const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/a": "0123456789" }, chunkSize: 4 });
  const handle = await fs.streamText(at(fs, "/w/a"));
  const chunks: string[] = [];
  for await (const chunk of handle.chunks(3)) chunks.push(decoder.decode(chunk));
  assert.deepEqual(chunks, ["3456", "789"]);
  for await (const _ of handle.chunks(10)) assert.fail("nothing past the end");
  handle.close();
  assert.equal(
    await code((async () => {
      for await (const _ of handle.chunks(0)) { /* drain */ }
    })()),
    "FS_IO_ERROR",
  );
});

Deno.test("C1.7: editText's content other than bytes fails as FS_IO_ERROR, file intact", async () => {
  const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/a": "keep" } });
  const bad = { content: "text" as unknown as Uint8Array };
  assert.equal(await code(fs.editText(at(fs, "/w/a"), bad)), "FS_IO_ERROR");
  assert.equal(decoder.decode(fs.readFile("/w/a")), "keep");
});

Deno.test("C1.7: the host API refuses relative paths and directories in a file's place", () => {
  const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/d/": "" } });
  assert.throws(() => fs.writeFile("w/a", "x"), /file "w\/a" must be an absolute POSIX path/);
  assert.throws(() => fs.writeFile("/w/d", "x"), /conflicts/);
  assert.throws(() => fs.readFile("relative"), TypeError);
  assert.throws(() => new MemoryFileSystem({ roots: ["/w"], chunkSize: 0 }), /chunkSize/);
  assert.equal(fs.remove("/"), false);
});

Deno.test("C1.7: one RootSpec for both providers; MemoryRootSpec and every entry's RootSpec are it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/docs`);
    // One list of roots, typed by each entry's name for it, drives both providers alike.
    const specs: RootSpec[] = [dir, { path: `${dir}/docs`, write: false }];
    const memorySpecs: MemoryRootSpec[] = specs;
    const providerSpecs: ProviderRootSpec[] = memorySpecs;
    const memorySpec: MemoryEntryRootSpec = providerSpecs[1];
    const local = new LocalFileSystem({ roots: providerSpecs });
    const memory = new MemoryFileSystem({ roots: [dir, memorySpec] });
    const real = await Deno.realPath(dir);
    assert.deepEqual(local.roots.map((r) => [r.path.replace(real, dir), r.writable]), [
      [dir, true],
      [`${dir}/docs`, false],
    ]);
    assert.deepEqual(memory.roots.map((r) => [r.path, r.writable]), [
      [dir, true],
      [`${dir}/docs`, false],
    ]);
    for (const fs of [local, memory]) {
      const target = await fs.resolve(`${dir}/docs/a.txt`, { cwd: dir, op: "read" });
      assert.equal(target.root.writable, false);
      assert.equal(await code(fs.resolve("docs/a.txt", { cwd: dir, op: "write" })), "FS_READ_ONLY");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
