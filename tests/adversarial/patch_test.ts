// `patch` under attack (C16.2, C3.2, C4.3), with real processes:
// - a child applies multi-file patches in a loop and is killed with SIGKILL at random moments:
//   after every kill each file holds exactly its old or its new content;
// - the patched file is swapped for a symlink to an outside file thousands of times a second
//   while patches go through it: nothing outside changes, no outside content comes back.
// - `*** Delete File:` on links in and out (and through a directory link out) removes the link
//   itself or refuses, in both check modes: nothing outside changes.
// Needs --allow-run (CI runs it with `deno test -A`); the first two are slow (TOOLFS_SLOW=1).

import assert from "node:assert/strict";
import { join } from "node:path";
import { crashContent } from "./_patch_child.ts";
import {
  adversarialSandbox,
  cannotRun,
  figure,
  killWhenReady,
  notSlowRun,
  outsideSnapshot,
  rootPermissions,
  runChild,
  SECRET,
  skipUnless,
  startChild,
  tempFiles,
} from "./_harness.ts";

const KILLS = 30;
const FILES = 4;

const crashName =
  "patch: SIGKILL during a multi-file patch leaves every file with its old or its new content";
Deno.test({
  name: crashName,
  ignore: skipUnless(crashName, notSlowRun() ?? cannotRun()),
  async fn() {
    await using box = await adversarialSandbox();
    const paths = Array.from({ length: FILES }, (_, i) => join(box.root, `f${i}.txt`));
    for (const [i, path] of paths.entries()) await Deno.writeTextFile(path, crashContent(i, "A"));
    let mixed = 0;
    let interrupted = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      await killWhenReady("./_patch_child.ts", ["crash", box.root, String(FILES)], {
        permissions: rootPermissions(box.root),
        stderr: "inherit",
      }, 3000);
      const states: string[] = [];
      for (const [i, path] of paths.entries()) {
        const text = await Deno.readTextFile(path);
        const state = text === crashContent(i, "A")
          ? "A"
          : text === crashContent(i, "B")
          ? "B"
          : "";
        assert.ok(
          state,
          `kill ${kill}: f${i}.txt holds ${text.length} characters of neither content`,
        );
        states.push(state);
      }
      if (new Set(states).size > 1) mixed++;
      // A later run must start from one state: bring every file to A.
      for (const [i, path] of paths.entries()) {
        if (states[i] !== "A") await Deno.writeTextFile(path, crashContent(i, "A"));
      }
      for (const name of await tempFiles(box.root)) {
        interrupted++;
        await Deno.remove(join(box.root, name));
      }
    }
    figure(
      "patch",
      `${KILLS} kills during ${FILES}-file patches: every file old or new; ${mixed} kills fell between two files, ${interrupted} during a write`,
    );
  },
});

const raceName =
  "patch: a patched file swapped for a link to an outside file: nothing outside changes or leaks";
Deno.test({
  name: raceName,
  ignore: skipUnless(raceName, notSlowRun() ?? cannotRun()),
  async fn() {
    await using box = await adversarialSandbox();
    const target = join(box.root, "t.txt");
    await Deno.writeTextFile(target, "line\n");
    await Deno.writeTextFile(box.secret, `${SECRET} outside\nline\n`);
    const before = await outsideSnapshot(box);
    const stop = join(box.root, "stop");
    const swapper = startChild("./_swapper.ts", stop, [stop, target, box.secret], {
      permissions: ["--allow-read", "--allow-write"],
    });
    for (let i = 0; i < 500; i++) {
      if (await Deno.lstat(`${target}.link`).then(() => true, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const results = [];
    try {
      for (const permissions of [["--allow-all"], rootPermissions(box.base)]) {
        const { report } = await runChild<{
          calls: number;
          codes: Record<string, number>;
          leaks: number;
        }>("./_patch_child.ts", ["race", box.root, "300", SECRET], { permissions });
        results.push(report);
      }
    } finally {
      await swapper.stop<{ swaps: number }>();
    }
    const after = await outsideSnapshot(box);
    assert.deepEqual([...after.entries()], [...before.entries()], "something outside changed");
    for (const report of results) {
      assert.equal(report.leaks, 0);
      for (const code of Object.keys(report.codes)) {
        assert.ok(
          [
            "ok",
            "FS_OUTSIDE_ROOT",
            "FS_NOT_FOUND",
            "FS_STALE",
            "FS_NOT_REGULAR_FILE",
            "FS_IO_ERROR",
          ]
            .includes(code),
          `unexpected ${code}`,
        );
      }
    }
    figure(
      "patch",
      `swap race: ${
        results.map((r) => JSON.stringify(r.codes)).join(" / ")
      }; outside unchanged, 0 leaks`,
    );
  },
});

for (
  const mode of [
    { name: "descriptor checks", permissions: (_: string) => ["--allow-all"] },
    { name: "path checks", permissions: rootPermissions },
  ]
) {
  const name =
    `patch: Delete File on a link removes the link itself; nothing outside changes (${mode.name})`;
  Deno.test({
    name,
    ignore: skipUnless(name, cannotRun()),
    async fn() {
      await using box = await adversarialSandbox({ "t.txt": "target\n" });
      await Deno.symlink(join(box.root, "t.txt"), join(box.root, "in.lnk"));
      await Deno.symlink(box.secret, join(box.root, "out.lnk"));
      await Deno.symlink("../outside", join(box.root, "outdir"));
      await Deno.symlink("../outside/secret.txt", join(box.root, "rel.lnk"));
      const before = await outsideSnapshot(box);
      const patch = (path: string) => ({
        patch: `*** Begin Patch\n*** Delete File: ${path}\n*** End Patch`,
      });
      const calls: [string, Record<string, unknown>][] = [
        ["patch", patch("in.lnk")],
        ["patch", patch("out.lnk")],
        ["patch", patch("rel.lnk")],
        ["patch", patch("outdir/secret.txt")], // a file beyond a directory link out
        ["patch", patch("outdir")],
      ];
      const { report } = await runChild<
        { pinned: boolean; results: { content: string; code: string | null }[] }
      >(
        "./_calls_child.ts",
        [box.root, JSON.stringify(calls)],
        { permissions: mode.permissions(box.base) },
      );
      // C15.5: under path checks patch deletes nothing at all (the provider refuses).
      const deleted = (link: string) =>
        report.pinned ? [`Deleted ${link}`, null] : [
          `Error: cannot patch "${link}" (Delete File, patch line 2): permission denied (it needs Deno's --allow-all: with path checks a concurrent swap could make it touch entries outside the roots)`,
          "FS_PERMISSION_DENIED",
        ];
      assert.deepEqual(report.results.map((r) => [r.content, r.code]), [
        deleted("in.lnk"),
        deleted("out.lnk"),
        deleted("rel.lnk"),
        ['Error: cannot patch "outdir/secret.txt": outside the permitted roots', "FS_OUTSIDE_ROOT"],
        deleted("outdir"),
      ]);
      assert.equal(await Deno.readTextFile(join(box.root, "t.txt")), "target\n");
      for (const link of ["in.lnk", "out.lnk", "rel.lnk", "outdir"]) {
        const left = await Deno.lstat(join(box.root, link)).catch(() => null);
        assert.equal(left === null, report.pinned, link);
      }
      assert.deepEqual([...(await outsideSnapshot(box)).entries()], [...before.entries()]);
    },
  });
}
