// The synchronous search fast path of LocalFileSystem (C9.2, C11): descriptors opened without
// following the last name and without blocking on a FIFO; chunks alternating between the
// shared buffer's halves; the literal-guided line scan. Runs under -A (/proc/self/fd) and falls
// back to the path checks otherwise: both must give the same answers.

import { deepEqual, equal, rejects } from "node:assert/strict";
import * as nodeFs from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { createFsTools, LocalFileSystem } from "../mod.ts";
import { FsError } from "../src/fs_error.ts";
import type { FsSearchProvider } from "../provider.ts";
import type { GrepValue } from "../src/types.ts";
import { compileGrepPattern, GrepScanner } from "../src/text/grep_scan.ts";
import { mkfifo, needsRun, ok } from "./_helpers.ts";
import { type Sandbox, sandbox } from "./_sandbox.ts";
import { containsBytes } from "../src/text/byte_search.ts";
import { looksBinary } from "../src/text/binary_sniff.ts";
import { fdPathsAvailable } from "../src/provider/local/_fd_paths.ts";
import { makeBatchCheck } from "../src/provider/local/_search_worker.ts";

async function chunksOf(fs: LocalFileSystem, path: string, buffer?: Uint8Array) {
  const target = await fs.resolve(path, { cwd: "/", op: "read" });
  const read = await fs.search.readChunks(target, { buffer });
  const out: Uint8Array[] = [];
  let previous: { chunk: Uint8Array; copy: Uint8Array } | null = null;
  try {
    for await (const chunk of read.chunks) {
      // The chunk before this one is still intact (the halves alternate).
      if (previous) deepEqual(previous.chunk, previous.copy);
      previous = { chunk, copy: chunk.slice() };
      out.push(chunk.slice());
    }
    await read.verify();
  } finally {
    read.close();
  }
  const all = new Uint8Array(out.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of out) all.set(c, (at += c.length) - c.length);
  return { all, count: out.length };
}

Deno.test("C9.2: search.readChunks reads a file whole in alternating halves of the shared buffer", async () => {
  const big = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => 97 + (i % 26));
  await using box = await sandbox("local", {
    "big.txt": big,
    "small.txt": "a\nb\n",
    "empty.txt": "",
  });
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

const special =
  "C9.2: search.readChunks refuses a FIFO and a symlink put where a file was, without hanging";
Deno.test({
  name: special,
  ignore: needsRun(special),
  async fn() {
    await using box = await sandbox("local", { "f.txt": "x\n" });
    const fs = new LocalFileSystem({ roots: [box.root] });
    const file = await fs.resolve(join(box.root, "f.txt"), { cwd: "/", op: "read" });
    const link = await fs.resolve(join(box.root, "link.txt"), { cwd: "/", op: "read" });
    const fifo = await fs.resolve(join(box.root, "p"), { cwd: "/", op: "read" });
    await Deno.writeTextFile(join(box.base, "outside.txt"), "secret\n");
    await Deno.symlink(join(box.base, "outside.txt"), join(box.root, "link.txt"));
    await mkfifo(join(box.root, "p"));
    // Targets resolved as if a listing had said "file", as the walker does.
    for (const target of [{ ...link, realPath: link.path }, { ...fifo, realPath: fifo.path }]) {
      await rejects(
        async () => {
          const read = await fs.search.readChunks(target);
          try {
            for await (const _ of read.chunks) { /* drain */ }
          } finally {
            read.close();
          }
        },
        (e: unknown) => e instanceof FsError && e.code === "FS_NOT_REGULAR_FILE",
      );
    }
    let text = "";
    const read = await fs.search.readChunks(file);
    for await (const c of read.chunks) text += new TextDecoder().decode(c);
    await read.verify();
    read.close();
    equal(text, "x\n");
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
        viaText.feed(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes));
        const viaBytes = new GrepScanner({ pattern, context: 0, keep: 5 });
        equal(viaBytes.feedBytes(bytes), true);
        // A following segment is numbered after every line of the first.
        viaText.feed("needle x ab é x");
        viaBytes.feed("needle x ab é x");
        equal(viaBytes.matches, viaText.matches);
        deepEqual(viaBytes.lines, viaText.lines);
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("C9.2: a .gitignore longer than one read chunk applies whole (rules at its end too)", async () => {
  const comments = "# padding line of a long ignore file\n".repeat(1200); // ~44 KiB
  await using box = await sandbox("local", {
    ".gitignore": `${comments}late.ts\n`,
    "sub/.gitignore": `${comments}!late.ts\nalso.ts\n`,
    "a.ts": "x\n",
    "late.ts": "x\n",
    "sub/late.ts": "x\n",
    "sub/also.ts": "x\n",
    "sub/b.ts": "x\n",
  });
  const { tools } = box;
  const listed = ok(await tools.execute("glob", { pattern: "**/*.ts", path: box.root }));
  for (const name of ["a.ts", "sub/late.ts", "sub/b.ts"]) {
    equal(listed.includes(name), true, listed);
  }
  equal(listed.includes("\nlate.ts"), false, listed);
  equal(listed.includes("also.ts"), false, listed);
});

Deno.test("C11: search.mayContain marks 0 only a file read whole that lacks a needle", async () => {
  const big = "x".repeat(300 * 1024) + "\n"; // past what the worker reads whole
  await using box = await sandbox("local", {
    "both.txt": "alpha\nbeta gamma\n",
    "one.txt": "alpha only\n",
    "none.txt": "nothing\n",
    "empty.txt": "",
    "big.txt": big,
    "nul.bin": new Uint8Array([0, 97, 108, 112, 104, 97, 0]),
  });
  const fs = new LocalFileSystem({ roots: [box.root] });
  const names = ["both.txt", "one.txt", "none.txt", "empty.txt", "big.txt", "gone.txt"];
  const targets = await Promise.all(
    names.map((n) => fs.resolve(join(box.root, n), { cwd: "/", op: "read" })),
  );
  const needles = ["beta", "alpha"].map((s) => new TextEncoder().encode(s));
  const flags = await fs.search.mayContain!(targets, needles);
  // Path checks: no prefilter (its skips need /proc/self/fd, issue 19).
  if (flags === null) return;
  // A file that cannot be read there (gone) or not whole (big) may match.
  deepEqual([...flags!], [1, 0, 0, 0, 1, 1]);
  const one = await fs.resolve(join(box.root, "nul.bin"), { cwd: "/", op: "read" });
  deepEqual([...(await fs.search.mayContain!([one], [needles[1]]))!], [1]);
  // A binary file is never marked 0, even lacking a needle: the search tells it binary and
  // leaves it out of the files searched (C11 <s>, issue 32 item 4).
  deepEqual([...(await fs.search.mayContain!([one], [needles[0]]))!], [1]);
});

Deno.test("C11: the worker's literal search is the same code as this thread's", async () => {
  const { containsBytes } = await import("../src/text/byte_search.ts");
  const enc = new TextEncoder();
  await using box = await sandbox("local");
  const fs = new LocalFileSystem({ roots: [box.root] });
  const texts = fc.sample(fc.stringMatching(/^(ab|ba|a|b|\n| |abc|é){0,200}$/), 300);
  const targets = [];
  for (const [i, text] of texts.entries()) {
    await Deno.writeTextFile(join(box.root, `f${i}.txt`), text);
    targets.push(await fs.resolve(join(box.root, `f${i}.txt`), { cwd: "/", op: "read" }));
  }
  for (const needle of ["abc", "aba", "bab é", "ab\nb"]) {
    const bytes = enc.encode(needle);
    const flags = await fs.search.mayContain!(targets, [bytes]);
    if (flags === null) return; // path checks: no prefilter (issue 19)
    const here = texts.map((t) => (containsBytes(enc.encode(t), bytes) ? 1 : 0));
    deepEqual([...flags!], here, needle);
  }
});

/** Files of which some lack one of two needles, and the prefilter's flags for them (C11). */
async function prefilterFiles(box: Sandbox, count: number) {
  const needles = ["alpha", "beta"].map((s) => new TextEncoder().encode(s));
  const paths: string[] = [];
  const expected: number[] = [];
  const writes: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const text = `${i % 3 === 0 ? "alpha" : "gamma"} ${i % 5 === 0 ? "beta" : "delta"}\n`;
    paths.push(join(Deno.realPathSync(box.root), `d${i % 4}`, `f${i}.txt`));
    if (i < 4) await Deno.mkdir(dirname(paths[i]));
    writes.push(Deno.writeTextFile(paths[i], text));
    // 1 (searched) only for a file holding both, read where its descriptor is located inside
    // the root; where /proc/self/fd cannot be read (no --allow-all) no descriptor is located, so
    // the check marks every file 0 (mayContain answers null there: the check is never asked).
    expected.push(i % 15 === 0 && fdPathsAvailable() ? 1 : 0);
  }
  await Promise.all(writes);
  return { needles, paths, expected };
}

Deno.test("C11: the prefilter's two threads claim each file of a batch once, with one thread's flags", async () => {
  await using box = await sandbox("local");
  const { needles, paths, expected } = await prefilterFiles(box, 300);
  const opened: string[] = [];
  const counting = {
    ...nodeFs,
    openSync(path: string, flags: number) {
      opened.push(path);
      return nodeFs.openSync(path, flags);
    },
  };
  // The two threads' checks, taking turns on one batch in slices of uneven sizes.
  const checks = [0, 1].map(() => makeBatchCheck(counting, containsBytes, 1 << 18, looksBinary));
  const roots = [Deno.realPathSync(box.root)];
  const batch = { paths, needles, roots, shared: new SharedArrayBuffer(8 + paths.length) };
  let turns = 0;
  for (let done = false; !done; turns++) done = checks[turns % 2](batch, 1 + (turns % 7));
  deepEqual([...new Uint8Array(batch.shared, 8)], expected);
  deepEqual(opened.toSorted(), paths.toSorted()); // each file opened once, by one of them
  equal(turns > 2, true);
  // Past its time (a slow disk), a turn claims one file and no more.
  const late = { ...batch, shared: new SharedArrayBuffer(8 + paths.length) };
  opened.length = 0;
  equal(checks[0](late, Infinity, performance.now() - 1), false);
  deepEqual(opened, [paths[0]]);
});

Deno.test("C11: batches asked at once, checked by the worker and this thread, each get their own flags", async () => {
  await using box = await sandbox("local");
  // Under path checks only the null answers are asked for: a few files a batch do (3,072 files
  // cost the core suite's run 5 s of its CPU budget, .ci/run).
  const size = fdPathsAvailable() ? 256 : 4;
  const { needles, paths, expected } = await prefilterFiles(box, 12 * size);
  const fs = new LocalFileSystem({ roots: [box.root] });
  const targets = await Promise.all(paths.map((p) => fs.resolve(p, { cwd: "/", op: "grep" })));
  const batches = [];
  for (let i = 0; i < targets.length; i += size) {
    batches.push(fs.search.mayContain!(targets.slice(i, i + size), needles));
  }
  const answers = await Promise.all(batches);
  if (!fdPathsAvailable()) {
    deepEqual(answers, Array(12).fill(null)); // path checks: no prefilter (issue 19)
    return;
  }
  deepEqual(answers.flatMap((flags) => [...flags!]), expected);
});

Deno.test({
  name: "C11: a batch asked right after an aborted one gets its own flags, not the aborted one's",
  // Under path checks mayContain answers null: there is no worker to race.
  ignore: !fdPathsAvailable(),
  async fn() {
    const held: Record<string, string> = {};
    for (let i = 0; i < 512; i++) held[`held/f${i}.txt`] = "alpha beta\n";
    await using box = await sandbox("local", held);
    const { needles, paths, expected } = await prefilterFiles(box, 512);
    const fs = new LocalFileSystem({ roots: [box.root] });
    const resolve = (ps: string[]) =>
      Promise.all(ps.map((p) => fs.resolve(p, { cwd: "/", op: "grep" })));
    const aborted = await resolve(Object.keys(held).map((p) => join(box.root, p)));
    const targets = await resolve(paths);
    for (let round = 0; round < 5; round++) {
      // The worker is still reading the aborted batch (every file holds both: all 1) when the
      // next batch of the same size is asked; its flags are its own files' (mostly 0).
      const controller = new AbortController();
      const asked = fs.search.mayContain!(aborted, needles, { signal: controller.signal });
      controller.abort();
      await rejects(asked);
      const flags = await fs.search.mayContain!(targets, needles);
      deepEqual([...flags!], expected, `round ${round}`);
    }
  },
});

Deno.test("C11: a grep over enough files to be told apart ahead gives the same text as without", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 900; i++) {
    const dir = `d${i % 7}/e${i % 5}`;
    const hit = i % 13 === 0 ? `const needle_${i} = x;\n` : "";
    const late = i % 97 === 0 ? "y\n".repeat(140_000) + "late needle_ here\n" : "";
    files[`${dir}/f${String(i).padStart(3, "0")}.ts`] = `line one\n${hit}line three\n${late}`;
  }
  files["d1/bin.ts"] = "needle_\0\n";
  await using box = await sandbox("local", files);
  const local = new LocalFileSystem({ roots: [box.root] });
  // The same provider without the fast path: every file searched on this thread.
  const plain = new Proxy(local, {
    get(target, key) {
      if (key === "search") {
        const { listDir, readChunks } = target.search;
        return { listDir, readChunks }; // no prefilter
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  for (
    const args of [
      { pattern: "needle_\\d+", path: box.root },
      { pattern: "needle_", path: box.root, output_mode: "count" },
      { pattern: "needle_", path: box.root, output_mode: "files_with_matches", glob: "**/e1/*" },
    ]
  ) {
    const fast = ok(await createFsTools({ fs: local }).execute("grep", args));
    const slow = ok(await createFsTools({ fs: plain }).execute("grep", args));
    equal(fast, slow);
    equal(fast.includes("bin.ts"), false);
  }
  const counted = ok(
    await createFsTools({ fs: local }).execute("grep", { pattern: "needle_", path: box.root }),
  );
  // 70 files with a `needle_<i>` line, 10 with a line past 256 KiB (f000 has both); the
  // binary bin.ts is skipped and not counted as searched (C11 <s>).
  equal(counted.split("\n").at(-2), "(80 matching lines in 79 files; 900 files searched)");
});

Deno.test("C11: a pattern with U+FFFD finds invalid UTF-8 (no byte prefilter on its encoding)", async () => {
  const files: Record<string, string | Uint8Array> = {};
  for (let i = 0; i < 300; i++) files[`f${i}.txt`] = "plain\n";
  files["bad.txt"] = new Uint8Array([0x61, 0x62, 0xff, 0x63, 0x0a]); // "ab", an invalid byte, "c"
  await using box = await sandbox("local", files);
  const { tools } = box;
  for (const context of [0, 1]) {
    const found = ok(
      await tools.execute("grep", { pattern: "ab\uFFFDc", path: box.root, context }),
    );
    equal(found.includes("bad.txt\n1: ab\uFFFDc\n"), true, found);
  }
});

Deno.test("C11: an abort while files are told apart ahead ends the grep with FS_ABORTED", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1500; i++) files[`d${i % 9}/f${i}.txt`] = `text ${i} needle\n`;
  await using box = await sandbox("local", files);
  const local = new LocalFileSystem({ roots: [box.root] });
  const controller = new AbortController();
  let asked = 0;
  // The provider as is, except that its first answer ahead comes with an abort.
  const fs = new Proxy(local, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key !== "search") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return {
        ...local.search,
        mayContain: (...args: Parameters<NonNullable<FsSearchProvider["mayContain"]>>) => {
          if (asked++ === 0) controller.abort();
          return local.search.mayContain!(...args);
        },
      };
    },
  });
  const result = await createFsTools({ fs }).execute(
    "grep",
    { pattern: "needle", path: box.root },
    { signal: controller.signal },
  );
  equal(result.error?.code, "FS_ABORTED");
  equal(asked >= 1 && asked <= 2, true, `asked ${asked} times`);
});

Deno.test("C3.2/C11: search.readChunks's verify() refuses a file read through a directory swapped for a link out", async () => {
  await using box = await sandbox("local", {
    "d/f.txt": "inside\n",
    "../outside/d/f.txt": "secret\n",
  });
  const search = box.fs.search!;
  const target = await box.fs.resolve("d/f.txt", { cwd: box.root, op: "grep" });
  // The walk saw a directory; by the read it is a link to outside (descriptor or path checks).
  await Deno.rename(join(box.root, "d"), join(box.root, "d.real"));
  await Deno.symlink(join(box.base, "outside/d"), join(box.root, "d"));
  const read = await search.readChunks(target);
  try {
    for await (const _ of read.chunks) { /* the provider hands the bytes; the tool keeps none */ }
    await rejects(
      read.verify(),
      (e: unknown) => e instanceof FsError && e.code === "FS_OUTSIDE_ROOT",
    );
  } finally {
    read.close();
  }
  // Through the tools: the link is not followed; the outside file is never reported.
  const result = await box.run("grep", { pattern: "secret|inside" });
  equal(result.content.includes("d.real/f.txt\n1: inside\n"), true, result.content);
  equal(result.content.includes("secret"), false, result.content);
});

Deno.test("C3.2/C11: grep's count never tells what a file read through a swapped directory holds", async () => {
  const footers: string[] = [];
  for (const secret of ["nothing here\n", "the secret\n"]) {
    await using box = await sandbox("local", {
      "d/a.txt": "plain\n",
      "d/b.bin": "plain\n",
      "d/c.txt": "plain\n",
      "../outside/a.txt": secret,
      "../outside/b.bin": new Uint8Array([0, 1, 2, 10]),
      "../outside/c.txt": "plain\n",
    });
    const local = box.fs as LocalFileSystem;
    const dir = join(box.root, "d");
    // The race frozen at its worst moment: `d` is listed as a directory, then swapped for a link
    // out before its files are read.
    const search: FsSearchProvider = {
      ...local.search,
      async listDir(target, options) {
        const entries = await local.search.listDir(target, options);
        if (target.realPath === dir) {
          await Deno.rename(dir, `${dir}.real`);
          await Deno.symlink(join(box.base, "outside"), dir);
        }
        return entries;
      },
    };
    const fs = new Proxy(local, {
      get(target, key) {
        if (key === "search") return search;
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const tools = createFsTools({ fs: fs as LocalFileSystem });
    const result = await tools.execute("grep", { pattern: "secret", path: box.root });
    equal(result.content.includes("the secret"), false, result.content);
    footers.push(result.content.split("\n").at(-2)!);
  }
  deepEqual(footers, Array(2).fill('(No matches for "secret"; 3 files searched)'));
});

Deno.test("C9.2: grep's walk reuses what it worked out from a kept listing only for the same rules, search directory and glob", async () => {
  await using box = await sandbox("local", {
    ".gitignore": "ignored/\n*.log\n",
    "a.ts": "x",
    "b.log": "x",
    "ignored/c.ts": "x",
    "sub/d.ts": "x",
    "sub/e.log": "x",
    "sub/.gitignore": "!e.log\n",
  });
  await new Promise((resolve) => setTimeout(resolve, 2_100)); // listings kept from now on
  async function found(args: Record<string, unknown> = {}): Promise<string[]> {
    const result = await box.run("grep", {
      pattern: "x",
      output_mode: "files_with_matches",
      ...args,
    });
    equal(result.isError, false, result.content);
    return (result.value as GrepValue).matches.map((m) => m.path.slice(box.root.length + 1));
  }
  // The third search walks from kept listings and what the second worked out from them.
  for (let i = 0; i < 3; i++) deepEqual(await found(), ["a.ts", "sub/d.ts", "sub/e.log"]);
  // Each .gitignore rewritten in place: no listing changes, the rules do.
  await Deno.writeTextFile(join(box.root, ".gitignore"), "a.ts\n");
  const all = ["b.log", "ignored/c.ts", "sub/d.ts", "sub/e.log"];
  for (let i = 0; i < 2; i++) deepEqual(await found(), all);
  await Deno.writeTextFile(join(box.root, "sub/.gitignore"), "e.log\n");
  deepEqual(await found(), ["b.log", "ignored/c.ts", "sub/d.ts"]);
  await Deno.writeTextFile(join(box.root, "sub/.gitignore"), "!e.log\n");
  await Deno.writeTextFile(join(box.root, ".gitignore"), "ignored/\n*.log\n");
  deepEqual(await found(), ["a.ts", "sub/d.ts", "sub/e.log"]);
  // The same listings reached from another search directory, and with a glob.
  deepEqual(await found({ path: join(box.root, "sub") }), ["sub/d.ts", "sub/e.log"]);
  for (let i = 0; i < 2; i++) deepEqual(await found({ glob: "*.log" }), ["sub/e.log"]);
  deepEqual(await found({ glob: "*.ts" }), ["a.ts", "sub/d.ts"]);
  deepEqual(await found({ glob: ["*.ts", "!a.ts"] }), ["sub/d.ts"]);
  deepEqual(await found(), ["a.ts", "sub/d.ts", "sub/e.log"]);
  // glob's walk (checked listings) the same way.
  async function globbed(pattern: string): Promise<string[]> {
    const result = await box.run("glob", { pattern });
    equal(result.isError, false, result.content);
    return (result.value as { files: string[] }).files.map((f) => f.slice(box.root.length + 1));
  }
  for (let i = 0; i < 3; i++) deepEqual(await globbed("**/*.log"), ["sub/e.log"]);
  deepEqual(await globbed("**/*.ts"), ["a.ts", "sub/d.ts"]);
  await Deno.writeTextFile(join(box.root, ".gitignore"), "a.ts\n");
  deepEqual(await globbed("**/*.ts"), ["ignored/c.ts", "sub/d.ts"]);
});

Deno.test("C3.2/C9.2: a kept listing serves only while its directory is unchanged: each change shows at once", async () => {
  await using box = await sandbox("local", {
    "d/a.ts": "x",
    "d/sub/b.ts": "x",
    "e/c.ts": "x",
    "../outside/a.ts": "x outside",
    "../outside/secret.ts": "x secret",
  });
  // Listings are kept once a directory's change time is 2 s old: glob's through /proc/self/fd
  // (under -A), grep's by path from a directory's second listing. Deno gives that time in whole
  // seconds, so every change below falls in the second of the search before it.
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  // Both searches, each listing every directory: glob its names, grep the files holding "x".
  async function found(): Promise<string[]> {
    const listed = await box.run("glob", { pattern: "**/*.ts" });
    equal(listed.isError, false, listed.content);
    const files = (listed.value as { files: string[] }).files.map((f) =>
      f.slice(box.root.length + 1)
    );
    const grepped = await box.run("grep", { pattern: "x", output_mode: "files_with_matches" });
    equal(grepped.isError, false, grepped.content);
    const holding = (grepped.value as GrepValue).matches.map((m) =>
      m.path.slice(box.root.length + 1)
    );
    deepEqual(holding, files, grepped.content);
    return files;
  }
  function at(path: string): string {
    return join(box.root, path);
  }
  deepEqual(await found(), ["d/a.ts", "d/sub/b.ts", "e/c.ts"]);
  deepEqual(await found(), ["d/a.ts", "d/sub/b.ts", "e/c.ts"]); // grep keeps its listings here
  deepEqual(await found(), ["d/a.ts", "d/sub/b.ts", "e/c.ts"]); // from the kept listings
  await Deno.writeTextFile(at("d/new.ts"), "x");
  deepEqual(await found(), ["d/a.ts", "d/new.ts", "d/sub/b.ts", "e/c.ts"]);
  await Deno.remove(at("d/a.ts"));
  deepEqual(await found(), ["d/new.ts", "d/sub/b.ts", "e/c.ts"]);
  await Deno.rename(at("d/sub/b.ts"), at("d/sub/z.ts"));
  deepEqual(await found(), ["d/new.ts", "d/sub/z.ts", "e/c.ts"]);
  // A file replaced by a directory of the same name, and the parent's times set back: the change
  // time still moved.
  const { atime, mtime } = await Deno.stat(at("e"));
  await Deno.remove(at("e/c.ts"));
  await Deno.mkdir(at("e/c.ts"));
  await Deno.writeTextFile(at("e/c.ts/x.ts"), "x");
  await Deno.utime(at("e"), atime!, mtime!);
  deepEqual(await found(), ["d/new.ts", "d/sub/z.ts", "e/c.ts/x.ts"]);
  // A directory swapped for a link out once its listings were kept: nothing from outside shows.
  await Deno.rename(at("d"), at("d.real"));
  await Deno.symlink(join(box.base, "outside"), at("d"));
  for (let i = 0; i < 3; i++) {
    deepEqual(await found(), ["d.real/new.ts", "d.real/sub/z.ts", "e/c.ts/x.ts"]);
  }
});
