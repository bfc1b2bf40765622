// CONTRACT C15.2 and C15.3 where the OS refuses part of the work: run as `nobody`, a `move` out
// of a directory nobody may not write, or a recursive `delete` of a tree holding one, fails with
// `permission denied` and changes nothing: no new name left at the destination (0.4.0's first
// cut linked the file there, then failed to unlink the source and left both names), and no tree
// hidden under `.toolfs-<8 hex>.del` (it failed to remove the tree it had renamed aside and left
// it there). Descriptor checks only (C15.5 withholds both under path checks). Needs the
// superuser (to become nobody), setpriv and --allow-run: `deno task test:core`.

import assert from "node:assert/strict";
import { join } from "node:path";
import { readableCopy } from "../_readable_copy.ts";
import { cannotRun, granted, skipUnless } from "../adversarial/_harness.ts";
import { NOBODY, nobodyDeno } from "../adversarial/_nobody.ts";

const uid = granted({ name: "sys", kind: "uid" }) ? Deno.uid() : null;

const name =
  "C15.2/C15.3 as nobody: a move or delete the OS refuses (a directory it may not write) changes nothing";
Deno.test({
  name,
  ignore: skipUnless(
    name,
    cannotRun("setpriv") ??
      (Deno.build.os !== "linux"
        ? "needs Linux"
        : uid === 0
        ? null
        : "needs the superuser (to run a child as nobody)"),
  ),
  async fn() {
    const base = await Deno.makeTempDir({ prefix: "toolfs_c15_os_" });
    await Deno.chmod(base, 0o755);
    const root = join(base, "root");
    try {
      for (const dir of ["locked", "t/locked"]) {
        await Deno.mkdir(join(root, dir), { recursive: true });
      }
      await Deno.writeTextFile(join(root, "locked/f.txt"), "f\n");
      await Deno.symlink("f.txt", join(root, "locked/l.lnk"));
      await Deno.writeTextFile(join(root, "t/locked/g.txt"), "g\n");
      for (const path of ["", "locked", "locked/f.txt", "t", "t/locked", "t/locked/g.txt"]) {
        await Deno.chown(join(root, path), NOBODY, NOBODY);
      }
      // nobody owns them all, but may not add or remove names in these two directories.
      for (const dir of ["locked", "t/locked"]) await Deno.chmod(join(root, dir), 0o555);
      const calls = [
        ["move", { source_path: "locked/f.txt", destination_path: "f2.txt" }],
        ["move", { source_path: "locked/l.lnk", destination_path: "l2.lnk" }],
        ["delete", { path: "t", recursive: true }],
      ];
      const script = new URL("tests/adversarial/_calls_child.ts", readableCopy()).pathname;
      const child = await nobodyDeno(base, ["--allow-all"], script, [root, JSON.stringify(calls)]);
      const { success, stdout, stderr } = await child.output();
      assert.ok(success, new TextDecoder().decode(stderr));
      const report = JSON.parse(new TextDecoder().decode(stdout).trim().split("\n").at(-1)!) as {
        pinned: boolean;
        results: { content: string; code: string | null }[];
      };
      assert.equal(report.pinned, true);
      assert.deepEqual(report.results, [
        {
          content: 'Error: cannot move "locked/f.txt": permission denied',
          code: "FS_PERMISSION_DENIED",
        },
        {
          content: 'Error: cannot move "locked/l.lnk": permission denied',
          code: "FS_PERMISSION_DENIED",
        },
        { content: 'Error: cannot delete "t": permission denied', code: "FS_PERMISSION_DENIED" },
      ]);
      // Nothing changed: every name as it was, nothing new beside them.
      assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), ["locked", "t"]);
      assert.deepEqual([...Deno.readDirSync(join(root, "locked"))].map((e) => e.name).sort(), [
        "f.txt",
        "l.lnk",
      ]);
      assert.equal(await Deno.readTextFile(join(root, "locked/f.txt")), "f\n");
      assert.equal((await Deno.stat(join(root, "locked/f.txt"))).nlink, 1);
      assert.equal(await Deno.readLink(join(root, "locked/l.lnk")), "f.txt");
      assert.equal(await Deno.readTextFile(join(root, "t/locked/g.txt")), "g\n");
    } finally {
      for (const dir of ["locked", "t/locked"]) {
        await Deno.chmod(join(root, dir), 0o755).catch(() => {});
      }
      await Deno.remove(base, { recursive: true });
    }
  },
});
