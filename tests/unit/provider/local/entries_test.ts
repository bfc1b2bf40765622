// The last step of a move or delete (C15.2, C15.3; issue 30 item 1): the name is removed only
// while it still names the entry checked. Anything else found there is put back, never removed,
// and never left under the aside name when its own name is free.

import assert from "node:assert/strict";
import { join } from "node:path";
import { removeIfStill } from "../../../../src/provider/local/_entries.ts";

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("removeIfStill removes the entry it was given, and nothing else", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolfs_entries_" });
  try {
    const path = join(dir, "a.txt");
    await Deno.writeTextFile(path, "mine\n");
    const mine = await Deno.lstat(path);
    // Another file took the name meanwhile (an editor's atomic save, say): it stays. (The
    // checked file lives on, as the caller's open descriptor keeps it: its inode is not reused.)
    await Deno.rename(path, join(dir, "kept.txt"));
    await Deno.writeTextFile(join(dir, "b.txt"), "theirs\n");
    await Deno.rename(join(dir, "b.txt"), path);
    assert.equal(await removeIfStill(path, mine), false);
    assert.equal(await Deno.readTextFile(path), "theirs\n");
    assert.deepEqual(await names(dir), ["a.txt", "kept.txt"]);
    // A directory (which cannot be linked back) is renamed back.
    await Deno.remove(path);
    await Deno.mkdir(path);
    await Deno.writeTextFile(join(path, "x"), "x");
    assert.equal(await removeIfStill(path, mine), false);
    assert.deepEqual(await names(dir), ["a.txt", "kept.txt"]);
    assert.equal(await Deno.readTextFile(join(path, "x")), "x");
    // A link is judged itself, never followed.
    await Deno.remove(path, { recursive: true });
    await Deno.writeTextFile(join(dir, "t.txt"), "target\n");
    await Deno.symlink(join(dir, "t.txt"), path);
    assert.equal(await removeIfStill(path, await Deno.stat(join(dir, "t.txt"))), false);
    assert.equal(await Deno.readLink(path), join(dir, "t.txt"));
    assert.equal(await removeIfStill(path, await Deno.lstat(path)), true);
    assert.deepEqual(await names(dir), ["kept.txt", "t.txt"]);
    // Missing: nothing to do.
    assert.equal(await removeIfStill(path, mine), false);
    const kept = join(dir, "kept.txt");
    assert.equal(await removeIfStill(kept, await Deno.lstat(kept)), true);
    assert.deepEqual(await names(dir), ["t.txt"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
