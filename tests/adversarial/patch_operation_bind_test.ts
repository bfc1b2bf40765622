// C16.5 under attack (issue 30 item 7, the red team's second pass): an apply_patch operation's
// diff tries to reach past its type and path with every operation header and envelope marker,
// each behind the whitespace and other characters the parser might skip (indents, a BOM, a
// no-break space, a carriage return, a hunk marker) and at the start, middle and end of the
// diff, with LF and CRLF breaks. No call may change any file but the one the operation names,
// and a header the parser reads as an operation is refused: the first line
// ` *** Move to: <p>` of an update's diff was read as a move (markers may stand indented) and
// then dropped, so a hunk whose first context line the file lacks was applied anyway.

import assert from "node:assert/strict";
import { join } from "node:path";
import { applyPatchOperation, createFsTools, LocalFileSystem } from "../../mod.ts";
import { adversarialSandbox, outsideSnapshot, snapshot } from "./_harness.ts";

const HEADERS = [
  "*** Delete File: precious.txt",
  "*** Add File: injected.sh",
  "*** Update File: precious.txt",
  "*** Move to: moved.txt",
  "*** End Patch",
  "*** Begin Patch",
];
const PREFIXES = ["", " ", "  ", "\t", "\u00a0", "\ufeff", "\r", "\v", "+", "-", "@@ ", "*"];

/** The diffs of the sweep: each header, behind each prefix, placed three ways, LF and CRLF. */
function attackDiffs(): string[] {
  const out: string[] = [];
  for (const header of HEADERS) {
    for (const prefix of PREFIXES) {
      const body = header.startsWith("*** Add")
        ? `${prefix}${header}\n+#!/bin/sh`
        : header.startsWith("*** Update")
        ? `${prefix}${header}\n@@\n-keep\n+PWNED`
        : `${prefix}${header}`;
      out.push(`@@\n-line\n+LINE\n${body}\n`, `${body}\n@@\n-line\n+LINE\n`);
      out.push(`@@\r\n-line\r\n+LINE\r\n${body.replaceAll("\n", "\r\n")}\r\n`);
    }
  }
  return out;
}

Deno.test("C16.5: no apply_patch diff changes a file its operation does not name (a sweep of hidden headers)", async () => {
  await using box = await adversarialSandbox();
  const outside = await outsideSnapshot(box);
  let calls = 0;
  let completed = 0;
  for (const [i, diff] of attackDiffs().entries()) {
    const dir = join(box.root, `case${i}`);
    await Deno.mkdir(dir);
    await Deno.writeTextFile(join(dir, "a.txt"), "line\nkeep\n");
    await Deno.writeTextFile(join(dir, "precious.txt"), "keep\n");
    const before = await snapshot(dir, (rel) => rel === "a.txt" || rel === "new.txt");
    const tools = createFsTools({
      fs: new LocalFileSystem({ roots: [box.root] }),
      policy: false,
      cwd: dir,
    });
    for (const [type, path] of [["update_file", "a.txt"], ["create_file", "new.txt"]] as const) {
      const outcome = await applyPatchOperation(tools, { type, path, diff });
      calls++;
      if (outcome.status === "completed") completed++;
      const after = await snapshot(dir, (rel) => rel === "a.txt" || rel === "new.txt");
      assert.deepEqual([...after.keys()], [...before.keys()], `${type} ${JSON.stringify(diff)}`);
      for (const [rel, entry] of before) {
        assert.deepEqual(after.get(rel), entry, `${type} ${JSON.stringify(diff)}: ${rel}`);
      }
    }
  }
  assert.deepEqual(await outsideSnapshot(box), outside);
  console.log(`${calls} operations, ${completed} completed, 0 other files touched`);
});

Deno.test("C16.5: an update diff whose first line is an indented *** Move to: is refused, not read as a move and dropped", async () => {
  for (const indent of [" ", "  ", "\t"]) {
    await using box = await adversarialSandbox({ "a.txt": "line\nkeep\n" });
    const tools = createFsTools({ fs: new LocalFileSystem({ roots: [box.root] }), policy: false });
    const first = `${indent}*** Move to: moved.txt`;
    const outcome = await applyPatchOperation(tools, {
      type: "update_file",
      path: "a.txt",
      diff: `${first}\n@@\n-line\n+LINE\n`,
    }, { cwd: box.root });
    assert.deepEqual(outcome, {
      status: "failed",
      output: `Error: invalid patch at line 1: the diff of one operation holds only that ` +
        `operation's lines; send each operation on its own, got ${JSON.stringify(first)}`,
    });
    assert.equal(await Deno.readTextFile(join(box.root, "a.txt")), "line\nkeep\n");
    assert.equal(await Deno.lstat(join(box.root, "moved.txt")).catch(() => null), null);
  }
});
