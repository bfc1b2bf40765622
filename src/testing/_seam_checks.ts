// Conformance checks that call the provider directly. Private to src/testing.

import assert from "node:assert/strict";
import { FsError } from "../fs_error.ts";
import type { FsProvider, FsTarget } from "../provider/fs_provider.ts";
import type { ConformanceCheck, ProviderFactory } from "./fixture.ts";
import { drain, rejectsWith, target, text, withFixture } from "./_assert.ts";

const encoder = new TextEncoder();

/** A file's current version, as its whole read reports it. */
async function versionAt(fs: FsProvider, at: FsTarget): Promise<string> {
  return (await fs.readText(at)).version;
}

/** The checks of the seam itself (C1.6, C3, C5.5, C5.7, C7.2). */
export function seamChecks(factory: ProviderFactory): ConformanceCheck[] {
  const check = (name: string, fn: () => Promise<void>): ConformanceCheck => ({ name, fn });
  return [
    check(
      "C3: roots lists each root once, as a writable flag and an absolute path that resolves",
      () =>
        withFixture(factory, {
          roots: [{ name: "root" }, { name: "docs", write: false }],
        }, async (box) => {
          assert.deepEqual(box.fs.roots.map((root) => ({ ...root })), [
            { path: `${box.base}/root`, writable: true },
            { path: `${box.base}/docs`, writable: false },
          ]);
          for (const root of box.fs.roots) {
            const at = await box.fs.resolve(".", { cwd: root.path, op: "list" });
            assert.equal(at.realPath, root.path);
            assert.equal(at.root.path, root.path);
          }
        }),
    ),
    check(
      "C3.1: resolve makes a relative path absolute against cwd, lexically",
      () =>
        withFixture(factory, { files: { "root/a.txt": "a" } }, async (box) => {
          const root = box.fs.roots[0].path;
          const resolved = await box.fs.resolve("sub/../a.txt", { cwd: root, op: "read" });
          assert.equal(resolved.path, `${root}/a.txt`);
          assert.equal(resolved.realPath, `${root}/a.txt`);
          assert.deepEqual({ ...resolved.root }, { path: root, writable: true });
          const missing = await box.fs.resolve("new/dir/b.txt", { cwd: root, op: "write" });
          assert.equal(missing.realPath, `${root}/new/dir/b.txt`);
        }),
    ),
    check(
      "C3.2: resolve refuses .. out of the root and a sibling sharing the root's prefix",
      () =>
        withFixture(
          factory,
          { files: { "root_evil/secret.txt": "s", "outside.txt": "o" } },
          async (box) => {
            const cwd = box.fs.roots[0].path;
            await rejectsWith(
              box.fs.resolve("../outside.txt", { cwd, op: "read" }),
              "FS_OUTSIDE_ROOT",
            );
            await rejectsWith(
              box.fs.resolve(`${box.base}/root_evil/secret.txt`, { cwd, op: "read" }),
              "FS_OUTSIDE_ROOT",
            );
            await rejectsWith(box.fs.resolve("/", { cwd, op: "list" }), "FS_OUTSIDE_ROOT");
          },
        ),
    ),
    check(
      "C3.3/C3.7: a read-only root refuses write and edit; the most specific root decides",
      () =>
        withFixture(factory, {
          roots: [{ name: "root" }, { name: "root/docs", write: false }],
          files: { "root/docs/guide.md": "g", "root/a.txt": "a" },
        }, async (box) => {
          const cwd = box.fs.roots[0].path;
          for (const op of ["write", "edit"] as const) {
            await rejectsWith(box.fs.resolve("docs/guide.md", { cwd, op }), "FS_READ_ONLY");
            await rejectsWith(box.fs.resolve("docs/new.md", { cwd, op }), "FS_READ_ONLY");
          }
          const read = await box.fs.resolve("docs/guide.md", { cwd, op: "read" });
          assert.equal(read.root.writable, false);
          assert.equal((await box.fs.resolve("a.txt", { cwd, op: "write" })).root.writable, true);
        }),
    ),
    check(
      "C1.6: stat reports type and size; missing and below-a-file are null",
      () =>
        withFixture(factory, { files: { "root/a.txt": "héllo", "root/d/": "" } }, async (box) => {
          const file = await box.fs.stat(await target(box, "root/a.txt"));
          assert.equal(file?.type, "file");
          assert.equal(file?.size, 6);
          assert.equal((await box.fs.stat(await target(box, "root/d")))?.type, "directory");
          assert.equal(await box.fs.stat(await target(box, "root/missing")), null);
          assert.equal(await box.fs.stat(await target(box, "root/a.txt/below")), null);
        }),
    ),
    check(
      "C4.1: listDir gives each child with its own type; a file or a missing path fails",
      () =>
        withFixture(factory, {
          files: { "root/b.txt": "b", "root/a/": "", "root/a/inner.txt": "i", "root/c/": "" },
        }, async (box) => {
          const entries = await box.fs.listDir(await target(box, "root", "list"));
          const sorted = [...entries].sort((x, y) => (x.name < y.name ? -1 : 1));
          assert.deepEqual(sorted.map((e) => ({ ...e })), [
            { name: "a", type: "directory" },
            { name: "b.txt", type: "file" },
            { name: "c", type: "directory" },
          ]);
          assert.deepEqual(await box.fs.listDir(await target(box, "root/c", "list")), []);
          await rejectsWith(
            box.fs.listDir(await target(box, "root/b.txt", "list")),
            "FS_NOT_DIRECTORY",
          );
          await rejectsWith(box.fs.listDir(await target(box, "root/nope", "list")), "FS_NOT_FOUND");
        }),
    ),
    check(
      "C4.2: readText and streamText give the same bytes and version, from any position",
      () => {
        const big = "0123456789abcdef\n".repeat(40_000) + "tail without newline";
        return withFixture(
          factory,
          { files: { "root/big.txt": big, "root/empty": "" } },
          async (box) => {
            for (const name of ["root/big.txt", "root/empty"]) {
              const at = await target(box, name);
              const whole = await box.fs.readText(at);
              const handle = await box.fs.streamText(at);
              try {
                assert.equal(handle.version, whole.version);
                assert.equal(handle.size, whole.bytes.length);
                assert.equal(typeof handle.cacheKey, "string");
                assert.deepEqual(await drain(handle.chunks, 0), whole.bytes);
                const middle = Math.floor(whole.bytes.length / 2);
                assert.deepEqual(await drain(handle.chunks, middle), whole.bytes.subarray(middle));
              } finally {
                handle.close();
              }
            }
            assert.equal(
              text((await box.fs.readText(await target(box, "root/big.txt"))).bytes),
              big,
            );
          },
        );
      },
    ),
    check(
      "C4.2: readText and streamText refuse a directory and a missing file",
      () =>
        withFixture(factory, { files: { "root/d/": "" } }, async (box) => {
          const dir = await target(box, "root/d");
          const none = await target(box, "root/none");
          await rejectsWith(box.fs.readText(dir), "FS_NOT_REGULAR_FILE");
          await rejectsWith(box.fs.streamText(dir), "FS_NOT_REGULAR_FILE");
          await rejectsWith(box.fs.readText(none), "FS_NOT_FOUND");
          await rejectsWith(box.fs.streamText(none), "FS_NOT_FOUND");
        }),
    ),
    check(
      "C4.3: writeText creates (parents too), then updates, reporting the old bytes",
      () =>
        withFixture(factory, {}, async (box) => {
          const at = await target(box, "root/new/deep/a.txt", "write");
          const created = await box.fs.writeText(at, "one\n");
          assert.equal(created.operation, "create");
          assert.equal(created.before, null);
          assert.equal(created.version, await versionAt(box.fs, at));
          const updated = await box.fs.writeText(at, "two\n");
          assert.equal(updated.operation, "update");
          assert.equal(text(updated.before), "one\n");
          assert.notEqual(updated.version, created.version);
          assert.equal(text(await box.read("root/new/deep/a.txt")), "two\n");
        }),
    ),
    check("C4.3: a reader sees the old content or the new, never a mix", () => {
      const old = "old line\n".repeat(50_000);
      return withFixture(factory, { files: { "root/a.txt": old } }, async (box) => {
        const at = await target(box, "root/a.txt", "write");
        const handle = await box.fs.streamText(at);
        try {
          await box.fs.writeText(at, "new\n");
          const seen = text(await drain(handle.chunks, 0));
          assert.ok(seen === old || seen === "new\n", "a mix of old and new bytes");
        } finally {
          handle.close();
        }
        assert.equal(text((await box.fs.readText(at)).bytes), "new\n");
      });
    }),
    check(
      "C4.3/C4.4: a parent that is a file, and a directory as the target",
      () =>
        withFixture(factory, { files: { "root/f.txt": "f", "root/d/": "" } }, async (box) => {
          const below = await target(box, "root/f.txt/a.txt", "write");
          await rejectsWith(box.fs.writeText(below, "x"), "FS_NOT_DIRECTORY");
          const deeper = await target(box, "root/f.txt/x/a.txt", "write");
          await rejectsWith(box.fs.writeText(deeper, "x"), "FS_NOT_DIRECTORY");
          await rejectsWith(
            box.fs.editText(below, { content: encoder.encode("x") }),
            "FS_NOT_FOUND",
          );
          const dir = await target(box, "root/d", "write");
          await rejectsWith(box.fs.writeText(dir, "x"), "FS_NOT_REGULAR_FILE");
          await rejectsWith(
            box.fs.editText(dir, { content: encoder.encode("x") }),
            "FS_NOT_REGULAR_FILE",
          );
          assert.equal(text(await box.read("root/f.txt")), "f");
        }),
    ),
    check(
      "C5.1: precondition absent creates, and refuses a file that exists (FS_EXISTS)",
      () =>
        withFixture(factory, { files: { "root/a.txt": "old" } }, async (box) => {
          const absent = { precondition: { kind: "absent" } } as const;
          await rejectsWith(
            box.fs.writeText(await target(box, "root/a.txt", "write"), "new", absent),
            "FS_EXISTS",
          );
          assert.equal(text(await box.read("root/a.txt")), "old");
          const made = await box.fs.writeText(
            await target(box, "root/b.txt", "write"),
            "b",
            absent,
          );
          assert.equal(made.operation, "create");
        }),
    ),
    check(
      "C5.5: precondition version holds only at that version, for write and edit",
      () =>
        withFixture(factory, { files: { "root/a.txt": "old" } }, async (box) => {
          const at = await target(box, "root/a.txt", "write");
          const { version } = await box.fs.readText(at);
          await box.write("root/a.txt", "new"); // same size, new content
          const stale = { precondition: { kind: "version", version } } as const;
          await rejectsWith(box.fs.writeText(at, "mine", stale), "FS_STALE");
          await rejectsWith(
            box.fs.editText(at, { content: encoder.encode("mine") }, stale),
            "FS_STALE",
          );
          assert.equal(text(await box.read("root/a.txt")), "new");
          const current = {
            precondition: { kind: "version", version: await versionAt(box.fs, at) },
          };
          const outcome = await box.fs.writeText(at, "mine", current as never);
          assert.equal(text(outcome.before), "new");
          const gone = await target(box, "root/gone.txt", "write");
          await rejectsWith(box.fs.writeText(gone, "x", stale), "FS_STALE");
          assert.equal(await box.read("root/gone.txt"), null);
        }),
    ),
    check(
      "C4.4: editText applies one buffer or slices in order and reports before and after",
      () =>
        withFixture(factory, { files: { "root/a.txt": "hello world" } }, async (box) => {
          const at = await target(box, "root/a.txt", "edit");
          const old = (await box.fs.readText(at)).bytes;
          const sliced = await box.fs.editText(at, {
            content: [old.subarray(0, 6), encoder.encode("there")],
          });
          assert.equal(text(sliced.before), "hello world");
          assert.equal(text(sliced.after), "hello there");
          assert.equal(sliced.version, await versionAt(box.fs, at));
          const whole = await box.fs.editText(at, { content: encoder.encode("bye") });
          assert.equal(text(whole.after), "bye");
          assert.equal(text(await box.read("root/a.txt")), "bye");
          await rejectsWith(
            box.fs.editText(await target(box, "root/no.txt", "edit"), { content: old }),
            "FS_NOT_FOUND",
          );
        }),
    ),
    check(
      "C4.4: editText applies a literal replacement itself, and returns a failed match untouched",
      () =>
        withFixture(factory, {
          files: { "root/a.txt": "one\r\ntwo\r\ntwo\r\n", "root/b.bin": "a\0b" },
        }, async (box) => {
          const at = await target(box, "root/a.txt", "edit");
          const request = (oldString: string, newString: string, replaceAll = false) => ({
            oldString,
            newString,
            replaceAll,
            maxBytes: 1 << 20,
          });
          const twice = await box.fs.editText(at, request("two", "2"));
          assert.equal(twice.kind, "unmatched");
          if (twice.kind !== "unmatched") return;
          assert.deepEqual([twice.count, [...twice.positions]], [2, [5, 10]]);
          assert.equal(text(twice.before), "one\r\ntwo\r\ntwo\r\n");
          const none = await box.fs.editText(at, request("three", "3"));
          assert.deepEqual(none.kind === "unmatched" && none.count, 0);
          const done = await box.fs.editText(at, request("one\ntwo", "1\n2"));
          assert.equal(done.kind, "edited");
          if (done.kind !== "edited") return;
          assert.deepEqual([...done.replaced.positions], [0]);
          assert.equal(text(done.after), "1\r\n2\r\ntwo\r\n");
          assert.equal(done.replaced.length, done.after.length);
          assert.equal(text(await box.read("root/a.txt")), "1\r\n2\r\ntwo\r\n");
          assert.equal(done.version, await versionAt(box.fs, at));
          const bin = await target(box, "root/b.bin", "edit");
          await rejectsWith(box.fs.editText(bin, request("a", "c")), "FS_BINARY");
          await rejectsWith(
            box.fs.editText(at, { ...request("1", "x"), maxBytes: 4 }),
            "FS_IO_ERROR",
          );
          assert.equal(text(await box.read("root/a.txt")), "1\r\n2\r\ntwo\r\n");
        }),
    ),
    check(
      "C4.4: editText's content other than bytes or slices of bytes fails, the file untouched",
      () =>
        withFixture(factory, { files: { "root/a.txt": "keep" } }, async (box) => {
          const at = await target(box, "root/a.txt", "edit");
          const notBytes = { content: "text" as unknown as Uint8Array };
          await rejectsWith(box.fs.editText(at, notBytes), "FS_IO_ERROR");
          assert.equal(text(await box.read("root/a.txt")), "keep");
        }),
    ),
    check(
      "C5.7: the version changes whenever the content does, also at the same size",
      () =>
        withFixture(factory, { files: { "root/a.txt": "aaaa", "root/d/": "" } }, async (box) => {
          const at = await target(box, "root/a.txt", "write");
          const first = await versionAt(box.fs, at);
          assert.equal(typeof first, "string");
          assert.equal(await versionAt(box.fs, at), first);
          await box.write("root/a.txt", "bbbb");
          const second = await versionAt(box.fs, at);
          assert.notEqual(second, first);
          const written = await box.fs.writeText(at, "cccc");
          assert.notEqual(written.version, second);
          const edited = await box.fs.editText(at, { content: encoder.encode("dddd") });
          assert.notEqual(edited.version, written.version);
          assert.equal(edited.version, await versionAt(box.fs, at));
          if ((box.fs.entriesNeed?.() ?? null) !== null) return; // C15.5: no moves here
          const moved = await box.fs.moveEntry(at, await target(box, "root/b.txt", "move"));
          assert.equal(moved.version, edited.version, "a move keeps the file and its version");
          const b = await target(box, "root/b.txt", "write");
          assert.equal(await versionAt(box.fs, b), moved.version);
        }),
    ),
    check(
      "C5.5: concurrent edits of one file under version preconditions lose no update",
      () =>
        withFixture(factory, { files: { "root/n.txt": "" } }, async (box) => {
          const at = await target(box, "root/n.txt", "edit");
          // Each append reads, then edits under the version it read, retrying when another won.
          const append = async (mark: string) => {
            for (;;) {
              const { bytes, version } = await box.fs.readText(at);
              const precondition = { kind: "version", version } as const;
              const content = [bytes, encoder.encode(mark)];
              try {
                return await box.fs.editText(at, { content }, { precondition });
              } catch (error) {
                if (!(error instanceof FsError && error.code === "FS_STALE")) throw error;
              }
            }
          };
          await Promise.all(["a", "b", "c", "d", "e", "f", "g", "h"].map(append));
          const final = text(await box.read("root/n.txt"))!;
          assert.equal([...final].sort().join(""), "abcdefgh");
        }),
    ),
    check(
      "C7.2: an aborted signal fails every call with FS_ABORTED and changes nothing",
      () =>
        withFixture(factory, { files: { "root/a.txt": "keep", "root/d/": "" } }, async (box) => {
          const at = await target(box, "root/a.txt", "write");
          const signal = AbortSignal.abort();
          const cwd = box.fs.roots[0].path;
          await rejectsWith(box.fs.resolve("a.txt", { cwd, op: "read", signal }), "FS_ABORTED");
          await rejectsWith(box.fs.stat(at, { signal }), "FS_ABORTED");
          await rejectsWith(box.fs.listDir(await target(box, "root/d"), { signal }), "FS_ABORTED");
          await rejectsWith(box.fs.readText(at, { signal }), "FS_ABORTED");
          await rejectsWith(box.fs.streamText(at, { signal }), "FS_ABORTED");
          await rejectsWith(box.fs.writeText(at, "new", { signal }), "FS_ABORTED");
          await rejectsWith(
            box.fs.editText(at, { content: encoder.encode("new") }, { signal }),
            "FS_ABORTED",
          );
          const fresh = await target(box, "root/fresh/b.txt", "write");
          await rejectsWith(box.fs.writeText(fresh, "new", { signal }), "FS_ABORTED");
          assert.equal(text(await box.read("root/a.txt")), "keep");
          assert.equal(await box.read("root/fresh/b.txt"), null);
        }),
    ),
    check(
      "C7.2: an abort during a streamed read stops it (FS_ABORTED or an AbortError)",
      () =>
        withFixture(factory, { files: { "root/big.txt": "x\n".repeat(1 << 20) } }, async (box) => {
          const controller = new AbortController();
          const handle = await box.fs.streamText(await target(box, "root/big.txt"), {
            signal: controller.signal,
          });
          let chunks = 0;
          try {
            await assert.rejects(
              async () => {
                for await (const _ of handle.chunks(0)) {
                  chunks++;
                  controller.abort();
                }
              },
              (error: unknown) =>
                (error instanceof FsError && error.code === "FS_ABORTED") ||
                (error instanceof DOMException && error.name === "AbortError"),
            );
            assert.equal(chunks, 1, "no chunk after the abort");
          } finally {
            handle.close();
          }
        }),
    ),
  ];
}
