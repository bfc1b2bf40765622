// CONTRACT C6 (structured values) at the tools level, against real files.

import assert from "node:assert/strict";
import { join } from "node:path";
import { sandbox } from "../_sandbox.ts";
import { BOM, concat } from "./_shared.ts";

Deno.test("C6 values carry absolute lexical paths and text without a BOM", async () => {
  await using box = await sandbox("local", { "real.txt": concat(BOM, "x\n") });
  const { root } = box;
  await Deno.symlink("real.txt", join(root, "link.txt"));
  const { tools } = box;
  const read = await tools.execute("read", { file_path: "link.txt" });
  assert.deepEqual(read.value, {
    path: join(root, "link.txt"),
    offset: 1,
    lines: [{ number: 1, text: "x" }],
    totalLines: 1,
  });
  const write = await tools.execute("write", { file_path: "link.txt", content: "\uFEFFy\n" });
  assert.deepEqual(write.value, {
    path: join(root, "link.txt"),
    operation: "update",
    before: "x\n",
    after: "y\n",
  });
  const edit = await tools.execute("edit", {
    file_path: "link.txt",
    old_string: "y",
    new_string: "z",
  });
  assert.deepEqual(edit.value, { path: join(root, "link.txt"), before: "y\n", after: "z\n" });
  assert.deepEqual(await Deno.readFile(join(root, "real.txt")), concat(BOM, "z\n"));
});
