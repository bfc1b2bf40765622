// The synchronous search fast path of LocalFileSystem (C9.2, C11): descriptors opened without
// following the last name and without blocking on a FIFO; chunks alternating between the
// shared buffer's halves; the literal-guided line scan. Runs under -A (/proc/self/fd) and falls
// back to the path checks otherwise: both must give the same answers.

import { deepEqual, equal, rejects } from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { LocalFileSystem } from "../mod.ts";
import { FsError } from "../src/fs_error.ts";
import { compileGrepPattern, GrepScanner } from "../src/text/grep_scan.ts";
import { mkfifo, needsRun, ok, toolsAt, withSandbox } from "./_helpers.ts";

async function chunksOf(fs: LocalFileSystem, path: string, buffer?: Uint8Array) {
  const target = await fs.resolve(path, { cwd: "/", op: "read" });
  const iterable = await fs.searchChunks(target, { buffer });
  const out: Uint8Array[] = [];
  let previous: { chunk: Uint8Array; copy: Uint8Array } | null = null;
  for await (const chunk of iterable) {
    // The chunk before this one is still intact (the halves alternate).
    if (previous) deepEqual(previous.chunk, previous.copy);
    previous = { chunk, copy: chunk.slice() };
    out.push(chunk.slice());
  }
  const all = new Uint8Array(out.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of out) all.set(c, (at += c.length) - c.length);
  return { all, count: out.length };
}

Deno.test("C9.2: searchChunks reads a file whole in alternating halves of the shared buffer", async () => {
  const big = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => 97 + (i % 26));
  await withSandbox({ "big.txt": big, "small.txt": "a\nb\n", "empty.txt": "" }, async (box) => {
    const fs = new LocalFileSystem({ roots: [box.root] });
    const buffer = new Uint8Array(1 << 20);
    const read = await chunksOf(fs, join(box.root, "big.txt"), buffer);
    deepEqual(read.all, big);
    equal(read.count, 7); // 512 KiB halves
    deepEqual(
      (await chunksOf(fs, join(box.root, "small.txt"), buffer)).all,
      new TextEncoder().encode("a\nb\n"),
    );
    equal((await chunksOf(fs, join(box.root, "empty.txt"), buffer)).count, 0);
    deepEqual(
      (await chunksOf(fs, join(box.root, "small.txt"))).all,
      new TextEncoder().encode("a\nb\n"),
    );
  });
});

const special =
  "C9.2: searchChunks refuses a FIFO and a symlink put where a file was, without hanging";
Deno.test({
  name: special,
  ignore: needsRun(special),
  async fn() {
    await withSandbox({ "f.txt": "x\n" }, async (box) => {
      const fs = new LocalFileSystem({ roots: [box.root] });
      const file = await fs.resolve(join(box.root, "f.txt"), { cwd: "/", op: "read" });
      const link = await fs.resolve(join(box.root, "link.txt"), { cwd: "/", op: "read" });
      const fifo = await fs.resolve(join(box.root, "p"), { cwd: "/", op: "read" });
      await Deno.writeTextFile(join(box.dir, "outside.txt"), "secret\n");
      await Deno.symlink(join(box.dir, "outside.txt"), join(box.root, "link.txt"));
      await mkfifo(join(box.root, "p"));
      // Targets resolved as if a listing had said "file", as the walker does.
      for (const target of [{ ...link, realPath: link.path }, { ...fifo, realPath: fifo.path }]) {
        await rejects(
          async () => {
            for await (const _ of await fs.searchChunks(target)) { /* drain */ }
          },
          (e: unknown) => e instanceof FsError && e.code === "FS_NOT_REGULAR_FILE",
        );
      }
      let text = "";
      for await (const c of await fs.searchChunks(file)) text += new TextDecoder().decode(c);
      equal(text, "x\n");
    });
  },
});

Deno.test("C11: the literal-guided line scan (feedBytes) counts and keeps the same lines as feed", () => {
  const line = fc.stringMatching(/^(ab|x|é|\r| |needle|need)*$/);
  fc.assert(
    fc.property(
      fc.array(line, { minLength: 1, maxLength: 12 }),
      fc.boolean(),
      fc.boolean(),
      fc.constantFrom("needle", "nee+dle", "x ab", "é x"),
      (lines, bom, trailing, source) => {
        const text = (bom ? "\uFEFF" : "") + lines.join("\n") + (trailing ? "\n" : "");
        const bytes = new TextEncoder().encode(text);
        const pattern = compileGrepPattern(source, false);
        const viaText = new GrepScanner({ pattern, context: 0, keep: 5 });
        viaText.feed(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), true);
        const viaBytes = new GrepScanner({ pattern, context: 0, keep: 5 });
        equal(viaBytes.feedBytes(bytes, true), true);
        // A following segment is numbered after every line of the first.
        viaText.feed("needle x ab é x", true);
        viaBytes.feed("needle x ab é x", true);
        equal(viaBytes.matches, viaText.matches);
        deepEqual(viaBytes.lines, viaText.lines);
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("C9.2: a .gitignore longer than one read chunk applies whole (rules at its end too)", async () => {
  const comments = "# padding line of a long ignore file\n".repeat(1200); // ~44 KiB
  await withSandbox(
    {
      ".gitignore": `${comments}late.ts\n`,
      "sub/.gitignore": `${comments}!late.ts\nalso.ts\n`,
      "a.ts": "x\n",
      "late.ts": "x\n",
      "sub/late.ts": "x\n",
      "sub/also.ts": "x\n",
      "sub/b.ts": "x\n",
    },
    async (box) => {
      const tools = toolsAt(box.root);
      const listed = ok(await tools.execute("glob", { pattern: "**/*.ts", path: box.root }));
      for (const name of ["a.ts", "sub/late.ts", "sub/b.ts"]) {
        equal(listed.includes(name), true, listed);
      }
      equal(listed.includes("\nlate.ts"), false, listed);
      equal(listed.includes("also.ts"), false, listed);
    },
  );
});
