// Conformance checks that run the tools over the provider. Private to src/testing.

import assert from "node:assert/strict";
import { createFsTools } from "../tools/tools.ts";
import type { FsProvider } from "../provider/fs_provider.ts";
import type { FsToolResult } from "../types.ts";
import type { ConformanceCheck, ProviderFactory } from "./fixture.ts";
import { text, withFixture } from "./_assert.ts";

function ok(result: FsToolResult): string {
  assert.equal(result.isError, false, `expected success, got ${result.content}`);
  return result.content;
}

function code(result: FsToolResult): string | undefined {
  assert.equal(result.isError, true, `expected a failure, got ${result.content}`);
  return result.error?.code;
}

function readView(path: string, lines: string[], footer: string): string {
  const body = lines.map((line) => line + "\n").join("");
  return `<path>${path}</path>\n<type>file</type>\n<content>\n${body}\n${footer}\n</content>`;
}

/** The checks of the tools over the provider (C3, C4, C5, C7), exact texts of successes included. */
export function toolChecks(factory: ProviderFactory): ConformanceCheck[] {
  const check = (name: string, fn: () => Promise<void>): ConformanceCheck => ({ name, fn });
  return [
    check(
      "C4.1: list shows directories first, then files, with the exact footer",
      () =>
        withFixture(factory, {
          files: { "root/b.txt": "b", "root/A.md": "a", "root/src/": "", "root/lib/x.ts": "x" },
        }, async (box) => {
          const tools = createFsTools({ fs: box.fs });
          assert.equal(
            ok(await tools.execute("list", {})),
            "<path>.</path>\n<type>directory</type>\n<content>\nlib/\nsrc/\nA.md\nb.txt\n\n" +
              "(4 entries: 2 directories, 2 files)\n</content>",
          );
          assert.equal(
            ok(await tools.execute("list", { path: "src" })),
            "<path>src</path>\n<type>directory</type>\n<content>\n\n(Empty directory)\n</content>",
          );
          assert.equal(code(await tools.execute("list", { path: "b.txt" })), "FS_NOT_DIRECTORY");
          assert.equal(code(await tools.execute("list", { path: "nope" })), "FS_NOT_FOUND");
          assert.equal(code(await tools.execute("list", { path: "b.txt/x" })), "FS_NOT_FOUND");
        }),
    ),
    check("C4.2: read windows and footers are the same whole-file and streamed", () => {
      const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
      return withFixture(
        factory,
        { files: { "root/a.txt": lines.join("\n") + "\n" } },
        async (box) => {
          for (const readStreamMinSize of [10485760, 1]) {
            const tools = createFsTools({ fs: box.fs, config: { readStreamMinSize } });
            assert.equal(
              ok(await tools.execute("read", { file_path: "a.txt", offset: 29 })),
              readView("a.txt", ["29: line 29", "30: line 30"], "(End of file - total 30 lines)"),
            );
            assert.equal(
              ok(await tools.execute("read", { file_path: "a.txt", offset: 2, limit: 2 })),
              readView(
                "a.txt",
                ["2: line 2", "3: line 3"],
                "(Showing lines 2-3 of 30. Use offset=4 to continue.)",
              ),
            );
            const capped = createFsTools({
              fs: box.fs,
              config: { readStreamMinSize, readMaxBytes: 20 },
            });
            assert.equal(
              ok(await capped.execute("read", { file_path: "a.txt" })),
              readView(
                "a.txt",
                ["1: line 1", "2: line 2"],
                "(Output capped. Showing lines 1-2. Use offset=3 to continue.)",
              ),
            );
            const far = await tools.execute("read", { file_path: "a.txt", offset: 31 });
            assert.equal(code(far), "FS_OFFSET_OUT_OF_RANGE");
            assert.equal(far.content, `Error: offset 31 is out of range for "a.txt" (30 lines)`);
          }
        },
      );
    }),
    check(
      "C4.2: read refuses a binary file, a directory and a missing file",
      () =>
        withFixture(factory, {
          files: { "root/bin": new Uint8Array([104, 105, 0, 1]), "root/d/": "" },
        }, async (box) => {
          const tools = createFsTools({ fs: box.fs });
          const binary = await tools.execute("read", { file_path: "bin" });
          assert.equal(code(binary), "FS_BINARY");
          assert.equal(binary.content, `Error: cannot read "bin": binary file`);
          assert.equal(
            code(await tools.execute("read", { file_path: "d" })),
            "FS_NOT_REGULAR_FILE",
          );
          assert.equal(code(await tools.execute("read", { file_path: "none" })), "FS_NOT_FOUND");
        }),
    ),
    check(
      "C4.3/C4.4/C5: write creates, read then edit updates, a change behind it is stale",
      () =>
        withFixture(factory, {}, async (box) => {
          const tools = createFsTools({ fs: box.fs });
          assert.equal(
            ok(await tools.execute("write", { file_path: "n/a.txt", content: "one\ntwo\n" })),
            "<path>n/a.txt</path>\n<type>file</type>\n<content>\nCreated file\n</content>",
          );
          assert.equal(
            ok(
              await tools.execute("edit", {
                file_path: "n/a.txt",
                old_string: "two",
                new_string: "2",
              }),
            ),
            "The file n/a.txt has been updated successfully.",
          );
          assert.equal(text(await box.read("root/n/a.txt")), "one\n2\n");
          await box.write("root/n/a.txt", "ONE\n2\n");
          const stale = await tools.execute("edit", {
            file_path: "n/a.txt",
            old_string: "2",
            new_string: "3",
          });
          assert.equal(code(stale), "FS_STALE");
          assert.equal(
            stale.content,
            `Error: cannot edit "n/a.txt": it changed since it was last read; read it again`,
          );
          ok(await tools.execute("read", { file_path: "n/a.txt" }));
          assert.equal(
            ok(await tools.execute("write", { file_path: "n/a.txt", content: "new" })),
            "<path>n/a.txt</path>\n<type>file</type>\n<content>\nUpdated file\n</content>",
          );
          assert.equal(text(await box.read("root/n/a.txt")), "new");
        }),
    ),
    check(
      "C5.5: two sessions racing to edit one file: one wins, the other is told it is stale",
      () =>
        withFixture(factory, { files: { "root/a.txt": "count 0\n" } }, async (box) => {
          const tools = createFsTools({ fs: box.fs });
          const sessions = [{}, {}];
          for (const session of sessions) {
            ok(await tools.execute("read", { file_path: "a.txt" }, { session }));
          }
          const results = await Promise.all(sessions.map((session, i) =>
            tools.execute(
              "edit",
              { file_path: "a.txt", old_string: "count 0", new_string: `count ${i + 1}` },
              { session },
            )
          ));
          assert.deepEqual(results.map((r) => r.error?.code ?? "ok").sort(), ["FS_STALE", "ok"]);
          const winner = results.findIndex((r) => !r.isError) + 1;
          assert.equal(text(await box.read("root/a.txt")), `count ${winner}\n`);
        }),
    ),
    check(
      "C5.5: two tool instances racing to edit one file: one wins, the other is stale",
      () =>
        withFixture(factory, { files: { "root/a.txt": "count 0\n" } }, async (box) => {
          // Two instances share no serializer: only the provider's check under its lock decides.
          const agents = [createFsTools({ fs: box.fs }), createFsTools({ fs: box.fs })];
          for (const tools of agents) ok(await tools.execute("read", { file_path: "a.txt" }));
          const results = await Promise.all(agents.map((tools, i) =>
            tools.execute("edit", {
              file_path: "a.txt",
              old_string: "count 0",
              new_string: `count ${i + 1}`,
            })
          ));
          assert.deepEqual(results.map((r) => r.error?.code ?? "ok").sort(), ["FS_STALE", "ok"]);
          const winner = results.findIndex((r) => !r.isError) + 1;
          assert.equal(text(await box.read("root/a.txt")), `count ${winner}\n`);
        }),
    ),
    check(
      "C5.1: a file created between the check and the write is not clobbered (FS_EXISTS)",
      () =>
        withFixture(factory, {}, async (box) => {
          // A provider whose file appears right before the write lands, as another writer's would.
          const inner = box.fs;
          const racing: FsProvider = {
            roots: inner.roots,
            resolve: (path, options) => inner.resolve(path, options),
            stat: (at, options) => inner.stat(at, options),
            listDir: (at, options) => inner.listDir(at, options),
            readText: (at, options) => inner.readText(at, options),
            streamText: (at, options) => inner.streamText(at, options),
            editText: inner.editText.bind(inner),
            listTree: (at, options) => inner.listTree(at, options),
            moveEntry: (from, to, options) => inner.moveEntry(from, to, options),
            removeEntry: (at, options) => inner.removeEntry(at, options),
            writeText: async (at, content, options) => {
              await box.write("root/a.txt", "theirs");
              return inner.writeText(at, content, options);
            },
          };
          const tools = createFsTools({ fs: racing });
          const result = await tools.execute("write", { file_path: "a.txt", content: "mine" });
          assert.equal(code(result), "FS_EXISTS");
          assert.equal(
            result.content,
            `Error: cannot write "a.txt": it was created meanwhile; read it first`,
          );
          assert.equal(text(await box.read("root/a.txt")), "theirs");
        }),
    ),
    check(
      "C3.2/C3.3: outside the roots and in a read-only root, through the tools",
      () =>
        withFixture(factory, {
          roots: [{ name: "root" }, { name: "docs", write: false }],
          files: { "docs/guide.md": "g\n", "root_evil/s.txt": "s" },
        }, async (box) => {
          const tools = createFsTools({ fs: box.fs });
          const outside = await tools.execute("read", { file_path: "../root_evil/s.txt" });
          assert.equal(code(outside), "FS_OUTSIDE_ROOT");
          assert.equal(
            outside.content,
            `Error: cannot read "../root_evil/s.txt": outside the permitted roots`,
          );
          const guide = `${box.base}/docs/guide.md`;
          assert.equal(
            ok(await tools.execute("read", { file_path: guide })).includes("1: g"),
            true,
          );
          const refused = await tools.execute("write", { file_path: guide, content: "x" });
          assert.equal(code(refused), "FS_READ_ONLY");
          assert.equal(refused.content, `Error: cannot write "${guide}": the root is read-only`);
          assert.equal(text(await box.read("docs/guide.md")), "g\n");
        }),
    ),
    check(
      "C7.2: an aborted call gives FS_ABORTED and leaves the file as it was",
      () =>
        withFixture(factory, { files: { "root/a.txt": "keep" } }, async (box) => {
          const tools = createFsTools({ fs: box.fs, policy: false });
          const signal = AbortSignal.abort();
          for (
            const [name, args] of [
              ["read", { file_path: "a.txt" }],
              ["write", { file_path: "a.txt", content: "x" }],
              ["edit", { file_path: "a.txt", old_string: "keep", new_string: "x" }],
            ] as const
          ) {
            const result = await tools.execute(name, args, { signal });
            assert.equal(code(result), "FS_ABORTED");
            assert.equal(result.content, `Error: cannot ${name} "a.txt": aborted`);
          }
          assert.equal(text(await box.read("root/a.txt")), "keep");
        }),
    ),
  ];
}
