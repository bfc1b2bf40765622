// Unit tests of the Deno provider (src/provider/local/) through the FsProvider seam.

import assert from "node:assert/strict";
import { join } from "node:path";
import { FsError, LocalFileSystem } from "../../../../mod.ts";
import type { FsTarget } from "../../../../provider.ts";
import { decoder, encoder, tempFiles } from "../../../_helpers.ts";
import { sandbox } from "../../../_sandbox.ts";

async function fsError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof FsError, `not an FsError: ${error}`);
    return error.code;
  }
  throw new Error("expected an FsError");
}

/** A file's current version, as its whole read reports it. */
async function versionOf(fs: LocalFileSystem, target: FsTarget): Promise<string> {
  return (await fs.readText(target)).version;
}

async function collect(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ bytes: number[]; sizes: number[] }> {
  const bytes: number[] = [];
  const sizes: number[] = [];
  for await (const chunk of chunks) {
    bytes.push(...chunk);
    sizes.push(chunk.length);
  }
  return { bytes, sizes };
}

Deno.test("local_fs: a root spec must be a non-empty path without NUL", () => {
  for (const spec of ["", "a\0b", 42, null, { path: "" }, { write: false }]) {
    assert.throws(
      () => new LocalFileSystem({ roots: [spec as never] }),
      TypeError,
      JSON.stringify(spec),
    );
  }
  assert.throws(() => new LocalFileSystem({ roots: [] }), TypeError);
  assert.throws(() => new LocalFileSystem(undefined as never), TypeError);
});

Deno.test("local_fs: roots are frozen real paths with their write flag", async () => {
  await using box = await sandbox("local", { "ro/": "" });
  const { root } = box;
  const fs = new LocalFileSystem({
    roots: [root + "/", { path: join(root, "ro"), write: false }],
  });
  assert.deepEqual(fs.roots, [{ path: root, writable: true }, {
    path: join(root, "ro"),
    writable: false,
  }]);
  assert.ok(Object.isFrozen(fs.roots) && Object.isFrozen(fs.roots[0]));
  await Promise.resolve();
});

Deno.test("local_fs: resolve gives the lexical path, the real path and the deciding root", async () => {
  await using box = await sandbox("local", { "real/a.txt": "a" });
  const { root } = box;
  await Deno.symlink("real", join(root, "link"));
  const fs = new LocalFileSystem({ roots: [root] });
  const target = await fs.resolve("link/a.txt", { cwd: root, op: "read" });
  assert.deepEqual(target, {
    path: join(root, "link/a.txt"),
    realPath: join(root, "real/a.txt"),
    root: { path: root, writable: true },
  });
  // A path that does not exist yet: the nearest existing ancestor's real path plus the rest.
  const fresh = await fs.resolve("link/new/deep.txt", { cwd: root, op: "write" });
  assert.equal(fresh.realPath, join(root, "real/new/deep.txt"));
  assert.equal(await fsError(fs.resolve("../x", { cwd: root, op: "read" })), "FS_OUTSIDE_ROOT");
  const ro = new LocalFileSystem({ roots: [{ path: root, write: false }] });
  await ro.resolve("link/a.txt", { cwd: root, op: "read" });
  assert.equal(
    await fsError(ro.resolve("link/a.txt", { cwd: root, op: "edit" })),
    "FS_READ_ONLY",
  );
});

Deno.test("local_fs: stat follows in-root links and is null for a missing path", async () => {
  await using box = await sandbox("local", { "a.txt": "abc", "d/": "" });
  const { root } = box;
  await Deno.symlink("a.txt", join(root, "l"));
  const fs = new LocalFileSystem({ roots: [root] });
  const at = (path: string) => fs.resolve(path, { cwd: root, op: "read" });
  const file = await fs.stat(await at("l"));
  assert.equal(file?.type, "file");
  assert.equal(file?.size, 3);
  assert.equal(typeof file?.mtimeMs, "number");
  assert.equal((await fs.stat(await at("d")))?.type, "directory");
  assert.equal(await fs.stat(await at("missing")), null);
  assert.equal(await fs.stat(await at("a.txt/x")), null);
});

Deno.test("local_fs: listDir reports each entry's own type, links as other", async () => {
  await using box = await sandbox("local", { "a.txt": "", "d/": "" });
  const { root } = box;
  await Deno.symlink("d", join(root, "l"));
  const fs = new LocalFileSystem({ roots: [root] });
  const entries = await fs.listDir(await fs.resolve(".", { cwd: root, op: "list" }));
  assert.deepEqual(entries.sort((a, b) => a.name < b.name ? -1 : 1), [
    { name: "a.txt", type: "file" },
    { name: "d", type: "directory" },
    { name: "l", type: "other" },
  ]);
  const file = await fs.resolve("a.txt", { cwd: root, op: "list" });
  assert.equal(await fsError(fs.listDir(file)), "FS_NOT_DIRECTORY");
});

Deno.test("local_fs: readText's version is stable and changes with the content", async () => {
  await using box = await sandbox("local", { "a.txt": "one" });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [root] });
  const target = await fs.resolve("a.txt", { cwd: root, op: "read" });
  const first = await fs.readText(target);
  assert.equal(decoder.decode(first.bytes), "one");
  assert.equal((await fs.readText(target)).version, first.version);
  await Deno.writeTextFile(join(root, "a.txt"), "two");
  assert.notEqual((await fs.readText(target)).version, first.version);
  const missing = await fs.resolve("nope", { cwd: root, op: "read" });
  assert.equal(await fsError(fs.readText(missing)), "FS_NOT_FOUND");
  const dir = await fs.resolve(".", { cwd: root, op: "read" });
  assert.equal(await fsError(fs.readText(dir)), "FS_NOT_REGULAR_FILE");
});

Deno.test("local_fs: streamText yields chunks of at most chunkSize from any position", async () => {
  const text = "0123456789abcdefghij";
  await using box = await sandbox("local", { "a.txt": text });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [root], chunkSize: 7 });
  const target = await fs.resolve("a.txt", { cwd: root, op: "read" });
  const handle = await fs.streamText(target);
  try {
    assert.equal(handle.size, 20);
    assert.equal(handle.version, (await fs.readText(target)).version);
    const all = await collect(handle.chunks(0));
    assert.equal(decoder.decode(new Uint8Array(all.bytes)), text);
    assert.ok(all.sizes.every((size) => size <= 7), `${all.sizes}`);
    const tail = await collect(handle.chunks(15));
    assert.equal(decoder.decode(new Uint8Array(tail.bytes)), "fghij");
  } finally {
    handle.close();
  }
  handle.close(); // closing twice is harmless
});

Deno.test("local_fs: writeText checks its precondition under the lock", async () => {
  await using box = await sandbox("local", { "a.txt": "old" });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [root] });
  const at = (path: string) => fs.resolve(path, { cwd: root, op: "write" });
  const a = await at("a.txt");
  const version = (await fs.readText(a)).version;
  assert.equal(
    await fsError(fs.writeText(a, "x", { precondition: { kind: "absent" } })),
    "FS_EXISTS",
  );
  assert.equal(
    await fsError(fs.writeText(a, "x", { precondition: { kind: "version", version: "nope" } })),
    "FS_STALE",
  );
  const fresh = await at("b.txt");
  assert.equal(
    await fsError(fs.writeText(fresh, "x", { precondition: { kind: "version", version } })),
    "FS_STALE",
  );
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "old");
  const outcome = await fs.writeText(a, "new", { precondition: { kind: "version", version } });
  assert.equal(outcome.operation, "update");
  assert.equal(decoder.decode(outcome.before!), "old");
  assert.equal(outcome.version, await versionOf(fs, a));
  const created = await fs.writeText(fresh, "b", { precondition: { kind: "absent" } });
  assert.deepEqual([created.operation, created.before], ["create", null]);
  assert.equal(created.version, await versionOf(fs, fresh));
  assert.deepEqual(await tempFiles(root), []);
});

Deno.test("local_fs: editText writes the contents given; content that is not bytes leaves the file", async () => {
  await using box = await sandbox("local", { "a.txt": "abc" });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [root] });
  const a = await fs.resolve("a.txt", { cwd: root, op: "edit" });
  const outcome = await fs.editText(a, { content: encoder.encode("ABC") });
  assert.equal(decoder.decode(outcome.before), "abc");
  assert.equal(decoder.decode(outcome.after), "ABC");
  assert.equal(outcome.version, await versionOf(fs, a));
  const notBytes = { content: "text" as unknown as Uint8Array };
  assert.equal(await fsError(fs.editText(a, notBytes)), "FS_IO_ERROR");
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "ABC");
  const missing = await fs.resolve("b.txt", { cwd: root, op: "edit" });
  assert.equal(await fsError(fs.editText(missing, { content: outcome.after })), "FS_NOT_FOUND");
  assert.deepEqual(await tempFiles(root), []);
});

Deno.test("local_fs: an edit returned as slices writes them in order, with the same version", async () => {
  // Both digests of C5.7: the whole content (up to fullDigestMaxSize), and the first and last
  // 256 KiB of a larger file, with slice boundaries on both sides of those edges.
  const KiB = 1024;
  const cases = [
    { fullDigestMaxSize: undefined, size: 3 * KiB, cuts: [0, 1, 100, 2048, 3 * KiB] },
    { fullDigestMaxSize: 512 * KiB, size: 1536 * KiB, cuts: [0, 7, 256 * KiB, 256 * KiB + 1] },
    { fullDigestMaxSize: 512 * KiB, size: 1536 * KiB, cuts: [255 * KiB, 1280 * KiB - 1] },
    { fullDigestMaxSize: 512 * KiB, size: 600 * KiB, cuts: [300 * KiB, 599 * KiB] },
  ];
  for (const { fullDigestMaxSize, size, cuts } of cases) {
    await using box = await sandbox("local", { "a.txt": "x" });
    const { root } = box;
    const fs = new LocalFileSystem({ roots: [root], fullDigestMaxSize });
    const a = await fs.resolve("a.txt", { cwd: root, op: "edit" });
    const content = new Uint8Array(size);
    for (let i = 0; i < size; i++) content[i] = (i * 7919 + (i >>> 10)) & 0xff;
    const bounds = [...new Set([0, ...cuts, size])].sort((x, y) => x - y);
    const slices = bounds.slice(1).map((end, i) => content.subarray(bounds[i], end));
    slices.splice(1, 0, new Uint8Array()); // an empty slice changes nothing
    const sliced = await fs.editText(a, { content: slices });
    const label = `${size} bytes cut at ${cuts}`;
    assert.deepEqual(await Deno.readFile(join(root, "a.txt")), content, label);
    assert.equal(sliced.version, await versionOf(fs, a), label);
    assert.deepEqual(sliced.after, content, label);
    assert.ok(Object.keys(sliced).includes("after"), label);
    // The same content returned whole: only the file's identity part of the version differs.
    const whole = await fs.editText(a, { content: content.slice() });
    const digest = (version: string) => version.slice(version.lastIndexOf(":"));
    assert.equal(digest(whole.version), digest(sliced.version), label);
    assert.equal(whole.version, await versionOf(fs, a), label);
  }
});

Deno.test("local_fs: every method fails with FS_ABORTED on an aborted signal", async () => {
  await using box = await sandbox("local", { "a.txt": "a" });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [root] });
  const target: FsTarget = await fs.resolve("a.txt", { cwd: root, op: "write" });
  const signal = AbortSignal.abort();
  const dir = await fs.resolve(".", { cwd: root, op: "list" });
  const calls: (() => Promise<unknown>)[] = [
    () => fs.resolve("a.txt", { cwd: root, op: "read", signal }),
    () => fs.stat(target, { signal }),
    () => fs.listDir(dir, { signal }),
    () => fs.readText(target, { signal }),
    () => fs.streamText(target, { signal }),
    () => fs.writeText(target, "b", { signal }),
    () => fs.editText(target, { content: encoder.encode("b") }, { signal }),
  ];
  for (const call of calls) assert.equal(await fsError(call()), "FS_ABORTED");
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "a");
});

Deno.test("local_fs: an aborted stream stops between chunks", async () => {
  await using box = await sandbox("local", { "a.txt": "x".repeat(1000) });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [root], chunkSize: 10 });
  const controller = new AbortController();
  const target = await fs.resolve("a.txt", { cwd: root, op: "read" });
  const handle = await fs.streamText(target, { signal: controller.signal });
  let seen = 0;
  try {
    await assert.rejects(async () => {
      for await (const chunk of handle.chunks(0)) {
        seen += chunk.length;
        if (seen >= 30) controller.abort();
      }
    });
  } finally {
    handle.close();
  }
  assert.equal(seen, 30);
});

Deno.test("local_fs: a file swapped for an outside link after resolve is not read", async () => {
  await using box = await sandbox("local", { "a.txt": "inside" });
  const { base: dir, root } = box;
  await Deno.writeTextFile(join(dir, "secret.txt"), "secret");
  const fs = new LocalFileSystem({ roots: [root] });
  const target = await fs.resolve("sub/a.txt", { cwd: root, op: "read" });
  // Between the check and the open, `sub` appears as a link out of the root.
  await Deno.mkdir(join(dir, "out"));
  await Deno.writeTextFile(join(dir, "out/a.txt"), "secret");
  await Deno.symlink(join(dir, "out"), join(root, "sub"));
  const code = await fsError(fs.readText(target));
  assert.ok(code === "FS_OUTSIDE_ROOT" || code === "FS_NOT_FOUND", code);
});
