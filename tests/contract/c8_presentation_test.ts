// CONTRACT C8 (`presentCall`, Agent Client Protocol presentation): synchronous, no file access.

import assert from "node:assert/strict";
import {
  deepStrictEqual as assertEquals,
  strictEqual as assertStrictEquals,
} from "node:assert/strict";
import { join } from "node:path";
import { sandbox } from "../_sandbox.ts";

Deno.test("C8 presentCall titles, kinds, rawInput and absolute locations", async () => {
  await using box = await sandbox("local");
  const { root, tools } = box;
  assert.deepEqual(tools.presentCall("list", {}), {
    title: "List .",
    kind: "search",
    locations: [{ path: root }],
  });
  assert.deepEqual(tools.presentCall("list", { path: "src" }, { cwd: "pkg" }), {
    title: "List src",
    kind: "search",
    locations: [{ path: join(root, "pkg/src") }],
  });
  assert.deepEqual(tools.presentCall("read", { file_path: "a/../b.ts" }), {
    title: "Read a/../b.ts",
    kind: "read",
    rawInput: {},
    locations: [{ path: join(root, "b.ts"), line: 1 }],
  });
  assert.deepEqual(tools.presentCall("read", { file_path: "b.ts", offset: 40, limit: 10 }), {
    title: "Read b.ts",
    kind: "read",
    rawInput: { offset: 40, limit: 10 },
    locations: [{ path: join(root, "b.ts"), line: 40 }],
  });
  assert.deepEqual(tools.presentCall("read", { file_path: "b.ts", limit: 10, offset: null }), {
    title: "Read b.ts",
    kind: "read",
    rawInput: { limit: 10 },
    locations: [{ path: join(root, "b.ts"), line: 1 }],
  });
  assert.deepEqual(
    tools.presentCall("write", { file_path: "/abs/c.ts", content: "x".repeat(500) }),
    {
      title: "Write /abs/c.ts",
      kind: "edit",
      locations: [{ path: "/abs/c.ts" }],
    },
  );
  assert.deepEqual(
    tools.presentCall("edit", { file_path: "c.ts", old_string: "a", new_string: "b" }),
    {
      title: "Edit c.ts",
      kind: "edit",
      rawInput: { old_string: "a", new_string: "b" },
      locations: [{ path: join(root, "c.ts") }],
    },
  );
  assert.deepEqual(tools.presentCall("rm", { file_path: "c.ts" }), {
    title: "rm",
    kind: "other",
  });
  return Promise.resolve();
});

Deno.test("C8 edit rawInput clips each string to 80 code points ending in '…'", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  const clipOf = (text: string) =>
    (tools.presentCall("edit", { file_path: "x", old_string: text, new_string: "" }).rawInput as {
      old_string: string;
    }).old_string;
  assert.equal(clipOf("a".repeat(80)), "a".repeat(80));
  assert.equal(clipOf("a".repeat(81)), "a".repeat(79) + "…");
  assert.equal(clipOf("😀".repeat(80)), "😀".repeat(80));
  assert.equal(clipOf("😀".repeat(81)), "😀".repeat(79) + "…");
  assert.equal(Array.from(clipOf("😀".repeat(500))).length, 80);
  return Promise.resolve();
});

Deno.test("presentCall: list is a search titled with its path, located at the directory (C8)", async () => {
  await using box = await sandbox("local");
  const { tools, root } = box;
  assertEquals(tools.presentCall("list", {}), {
    title: "List .",
    kind: "search",
    locations: [{ path: root }],
  });
  assertEquals(tools.presentCall("list", { path: null }), {
    title: "List .",
    kind: "search",
    locations: [{ path: root }],
  });
  assertEquals(tools.presentCall("list", { path: "src/lib" }), {
    title: "List src/lib",
    kind: "search",
    locations: [{ path: join(root, "src/lib") }],
  });
});

Deno.test("presentCall: read shows offset and limit only when given, located at the first line (C8)", async () => {
  await using box = await sandbox("local");
  const { tools, root } = box;
  const path = join(root, "src/a.ts");
  assertEquals(tools.presentCall("read", { file_path: "src/a.ts" }), {
    title: "Read src/a.ts",
    kind: "read",
    rawInput: {},
    locations: [{ path, line: 1 }],
  });
  assertEquals(tools.presentCall("read", { file_path: "src/a.ts", offset: null, limit: null }), {
    title: "Read src/a.ts",
    kind: "read",
    rawInput: {},
    locations: [{ path, line: 1 }],
  });
  assertEquals(tools.presentCall("read", { file_path: "src/a.ts", offset: 40 }), {
    title: "Read src/a.ts",
    kind: "read",
    rawInput: { offset: 40 },
    locations: [{ path, line: 40 }],
  });
  assertEquals(tools.presentCall("read", { file_path: "src/a.ts", limit: 5 }), {
    title: "Read src/a.ts",
    kind: "read",
    rawInput: { limit: 5 },
    locations: [{ path, line: 1 }],
  });
  assertEquals(tools.presentCall("read", { file_path: "src/a.ts", offset: 7, limit: 5 }), {
    title: "Read src/a.ts",
    kind: "read",
    rawInput: { offset: 7, limit: 5 },
    locations: [{ path, line: 7 }],
  });
});

Deno.test("presentCall: write is an edit located at the file, without rawInput (C8)", async () => {
  await using box = await sandbox("local");
  const { tools, root } = box;
  assertEquals(
    tools.presentCall("write", { file_path: "out/new.md", content: "x".repeat(500) }),
    {
      title: "Write out/new.md",
      kind: "edit",
      locations: [{ path: join(root, "out/new.md") }],
    },
  );
});

Deno.test("presentCall: edit clips old_string and new_string to 80 code points ending in … (C8)", async () => {
  await using box = await sandbox("local");
  const { tools, root } = box;
  const exactly80 = "a".repeat(80);
  assertEquals(
    tools.presentCall("edit", { file_path: "a.ts", old_string: exactly80, new_string: "b" }),
    {
      title: "Edit a.ts",
      kind: "edit",
      rawInput: { old_string: exactly80, new_string: "b" },
      locations: [{ path: join(root, "a.ts") }],
    },
  );
  const clipped = tools.presentCall("edit", {
    file_path: "a.ts",
    old_string: "a".repeat(81),
    new_string: "😀".repeat(200),
  });
  assertEquals(clipped.rawInput, {
    old_string: "a".repeat(79) + "…",
    new_string: "😀".repeat(79) + "…",
  });
  assertStrictEquals(Array.from(clipped.rawInput!.new_string as string).length, 80);
});

Deno.test("presentCall resolves locations against ctx.cwd, lexically, and keeps absolute paths", async () => {
  await using box = await sandbox("local");
  const { tools, root } = box;
  assertEquals(tools.presentCall("write", { file_path: "../b.ts" }, { cwd: "pkg" }).locations, [
    { path: join(root, "b.ts") },
  ]);
  assertEquals(tools.presentCall("read", { file_path: "/etc/hosts" }).locations, [
    { path: "/etc/hosts", line: 1 },
  ]);
});

Deno.test("presentCall: an unknown tool is titled with its name, kind other (C8)", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  assertEquals(tools.presentCall("find", { pattern: "x" }), { title: "find", kind: "other" });
});

Deno.test("presentCall presents a path that does not exist, with no file access", async () => {
  await using box = await sandbox("local");
  const { tools, root } = box;
  assertEquals(
    tools.presentCall("edit", { file_path: "nope/x.ts", old_string: "a", new_string: "b" }),
    {
      title: "Edit nope/x.ts",
      kind: "edit",
      rawInput: { old_string: "a", new_string: "b" },
      locations: [{ path: join(root, "nope/x.ts") }],
    },
  );
});
