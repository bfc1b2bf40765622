// Hardening round 3 (issue 19, finding 12, provider and tools side): `/proc/self/environ` under
// the repository's `--allow-read --allow-write` gave FS_PERMISSION_DENIED instead of C3.2's
// FS_OUTSIDE_ROOT; a 10-million-character path came back whole in the error (10 MB) after
// seconds of path resolution; `createFsTools({ cwd })` through a link to outside was accepted.
// Each case failed on 0.2.0.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools } from "../../mod.ts";
import { adversarialSandbox, cannotRun, runChild, skipUnless } from "./_harness.ts";

interface CallsReport {
  pinned: boolean;
  results: { content: string; code: string | null }[];
}

const MODES = [
  { name: "--allow-read --allow-write", permissions: ["--allow-read", "--allow-write"] },
  { name: "-A", permissions: ["--allow-all"] },
];

for (const mode of MODES) {
  const name = `C3.2: /proc/self/environ is outside the roots, also through a link (${mode.name})`;
  Deno.test({
    name,
    ignore: skipUnless(name, cannotRun()),
    async fn() {
      await using box = await adversarialSandbox();
      await Deno.symlink("/proc/self/environ", join(box.root, "env"));
      await Deno.symlink("/proc/self", join(box.root, "self"));
      const calls = [
        ["read", { file_path: "/proc/self/environ" }],
        ["read", { file_path: "env" }],
        ["read", { file_path: "self/environ" }],
        ["grep", { pattern: "PATH", path: "/proc/self/environ" }],
        ["read", { file_path: "/proc/1/environ" }],
      ];
      const { report } = await runChild<CallsReport>(
        "./_calls_child.ts",
        [box.root, JSON.stringify(calls)],
        { permissions: mode.permissions },
      );
      for (const [i, result] of report.results.entries()) {
        assert.equal(
          result.code,
          "FS_OUTSIDE_ROOT",
          `${JSON.stringify(calls[i])}: ${result.content}`,
        );
      }
    },
  });
}

Deno.test("C7.1: a 10-million-character path is refused at once, its echo clipped", async () => {
  await using box = await adversarialSandbox();
  for (
    const [op, args] of [
      ["read", { file_path: "a/".repeat(5_000_000) }],
      ["list", { path: "b".repeat(10_000_000) }],
      ["write", { file_path: "c".repeat(10_000_000), content: "x" }],
    ] as const
  ) {
    const started = performance.now();
    const result = await box.tools.execute(op, args);
    const ms = performance.now() - started;
    assert.equal(result.error?.code, "FS_IO_ERROR", result.content.slice(0, 200));
    assert.ok(result.content.length < 2200, `${result.content.length} characters`);
    assert.match(result.content, /…\[9997952 characters clipped\]…/);
    assert.match(result.content, /: File name too long \(os error 36\)$/);
    assert.ok(ms < 1000, `${op}: ${ms} ms`);
  }
});

Deno.test("C1.2: createFsTools refuses a cwd that is a link inside a root to a directory outside", async () => {
  await using box = await adversarialSandbox();
  await Deno.symlink(box.outside, join(box.root, "out"));
  await Deno.mkdir(join(box.root, "in"));
  await Deno.symlink(join(box.root, "in"), join(box.root, "in_link"));
  assert.throws(
    () => createFsTools({ fs: box.fs, cwd: "out" }),
    (error: Error) =>
      error.message.includes("lies outside every root") &&
      error.message.includes(`resolves to ${box.outside}`),
  );
  // A link to a directory inside a root stays a valid cwd.
  const tools = createFsTools({ fs: box.fs, cwd: "in_link" });
  assert.equal(tools.cwd, join(box.root, "in_link"));
});
