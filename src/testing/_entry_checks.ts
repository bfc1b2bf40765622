// Conformance checks of the seam's whole-entry methods (C15): listTree, moveEntry,
// removeEntry. Private to src/testing.

import assert from "node:assert/strict";
import type { ConformanceCheck, ProviderFactory, ProviderFixture } from "./fixture.ts";
import { rejectsWith, target, text, withFixture } from "./_assert.ts";

/**
 * C15.5: a provider whose `entriesNeed()` names something this process lacks refuses
 * `moveEntry` and `removeEntry` (`FS_PERMISSION_DENIED`) and changes nothing; the other checks
 * of those methods do not apply to it then.
 */
async function withheld(box: ProviderFixture): Promise<boolean> {
  if ((box.fs.entriesNeed?.() ?? null) === null) return false;
  const files = await box.fs.listTree(await target(box, "root"));
  const from = await target(box, "root/withheld.txt");
  const to = await target(box, "root/withheld2.txt", "move");
  await rejectsWith(box.fs.moveEntry(from, to), "FS_PERMISSION_DENIED");
  await rejectsWith(box.fs.removeEntry(from), "FS_PERMISSION_DENIED");
  assert.deepEqual(await box.fs.listTree(await target(box, "root")), files);
  return true;
}

/** The checks of `listTree`, `moveEntry` and `removeEntry` (C15.2, C15.3, C7.2). */
export function entryChecks(factory: ProviderFactory): ConformanceCheck[] {
  const check = (name: string, fn: () => Promise<void>): ConformanceCheck => ({ name, fn });
  return [
    check(
      "C15: listTree lists the entry and everything below it, parents first, with readText's versions",
      () =>
        withFixture(factory, {
          files: { "root/d/a.txt": "a", "root/d/s/b.txt": "b", "root/d/e/": "" },
        }, async (box) => {
          const d = await target(box, "root/d");
          const entries = await box.fs.listTree(d, { versions: true });
          assert.ok(entries);
          assert.deepEqual(entries[0], { realPath: d.realPath, type: "directory" });
          const byPath = new Map(entries.map((e) => [e.realPath.slice(d.realPath.length), e]));
          assert.deepEqual([...byPath.keys()].sort(), ["", "/a.txt", "/e", "/s", "/s/b.txt"]);
          assert.ok(entries.indexOf(byPath.get("/s")!) < entries.indexOf(byPath.get("/s/b.txt")!));
          const a = await target(box, "root/d/a.txt");
          assert.equal(byPath.get("/a.txt")!.version, (await box.fs.readText(a)).version);
          assert.equal(await box.fs.listTree(await target(box, "root/none")), null);
        }),
    ),
    check(
      "C15.2: moveEntry moves a file and a directory, making parents, never over an entry",
      () =>
        withFixture(factory, {
          files: { "root/a.txt": "a", "root/d/x.txt": "x", "root/taken.txt": "t" },
        }, async (box) => {
          if (await withheld(box)) return;
          const to = await target(box, "root/new/dir/b.txt", "move");
          const moved = await box.fs.moveEntry(await target(box, "root/a.txt"), to);
          assert.equal(moved.type, "file");
          assert.equal(moved.version, (await box.fs.readText(to)).version);
          assert.equal(text(await box.read("root/new/dir/b.txt")), "a");
          assert.equal(await box.read("root/a.txt"), null);
          const dir = await box.fs.moveEntry(
            await target(box, "root/d"),
            await target(box, "root/e", "move"),
          );
          assert.deepEqual({ ...dir }, { type: "directory" });
          assert.equal(text(await box.read("root/e/x.txt")), "x");
          await rejectsWith(
            box.fs.moveEntry(to, await target(box, "root/taken.txt", "move")),
            "FS_EXISTS",
          );
          await rejectsWith(
            box.fs.moveEntry(await target(box, "root/e"), await target(box, "root/taken.txt")),
            "FS_EXISTS",
          );
          assert.equal(text(await box.read("root/taken.txt")), "t");
          assert.equal(text(await box.read("root/new/dir/b.txt")), "a");
        }),
    ),
    check(
      "C15.2: moveEntry refuses a root, a directory into itself, and a missing source",
      () =>
        withFixture(factory, { files: { "root/d/x.txt": "x" } }, async (box) => {
          if (await withheld(box)) return;
          const root = await target(box, "root");
          await rejectsWith(
            box.fs.moveEntry(root, await target(box, "root/d/r", "move")),
            "FS_INVALID_ARGUMENT",
          );
          await rejectsWith(
            box.fs.moveEntry(await target(box, "root/d"), await target(box, "root/d/in")),
            "FS_INVALID_ARGUMENT",
          );
          await rejectsWith(
            box.fs.moveEntry(await target(box, "root/none"), await target(box, "root/z")),
            "FS_NOT_FOUND",
          );
          assert.equal(text(await box.read("root/d/x.txt")), "x");
        }),
    ),
    check(
      "C15.3: removeEntry removes a file, an empty directory, a tree only when recursive, never a root",
      () =>
        withFixture(factory, {
          files: { "root/a.txt": "a", "root/e/": "", "root/d/x.txt": "x", "root/d/s/y.txt": "y" },
        }, async (box) => {
          if (await withheld(box)) return;
          const file = await box.fs.removeEntry(await target(box, "root/a.txt"));
          assert.deepEqual({ ...file }, { type: "file", files: 1, directories: 0 });
          assert.equal(await box.read("root/a.txt"), null);
          const empty = await box.fs.removeEntry(await target(box, "root/e"));
          assert.deepEqual({ ...empty }, { type: "directory", files: 0, directories: 1 });
          const d = await target(box, "root/d");
          await rejectsWith(box.fs.removeEntry(d), "FS_NOT_EMPTY");
          assert.equal(text(await box.read("root/d/x.txt")), "x");
          const tree = await box.fs.removeEntry(d, { recursive: true });
          assert.deepEqual({ ...tree }, { type: "directory", files: 2, directories: 2 });
          assert.equal(await box.read("root/d/s/y.txt"), null);
          await rejectsWith(
            box.fs.removeEntry(await target(box, "root"), { recursive: true }),
            "FS_INVALID_ARGUMENT",
          );
          await rejectsWith(box.fs.removeEntry(await target(box, "root/none")), "FS_NOT_FOUND");
        }),
    ),
    check(
      "C15.3: removeEntry with expect removes nothing when a file changed or is not expected",
      () =>
        withFixture(
          factory,
          { files: { "root/d/x.txt": "x", "root/d/y.txt": "y" } },
          async (box) => {
            if (await withheld(box)) return;
            const d = await target(box, "root/d");
            const entries = (await box.fs.listTree(d, { versions: true }))!;
            const versions = new Map(
              entries.filter((e) => e.type === "file").map((e) => [e.realPath, e.version!]),
            );
            await box.write("root/d/y.txt", "changed");
            await rejectsWith(
              box.fs.removeEntry(d, { recursive: true, expect: versions }),
              "FS_STALE",
            );
            assert.equal(text(await box.read("root/d/x.txt")), "x");
            const fresh = (await box.fs.listTree(d, { versions: true }))!;
            const current = new Map(
              fresh.filter((e) => e.type === "file").map((e) => [e.realPath, e.version!]),
            );
            await box.write("root/d/z.txt", "new");
            await rejectsWith(
              box.fs.removeEntry(d, { recursive: true, expect: current }),
              "FS_STALE",
            );
            assert.equal(text(await box.read("root/d/z.txt")), "new");
            const x = await target(box, "root/d/x.txt");
            await rejectsWith(box.fs.removeEntry(x, { expect: new Map() }), "FS_STALE");
            assert.equal(text(await box.read("root/d/x.txt")), "x");
          },
        ),
    ),
    check(
      "C7.2: an aborted moveEntry or removeEntry changes nothing",
      () =>
        withFixture(factory, { files: { "root/a.txt": "a" } }, async (box) => {
          const signal = AbortSignal.abort();
          const a = await target(box, "root/a.txt");
          await rejectsWith(box.fs.removeEntry(a, { signal }), "FS_ABORTED");
          await rejectsWith(
            box.fs.moveEntry(a, await target(box, "root/b.txt", "move"), { signal }),
            "FS_ABORTED",
          );
          assert.equal(text(await box.read("root/a.txt")), "a");
          assert.equal(await box.read("root/b.txt"), null);
        }),
    ),
  ];
}
