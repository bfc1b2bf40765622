// Hardening round 3 (issue 19, findings 4 and 7): grep patterns and files that froze the
// process. On 0.2.0 `.{1000}` ten times over one 200 KB line ran 120 s ignoring its abort,
// `"a"` × 24000 spent 19 s compiling, a 300 MB line took 344 s and 1 GB, and a sparse file kept
// grep's memory growing. Now: the costly patterns are refused at once, an admissible costly
// pattern over long lines answers and yields to an abort (timers run between pieces of at most
// the engine's work budget), a line is held up to 1 MiB, and a 1 MiB run of NUL bytes makes a
// file binary (C4.2). Times are reported as figures; the bounds asserted are the issue's.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../../mod.ts";
import { adversarialSandbox, figure, slowCase } from "./_harness.ts";

const MiB = 1 << 20;

Deno.test("issue 19: the patterns that hung are refused within 1 s", async () => {
  await using box = await adversarialSandbox();
  await Deno.writeTextFile(join(box.root, "long.txt"), "ab".repeat(100_000) + "\n");
  for (const pattern of [".{1000}".repeat(10), "a".repeat(24000), "(?:.{1000}){2}x"]) {
    const started = performance.now();
    const result = await box.tools.execute("grep", { pattern });
    const ms = performance.now() - started;
    figure(
      "pattern cost",
      `${JSON.stringify(pattern.slice(0, 16))}… refused in ${ms.toFixed(0)} ms`,
    );
    assert.equal(result.error?.code, "FS_INVALID_ARGUMENT", result.content);
    assert.ok(ms < 1000, `${ms} ms`);
  }
});

Deno.test("issue 19: a costly pattern over long lines answers within 1 s and yields to an abort within 100 ms", async () => {
  await using box = await adversarialSandbox();
  // Three 200 KB lines: 1000-instruction patterns cost about 0.4 s a line on 0.2.0's full match.
  // Each line starts with an x, so the literal prefilter (which needs an x or a y) cannot rule the
  // files out unsearched: the pattern itself must run over them, and never match (no x or y has
  // 900 characters before it).
  const line = "x" + "ab".repeat(100_000) + "\n";
  await Deno.writeTextFile(join(box.root, "long.txt"), line.repeat(3));
  const started = performance.now();
  const answer = await box.tools.execute("grep", { pattern: "(.{100}){9}[xy]", path: "long.txt" });
  const answerMs = performance.now() - started;
  assert.equal(answer.isError, false, answer.content);
  // Many such files: the search runs long, and an abort must stop it promptly. A machine fast
  // enough to finish the search before the abort gets four times the files, until one is cut.
  let files = 0;
  let result: Awaited<ReturnType<typeof box.tools.execute>> | undefined;
  let abortMs = 0;
  for (let want = 40; result === undefined && want <= 640; want *= 4) {
    for (; files < want; files++) {
      await Deno.writeTextFile(join(box.root, `f${files}.txt`), line.repeat(5));
    }
    const controller = new AbortController();
    let done = false;
    const call = box.tools.execute("grep", { pattern: "(.{100}){9}[xy]" }, {
      signal: controller.signal,
    }).finally(() => done = true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (done) {
      await call;
      continue; // over before the abort: nothing to cut
    }
    const abortedAt = performance.now();
    controller.abort();
    result = await call;
    abortMs = performance.now() - abortedAt;
  }
  assert.ok(result, `every search of up to ${files} files ended within 50 ms`);
  figure(
    "pattern cost",
    `answer ${answerMs.toFixed(0)} ms, abort honoured in ${abortMs.toFixed(0)} ms (${files} files)`,
  );
  assert.equal(result.error?.code, "FS_ABORTED", result.content);
  assert.ok(answerMs < 1000, `answered in ${answerMs} ms`);
  assert.ok(abortMs < 100, `aborted in ${abortMs} ms`);
});

Deno.test("issue 19: grep over a 64 GiB sparse file stops at its first 1 MiB run of NUL bytes", async () => {
  await using box = await adversarialSandbox();
  const path = join(box.root, "sparse.img");
  const file = await Deno.open(path, { write: true, create: true });
  await file.write(new TextEncoder().encode("needle " + "y".repeat(16 * 1024)));
  await file.truncate(64 * 1024 * MiB);
  file.close();
  const started = performance.now();
  const named = await box.tools.execute("grep", { pattern: "needle", path: "sparse.img" });
  const all = await box.tools.execute("grep", { pattern: "needle" });
  const ms = performance.now() - started;
  figure("pattern cost", `64 GiB sparse file: binary in ${ms.toFixed(0)} ms`);
  assert.equal(named.error?.code, "FS_BINARY", named.content);
  assert.match(all.content, /No matches/);
  assert.ok(ms < 1000, `${ms} ms`);
});

Deno.test({
  name: "issue 19: a 256 MiB single line is searched with memory bounded by the line cap",
  ...slowCase(),
  async fn() {
    await using box = await adversarialSandbox();
    const path = join(box.root, "one_line.txt");
    const file = await Deno.open(path, { write: true, create: true });
    const block = new TextEncoder().encode("x".repeat(MiB - 6) + "needle");
    for (let i = 0; i < 256; i++) await file.write(block);
    file.close();
    const fs = new LocalFileSystem({ roots: [box.root] });
    const tools = createFsTools({ fs });
    const before = Deno.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 5);
    const started = performance.now();
    const result = await tools.execute("grep", { pattern: "needle", output_mode: "count" });
    clearInterval(timer);
    const ms = performance.now() - started;
    figure(
      "pattern cost",
      `256 MiB line: ${ms.toFixed(0)} ms, peak +${((peak - before) / MiB).toFixed(0)} MiB`,
    );
    assert.match(result.content, /one_line\.txt: 1/);
    assert.ok(peak - before < 64 * MiB, `peak +${(peak - before) / MiB} MiB`);
  },
});
