// C15.2 and C15.5 under attack (issue 30 items 1 and 2): while _swapper.ts swaps a directory
// inside the root for a symlink to an outside directory thousands of times a second, `move` and
// `delete` go through it: files, trees and directories out of it, files into it, and, with a
// second root on another file system (/dev/shm, under --allow-all), files copied into and out
// of a swapped directory there. In every check mode a host can run them in: descriptor checks (--allow-all,
// as `deno task mcp` and `deno task cli` run) and path checks (0.3.0's task flags
// --allow-read --allow-write, and grants scoped to the roots), where C15.5 withholds them. No
// entry outside the roots may be created, changed or removed. Slow: `deno task test:slow`.

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  adversarialSandbox,
  cannotRun,
  figure,
  notSlowRun,
  outsideSnapshot,
  runChild,
  SECRET,
  skipUnless,
  snapshot,
  type SnapshotEntry,
  startChild,
} from "./_harness.ts";

const ROUNDS = 400;

const MODES = [
  { name: "descriptor checks: --allow-all, as deno task mcp and cli", pinned: true },
  { name: "path checks: --allow-read --allow-write, 0.3.0's task flags", pinned: false },
  { name: "path checks: grants scoped to the roots", pinned: false },
];

/** What _move_delete_child.ts prints. */
interface ChildReport {
  pinned: boolean;
  names: string[];
  calls: number;
  counts: Record<string, number>;
  malformed: number;
}

/** The permissions of a mode, for roots under `bases`. */
function permissionsOf(mode: number, bases: string[]): string[] {
  if (mode === 0) return ["--allow-all"];
  if (mode === 1) return ["--allow-read", "--allow-write"];
  return [`--allow-read=${bases.join(",")}`, `--allow-write=${bases.join(",")}`];
}

/** Entries of `after` that are new, and of `before` that changed or went. */
function touched(
  before: Map<string, SnapshotEntry>,
  after: Map<string, SnapshotEntry>,
): string[] {
  const created = [...after.keys()].filter((k) => !before.has(k));
  const changed = [...before.keys()].filter((k) => {
    const [was, now] = [before.get(k)!, after.get(k)];
    return !now || was.type !== now.type || was.data !== now.data || was.ino !== now.ino;
  });
  return [...created, ...changed];
}

/** A second file system for the cross-device moves: a directory in /dev/shm, or `null`. */
async function otherFileSystem(than: string): Promise<string | null> {
  const dir = await Deno.makeTempDir({ dir: "/dev/shm", prefix: "toolfs_md_" }).catch(() => null);
  if (dir && (await Deno.stat(dir)).dev === (await Deno.stat(than)).dev) {
    await Deno.remove(dir, { recursive: true });
    return null;
  }
  return dir;
}

for (const [index, mode] of MODES.entries()) {
  const name =
    `move/delete (C15.2, C15.5): ${ROUNDS} rounds through swapped directories, ${mode.name}`;
  Deno.test({
    name,
    ignore: skipUnless(
      name,
      notSlowRun() ?? cannotRun() ?? (Deno.build.os !== "linux" ? "needs Linux" : null),
    ),
    async fn() {
      await using box = await adversarialSandbox();
      const { root, outside } = box;
      const d = join(root, "d");
      await Deno.mkdir(d);
      // Deno opens anything under /dev only with --allow-all: the cross-device moves run under
      // descriptor checks only (path checks withhold move anyway, C15.5).
      const shm = mode.pinned ? await otherFileSystem(box.base) : null;
      const root2 = shm && join(shm, "root2");
      const dd = root2 && join(root2, "dd");
      const outside2 = shm && join(shm, "outside2");
      try {
        for (let i = 0; i < ROUNDS; i++) {
          for (const dir of [d, outside]) {
            const text = dir === d ? "inside\n" : `${SECRET}\n`;
            await Deno.writeTextFile(join(dir, `f${i}.txt`), text);
            await Deno.writeTextFile(join(dir, `m${i}.txt`), text);
            await Deno.mkdir(join(dir, `t${i}`, "sub"), { recursive: true });
            await Deno.writeTextFile(join(dir, `t${i}`, "sub", "x.txt"), text);
            await Deno.mkdir(join(dir, `dir${i}`));
            await Deno.writeTextFile(join(dir, `dir${i}`, "z.txt"), text);
          }
          await Deno.writeTextFile(join(root, `n${i}.txt`), "inside\n");
          await Deno.writeTextFile(join(root, `x${i}.txt`), "inside\n");
          for (const dir of dd && outside2 ? [dd, outside2] : []) {
            await Deno.mkdir(dir, { recursive: true });
            await Deno.writeTextFile(join(dir, `y${i}.txt`), dir === dd ? "inside\n" : SECRET);
          }
        }
        const outsideNow = async () => [
          await outsideSnapshot(box),
          shm ? await snapshot(shm, (rel) => rel === "root2") : new Map(),
        ];
        const before = await outsideNow();
        const stop = join(root, "stop");
        const pairs = [d, outside, ...(dd && outside2 ? [dd, outside2] : [])];
        const swapper = startChild("./_swapper.ts", stop, [stop, ...pairs], {
          permissions: ["--allow-all"],
        });
        for (let i = 0; i < 500; i++) {
          if (await Deno.lstat(`${d}.link`).then(() => true, () => false)) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        let report: ChildReport;
        let swaps = 0;
        try {
          const args = [String(ROUNDS), root, ...(root2 ? [root2] : [])];
          const bases = [box.base, ...(shm ? [shm] : [])];
          ({ report } = await runChild<ChildReport>("./_move_delete_child.ts", args, {
            permissions: permissionsOf(index, bases),
          }));
        } finally {
          ({ swaps } = await swapper.stop<{ swaps: number }>());
        }
        const after = await outsideNow();
        const hit = [...touched(before[0], after[0]), ...touched(before[1], after[1])];
        figure(
          "move/delete races",
          `${mode.name}: ${hit.length} outside entries touched in ${ROUNDS} rounds (${report.calls} calls${
            shm ? ", across file systems too" : ""
          }, ${swaps} swaps): ${JSON.stringify(report.counts)}`,
        );
        assert.deepEqual(hit, [], "entries outside the roots created, changed or removed");
        assert.equal(report.malformed, 0);
        assert.equal(report.pinned, mode.pinned);
        assert.ok(swaps > ROUNDS, `only ${swaps} swaps: the race did not run`);
        if (mode.pinned) {
          // The attacks ran: some moves and deletes went through the swapped directory.
          assert.ok(report.names.includes("move") && report.names.includes("delete"));
          const ok = Object.entries(report.counts).filter(([k]) => k.endsWith(":ok"));
          assert.ok(ok.length > 0, JSON.stringify(report.counts));
        } else {
          // C15.5: withheld, and every call says what it needs.
          assert.deepEqual(report.names, ["list", "read"]);
          const codes = new Set(Object.keys(report.counts).map((k) => k.split(":")[1]));
          assert.deepEqual([...codes], ["FS_PERMISSION_DENIED"]);
        }
      } finally {
        if (shm) await Deno.remove(shm, { recursive: true });
      }
    },
  });
}
