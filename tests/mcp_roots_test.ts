/**
 * Drives the MCP server (`mcp.ts`) with the official MCP SDK client declaring the `roots`
 * capability: the client's roots against the command line's (C13.2). Needs -A (see
 * tests/_mcp_client.ts).
 */

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem, systemPrompt } from "../mod.ts";
import { clientRootsLeftOutMessage, NO_ROOTS_MESSAGE } from "../src/render/mcp_render.ts";
import { connectStdio, test, until } from "./_mcp_client.ts";
import { sandbox } from "./_sandbox.ts";

// C13.2 — client roots

test("C13.2: with no directory on the command line, the client's roots are the roots", async () => {
  await using box = await sandbox("local", { "a/one.txt": "1\n", "b/two.txt": "2\n" });
  const { root } = box;
  const a = join(root, "a");
  const b = join(root, "b");
  const server = await connectStdio(["task", "--quiet", "mcp"], { roots: [a] });
  try {
    await until(
      "the roots line",
      () => server.stderr().includes("roots in force"),
      server.stderr,
    );
    assert(
      server.stderr().includes(`toolfs mcp: roots in force (from the client): ${a} (read-write)`),
      server.stderr(),
    );
    // The session cwd is the first root in force.
    assertEquals(
      (await server.call("read", { file_path: "one.txt" })).content[0].text.split("\n")[0],
      "<path>one.txt</path>",
    );
    assertEquals(
      (await server.call("read", { file_path: join(b, "two.txt") })).content[0].text,
      `Error: cannot read "${join(b, "two.txt")}": outside the permitted roots`,
    );
    // C13.2: notifications/roots/list_changed makes the server ask again.
    await server.setRoots([b]);
    assertEquals(
      (await server.call("read", { file_path: "two.txt" })).content[0].text.split("\n")[0],
      "<path>two.txt</path>",
    );
    assertEquals(
      (await server.call("list", { path: a })).content[0].text,
      `Error: cannot list "${a}": outside the permitted roots`,
    );
    await until(
      "the new roots line",
      () => server.stderr().includes(`(from the client): ${b} (read-write)`),
      server.stderr,
    );
  } finally {
    await server.close();
  }
});

test("C13.2: with command-line roots, only client roots inside them are used", async () => {
  await using box = await sandbox("local", { "sub/in.txt": "in\n", "top.txt": "top\n" });
  const { root, base: dir } = box;
  const sub = join(root, "sub");
  const server = await connectStdio(["task", "--quiet", "mcp", root], { roots: [sub, dir] });
  try {
    await until(
      "the roots line",
      () => server.stderr().includes("(from the client)"),
      server.stderr,
    );
    assert(
      server.stderr().includes(
        `toolfs mcp: roots in force (from the client): ${sub} (read-write)\n`,
      ),
      server.stderr(),
    );
    assertEquals(
      (await server.call("read", { file_path: "in.txt" })).content[0].text.split("\n")[0],
      "<path>in.txt</path>",
    );
    assertEquals(
      (await server.call("read", { file_path: join(root, "top.txt") })).content[0].text,
      `Error: cannot read "${join(root, "top.txt")}": outside the permitted roots`,
    );
    // No client root inside the command-line roots: the command-line roots.
    await server.setRoots([dir]);
    assertEquals(
      (await server.call("read", { file_path: "top.txt" })).content[0].text.split("\n")[0],
      "<path>top.txt</path>",
    );
    assert(
      server.stderr().includes(
        `toolfs mcp: roots in force (from the command line): ${root} (read-write)`,
      ),
      server.stderr(),
    );
  } finally {
    await server.close();
  }
});

test("C13.2: a client root inside a read-only command-line root stays read-only", async () => {
  await using box = await sandbox("local", { "docs/guide.md": "g\n" });
  const { root } = box;
  const docs = join(root, "docs");
  const server = await connectStdio(["task", "--quiet", "mcp", "--read-only", root], {
    roots: [docs],
  });
  try {
    assertEquals((await server.call("read", { file_path: "guide.md" })).isError, false);
    assertEquals(
      (await server.call("write", { file_path: "guide.md", content: "x" })).content[0].text,
      `Error: cannot write "guide.md": the root is read-only`,
    );
  } finally {
    await server.close();
  }
});

test("C13.2: no directory and no client roots: a tool call says so, the server keeps serving", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  const plain = await connectStdio(["task", "--quiet", "mcp"]);
  try {
    // C13.5: no roots in force at initialize: the guidance only, no workspace section.
    const definitions = createFsTools({
      fs: new LocalFileSystem({ roots: [root] }),
      tools: ["list", "read", "write", "edit", "glob", "grep", "move", "delete"],
    }).definitions;
    assertEquals(plain.client.getInstructions(), systemPrompt(definitions));
    assertEquals(await plain.call("list", {}), {
      content: [{ type: "text", text: NO_ROOTS_MESSAGE }],
      isError: true,
    });
    assertEquals((await plain.client.listTools()).tools.length > 0, true);
    await until(
      "the roots line",
      () => plain.stderr().includes("no roots in force"),
      plain.stderr,
    );
  } finally {
    await plain.close();
  }
  const empty = await connectStdio(["task", "--quiet", "mcp"], { roots: [] });
  try {
    assertEquals((await empty.call("list", {})).content[0].text, NO_ROOTS_MESSAGE);
    // A root that does not exist is left out and said so.
    await empty.setRoots([join(root, "gone")]);
    // issue 30 item 11: the call names the client root left out and why.
    assertEquals(
      (await empty.call("list", {})).content[0].text,
      clientRootsLeftOutMessage([`"${join(root, "gone")}": does not exist`]),
    );
    // stderr and stdout are two pipes: the log line may arrive after the result.
    await until(
      "the left-out root line",
      () => empty.stderr().includes(`client root "${join(root, "gone")}": does not exist`),
      empty.stderr,
    );
    await empty.setRoots([root]);
    assertEquals((await empty.call("list", {})).isError, false);
  } finally {
    await empty.close();
  }
});
