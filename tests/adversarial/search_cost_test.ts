// Issue 19, findings 3 and 8 (CONTRACT C9.2, C9.3): glob patterns and .gitignore rules that
// froze 0.2.0 (picomatch and `ignore` compile to backtracking regexes: `*a*a*a*a*a*a*a*a*b`
// over 20 files with 42-character names ran 40 s and ignored a 2 s abort; `{a,b}` repeated 24
// times 31 s; a .gitignore with `**` rules ~20 s a search) now answer at once and rightly, and
// a long search honours its abort signal. Not timed assertions: each call must complete, with
// the right answer; the abort case reports how long the abort took.

import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { failed, ok } from "../_helpers.ts";
import { sandbox } from "../_sandbox.ts";
import { figure } from "./_harness.ts";

const NAMES = Object.fromEntries(
  Array.from({ length: 20 }, (_, i) => [`d/${"a".repeat(40)}${String(i).padStart(2, "0")}`, "a\n"]),
);

Deno.test("issue 19.3: glob *a*a*a*a*a*a*a*a*b over 42-character names answers, no match", async () => {
  await using box = await sandbox("local", NAMES);
  const { tools } = box;
  const pattern = "*a*a*a*a*a*a*a*a*b";
  equal(ok(await tools.execute("glob", { pattern })).includes("No files match"), true);
  equal(ok(await tools.execute("glob", { pattern: "d/" + pattern })).includes("No files"), true);
  const grep = ok(await tools.execute("grep", { pattern: "a", glob: pattern }));
  equal(grep.includes("No matches"), true, grep);
  const hit = ok(await tools.execute("glob", { pattern: "*a*a*a*a*a*a*a*a*01" }));
  equal(hit.includes(`d/${"a".repeat(40)}01`), true, hit);
});

Deno.test("issue 19.3: glob {a,b} repeated 24 times answers and matches what it names", async () => {
  const name = "ab".repeat(12);
  await using box = await sandbox("local", { [name]: "x\n", [`d/${name}`]: "x\n", "ac": "x\n" });
  const { root, tools } = box;
  const result = await tools.execute("glob", { pattern: "{a,b}".repeat(24) });
  deepEqual((result.value as { files: string[] }).files, [
    join(root, name),
    join(root, "d", name),
  ]);
  const nested = await tools.execute("glob", { pattern: "{a,{b,{c,{d,b}}}}".repeat(24) });
  equal((nested.value as { total: number }).total, 2);
});

Deno.test("issue 19.8: a .gitignore of ** rules costs nothing and decides as git does", async () => {
  const rules = [
    "**/a*a*a*a*a*a*a*a*b/**",
    "**/" + "*a".repeat(30) + "c",
    "**/x/**/y/**/z/**/keep*",
    "!**/x/**/y/**/z/**/keep.me",
    "**/logs/**",
  ];
  const deep = "x/a/y/a/z/a";
  const tree = {
    ".gitignore": rules.join("\n") + "\n",
    ...NAMES,
    [`${"a".repeat(40)}c`]: "1\n",
    [`${deep}/keep.txt`]: "1\n",
    [`${deep}/keep.me`]: "1\n",
    "logs/today.txt": "1\n",
    "src/main.ts": "1\n",
  };
  await using box = await sandbox("local", tree);
  const { root, tools } = box;
  const result = await tools.execute("glob", { pattern: "**" });
  const files = (result.value as { files: string[] }).files.map((f) => f.slice(root.length + 1));
  deepEqual(files, [...Object.keys(NAMES), `${deep}/keep.me`, "src/main.ts"].sort());
  const grep = await tools.execute("grep", { pattern: "1", output_mode: "files_with_matches" });
  equal(ok(grep).includes("keep.txt"), false);
});

Deno.test("issue 19.3: a long glob search stops when aborted", async () => {
  // 400 files with 200-character names under a 1001-character pattern: long enough to abort.
  const files: Record<string, string> = {};
  for (let i = 0; i < 400; i++) {
    files[`d${i % 20}/${"a".repeat(196)}${String(i).padStart(4, "0")}`] = "";
  }
  await using box = await sandbox("local", files);
  const { tools } = box;
  const pattern = "*a".repeat(500) + "b";
  const signal = AbortSignal.timeout(30);
  let aborted = 0;
  signal.addEventListener("abort", () => aborted = performance.now());
  const result = await tools.execute("glob", { pattern }, { signal });
  const after = performance.now() - aborted;
  deepEqual(failed(result)[1], aborted ? "FS_ABORTED" : undefined);
  if (aborted) figure("search_cost", `glob returned ${after.toFixed(0)} ms after the abort`);
  // Unaborted, the same search completes and matches nothing.
  equal(ok(await tools.execute("glob", { pattern })).includes("No files match"), true);
});
