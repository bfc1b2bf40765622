/**
 * Drives the MCP server (`mcp.ts`) over stdio with the official MCP SDK client: results as text
 * (C13.1), sessions, roots, options and usage errors, oversize and malformed messages (C13.4).
 * Needs -A (see tests/_mcp_client.ts).
 */

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem, systemPrompt } from "../mod.ts";
import { toMcpTools } from "../formats.ts";
import { MCP_SERVER_NAME, MCP_SERVER_VERSION } from "../mcp.ts";
import {
  connectStdio,
  exists,
  PROJECT,
  RAW_INITIALIZE,
  runMcp,
  test,
  withServer,
} from "./_mcp_client.ts";
import { sandbox } from "./_sandbox.ts";

// C13.1 — text only by default

test("C13.1: tools/list returns the tools with exactly our schemas and no outputSchema", async () => {
  await withServer({}, async (connect, root) => {
    const { client } = await connect();
    // C15.1: every tool but patch is served by default, move and delete included.
    const local = createFsTools({
      fs: new LocalFileSystem({ roots: [root] }),
      tools: ["list", "read", "write", "edit", "glob", "grep", "move", "delete"],
    });
    const { tools } = await client.listTools();
    assertEquals(tools, toMcpTools(local.definitions));
    assertEquals(tools.map((t) => t.name), local.definitions.map((d) => d.name));
    assert(tools.every((t) => !("outputSchema" in t)));
    assertEquals(tools[0].annotations, {
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    assertEquals(tools[2].annotations?.destructiveHint, true);
    assertEquals(tools[1].inputSchema.properties?.limit, {
      type: "integer",
      minimum: 1,
      maximum: 2000,
      default: 2000,
    });
    // C13.5: the instructions carry the workspace, the roots in force at initialize.
    const fs = new LocalFileSystem({ roots: [root] });
    assertEquals(client.getInstructions(), systemPrompt(local.definitions, { roots: fs.roots }));
    assertEquals(client.getServerVersion(), {
      name: MCP_SERVER_NAME,
      version: MCP_SERVER_VERSION,
    });
  });
});

test("C15.1: --tools chooses the tools served; delete works over MCP", async () => {
  await withServer({ "a.txt": "a\n" }, async (connect) => {
    const { client, call } = await connect("--tools", "read,delete");
    const { tools } = await client.listTools();
    assertEquals(tools.map((t) => t.name), ["read", "delete"]);
    assertEquals((await call("delete", { path: "a.txt" })).content, [
      { type: "text", text: 'Error: cannot delete "a.txt": read it first' },
    ]);
    await call("read", { file_path: "a.txt" });
    assertEquals((await call("delete", { path: "a.txt" })).content, [
      { type: "text", text: "Deleted a.txt" },
    ]);
  });
});

test("C13.1: a read result is exactly the contract text and isError, no structuredContent", async () => {
  await withServer({ "notes.md": "# Notes\r\n\r\nfirst\r\n" }, async (connect) => {
    const { call } = await connect();
    assertEquals(await call("read", { file_path: "notes.md", offset: 2 }), {
      content: [{
        type: "text",
        text: "<path>notes.md</path>\n<type>file</type>\n<content>\n2: \n3: first\n\n" +
          "(End of file - total 3 lines)\n</content>",
      }],
      isError: false,
    });
  });
});

test("C17.3: a PNG read is the text item, then an image item with the file's bytes", async () => {
  await withServer({}, async (connect, root) => {
    const png = await Deno.readFile(new URL("./fixtures/media/red.png", import.meta.url));
    await Deno.writeFile(join(root, "red.png"), png);
    const { call } = await connect();
    // What the conformance scenario tools-call-image checks (an image item with data and
    // mimeType), on our read tool: the scenario itself calls a tool named test_image_content.
    assertEquals(await call("read", { file_path: "red.png" }), {
      content: [
        {
          type: "text",
          text:
            "<path>red.png</path>\n<type>image</type>\n<content>\nimage/png 3x2, 84 B\n</content>",
        },
        { type: "image", data: btoa(String.fromCharCode(...png)), mimeType: "image/png" },
      ],
      isError: false,
    });
  });
});

test("C13.1: an edit result is the one-line text, without the file's before and after", async () => {
  await withServer({ "big.txt": "x\n".repeat(50_000) + "needle\n" }, async (connect) => {
    const { call } = await connect();
    assertEquals((await call("read", { file_path: "big.txt", limit: 1 })).isError, false);
    assertEquals(
      await call("edit", { file_path: "big.txt", old_string: "needle", new_string: "pin" }),
      {
        content: [{ type: "text", text: "The file big.txt has been updated successfully." }],
        isError: false,
      },
    );
  });
});

test("C13.1: --structured adds structuredContent and an outputSchema the client validates", async () => {
  await withServer({ "notes.md": "a\nb\n", "other.md": "o\n" }, async (connect, root) => {
    const { client, call } = await connect("--structured");
    const { tools } = await client.listTools();
    assert(tools.every((t) => t.outputSchema?.type === "object"), JSON.stringify(tools));
    // The SDK client checks structuredContent against outputSchema and throws on a mismatch.
    assertEquals(await call("read", { file_path: "notes.md" }), {
      content: [{
        type: "text",
        text: "<path>notes.md</path>\n<type>file</type>\n<content>\n1: a\n2: b\n\n" +
          "(End of file - total 2 lines)\n</content>",
      }],
      isError: false,
      structuredContent: {
        path: join(root, "notes.md"),
        offset: 1,
        lines: [{ number: 1, text: "a" }, { number: 2, text: "b" }],
        totalLines: 2,
      },
    });
    const listed = await call("list", {});
    assertEquals(listed.structuredContent?.path, root);
    const written = await call("write", { file_path: "new.txt", content: "n\n" });
    assertEquals(written.structuredContent?.operation, "create");
    assertEquals((await call("write", { file_path: "other.md", content: "z" }))._meta, {
      "toolfs/error": { name: "FsError", code: "FS_NOT_OBSERVED" },
    });
  });
});

test("C13.1: a write before a read fails with only the text, and works after one", async () => {
  await withServer({ "config.json": "{}\n" }, async (connect, root) => {
    const { call } = await connect();
    const refused = await call("write", { file_path: "config.json", content: '{"a":1}\n' });
    assertEquals(Object.keys(refused).sort(), ["content", "isError"]);
    assertEquals(refused.isError, true);
    // C5.3, or its C12.7 extension.
    assert(refused.content[0].text.startsWith('Error: cannot write "config.json": '));
    assert(refused.content[0].text.endsWith("read it first"));
    assertEquals(
      refused.content[0].text,
      'Error: cannot write "config.json": the file already exists; read it first',
    );
    assertEquals(await Deno.readTextFile(join(root, "config.json")), "{}\n");
    assertEquals((await call("read", { file_path: "config.json" })).isError, false);
    assertEquals(await call("write", { file_path: "config.json", content: '{"a":1}\n' }), {
      content: [{
        type: "text",
        text: "<path>config.json</path>\n<type>file</type>\n<content>\nUpdated file\n</content>",
      }],
      isError: false,
    });
    assertEquals(await Deno.readTextFile(join(root, "config.json")), '{"a":1}\n');
  });
});

test("mcp: one stdio connection is one session, so a read over another does not count", async () => {
  await withServer({ "a.txt": "a\n" }, async (connect) => {
    const first = await connect();
    assertEquals((await first.call("read", { file_path: "a.txt" })).isError, false);
    const second = await connect();
    const edit = await second.call("edit", {
      file_path: "a.txt",
      old_string: "a",
      new_string: "b",
    });
    assertEquals(edit.content, [{
      type: "text",
      text: 'Error: cannot edit "a.txt": read it first',
    }]);
    const own = await first.call("edit", { file_path: "a.txt", old_string: "a", new_string: "b" });
    assertEquals(own.content, [{
      type: "text",
      text: "The file a.txt has been updated successfully.",
    }]);
  });
});

test("mcp: an escape from the root returns FS_OUTSIDE_ROOT and reads nothing", async () => {
  await withServer({ "../outside.txt": "secret\n" }, async (connect, root) => {
    const { call } = await connect();
    const outside = join(root, "..", "outside.txt");
    for (const path of ["../outside.txt", outside]) {
      assertEquals(await call("read", { file_path: path }), {
        content: [{
          type: "text",
          text: `Error: cannot read "${path}": outside the permitted roots`,
        }],
        isError: true,
      });
    }
    const written = await call("write", { file_path: "../escape.txt", content: "x" });
    assertEquals(written.isError, true);
    assert(!(await exists(join(root, "..", "escape.txt"))));
  });
});

test("mcp: an unknown tool and invalid arguments are tool errors, not protocol errors", async () => {
  await withServer({}, async (connect) => {
    const { call } = await connect();
    const unknown = await call("no_such_tool", {});
    assertEquals(unknown.isError, true);
    assert(unknown.content[0].text.startsWith('Error: unknown tool "no_such_tool"'));
    assertEquals((await call("read", { file_path: "" })).content, [{
      type: "text",
      text: "Error: file_path must be a non-empty string",
    }]);
  });
});

test("mcp: --read-only adds a root that can be read but never written", async () => {
  await withServer({}, async (connect, root) => {
    const docs = join(root, "..", "docs");
    await Deno.mkdir(docs);
    await Deno.writeTextFile(join(docs, "guide.md"), "hi\n");
    const { call, client } = await connect("--read-only", docs);
    const real = await Deno.realPath(root);
    const realDocs = await Deno.realPath(docs);
    // C13.5: the instructions name the workspace and each root in force with its access.
    assertEquals(
      client.getInstructions()?.split("\n\n").at(-1),
      `The workspace is ${real}; relative paths resolve against it. Paths must lie inside these roots: ${real} (read-write), ${realDocs} (read-only).`,
    );
    const guide = join(docs, "guide.md");
    assertEquals((await call("read", { file_path: guide })).isError, false);
    const written = await call("write", { file_path: guide, content: "bye\n" });
    assertEquals(written.content, [{
      type: "text",
      text: `Error: cannot write "${guide}": the root is read-only`,
    }]);
    assertEquals(await Deno.readTextFile(guide), "hi\n");
  });
});

test("C15.2/C15.3 (issue 30.4): over MCP a --read-only root nested in the workspace neither moves nor goes with its ancestor", async () => {
  await withServer({ "a/vendor/v.txt": "v\n", "a/x.txt": "x\n" }, async (connect, root) => {
    const vendor = join(root, "a", "vendor");
    const { call } = await connect("--read-only", vendor);
    const real = await Deno.realPath(vendor);
    for (const file_path of ["a/x.txt", "a/vendor/v.txt"]) await call("read", { file_path });
    // deno task mcp runs with --allow-all: move and delete are served (C15.5).
    const moved = await call("move", { source_path: "a", destination_path: "b" });
    assertEquals([moved.content, moved.isError], [
      [{ type: "text", text: `Error: cannot move "a": it holds the root ${JSON.stringify(real)}` }],
      true,
    ]);
    const deleted = await call("delete", { path: "a", recursive: true });
    assertEquals([deleted.content, deleted.isError], [
      [{
        type: "text",
        text: `Error: cannot delete "a": it holds the root ${JSON.stringify(real)}`,
      }],
      true,
    ]);
    assertEquals(await Deno.readTextFile(join(vendor, "v.txt")), "v\n");
    assertEquals(await Deno.readTextFile(join(root, "a", "x.txt")), "x\n");
    assertEquals(await Deno.lstat(join(root, "b")).catch(() => null), null);
  });
});

test("C7.3: the server runs with only --no-prompt --allow-read=<root> --allow-write=<root>", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { root } = box;
  const server = await connectStdio([
    "run",
    "--no-prompt",
    `--allow-read=${root}`,
    `--allow-write=${root}`,
    join(PROJECT, "mcp.ts"),
    root,
  ]);
  try {
    assertEquals((await server.call("read", { file_path: "a.txt" })).isError, false);
    const edited = await server.call("edit", {
      file_path: "a.txt",
      old_string: "a",
      new_string: "b",
    });
    assertEquals(edited.isError, false, server.stderr());
    assertEquals(await Deno.readTextFile(join(root, "a.txt")), "b\n");
  } finally {
    await server.close();
  }
});

test("mcp: a missing root or a bad option is a usage error without a stack trace", async () => {
  const missing = await runMcp(["/definitely/not/here"]);
  assertEquals(missing.code, 1);
  assertEquals(missing.stdout, "");
  assertEquals(
    missing.stderr,
    'toolfs mcp: root "/definitely/not/here" does not exist: create it or pass another directory\n',
  );
  const bad = await runMcp(["--bogus"]);
  assertEquals(bad.code, 2);
  assert(bad.stderr.startsWith("toolfs mcp: Unknown option '--bogus'"), bad.stderr);
  assert(!bad.stderr.includes("    at "), bad.stderr);
});

// C13.4 — messages the server cannot take

test("C13.4: an 11 MiB message gets a JSON-RPC error and the server keeps serving (stdio)", async () => {
  await withServer({}, async (connect, root) => {
    const { call } = await connect();
    const content = "x".repeat(11 * 1024 * 1024);
    let failure: unknown;
    try {
      await call("write", { file_path: "huge.txt", content });
    } catch (error) {
      failure = error;
    }
    assert(failure instanceof Error, "the oversize call must be answered with an error");
    assert(
      /message too large: \d+ bytes, the limit is 10485760 bytes \(10 MiB\)/.test(failure.message),
      failure.message,
    );
    assert(!(await exists(join(root, "huge.txt"))));
    assertEquals((await call("write", { file_path: "small.txt", content: "s\n" })).isError, false);
    assertEquals(await Deno.readTextFile(join(root, "small.txt")), "s\n");
  });
});

test("C13.4: a line that is not JSON gets a parse error and the server keeps serving (stdio)", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(PROJECT, "mcp.ts"), root],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const nextLine = async (): Promise<unknown> => {
    while (!buffered.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("the server closed its output");
      buffered += value;
    }
    const at = buffered.indexOf("\n");
    const line = buffered.slice(0, at);
    buffered = buffered.slice(at + 1);
    return JSON.parse(line);
  };
  const send = (text: string) => writer.write(new TextEncoder().encode(text + "\n"));
  try {
    await send("this is not json");
    const parse = await nextLine() as { id: unknown; error: { code: number; message: string } };
    assertEquals(parse.id, null);
    assertEquals(parse.error.code, -32700);
    assert(parse.error.message.startsWith("parse error: "), parse.error.message);
    await send('{"id":3,"method":"ping"}');
    assertEquals(await nextLine(), {
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32600,
        message: 'invalid request: not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0")',
      },
    });
    await send(RAW_INITIALIZE);
    const init = await nextLine() as { id: number; result: { serverInfo: { name: string } } };
    assertEquals(init.id, 1);
    assertEquals(init.result.serverInfo.name, MCP_SERVER_NAME);
  } finally {
    await writer.close();
    await lines.cancel();
    await child.status;
  }
});

Deno.test("mcp: the server version is the package version", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(PROJECT, "deno.json")));
  assertEquals(MCP_SERVER_VERSION, config.version);
});

// C15.1/C16 — patch is served only when --tools names it

test("C15.1/C16: patch is not served by default; --tools read,patch serves exactly those", async () => {
  await withServer({ "a.txt": "one\n" }, async (connect, root) => {
    const plain = await connect();
    assert(!(await plain.client.listTools()).tools.some((t) => t.name === "patch"));
    const chosen = await connect("--tools", "read,patch");
    assertEquals((await chosen.client.listTools()).tools.map((t) => t.name), ["read", "patch"]);
    await chosen.call("read", { file_path: "a.txt" });
    const result = await chosen.call("patch", {
      patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch",
    });
    assertEquals(result.content, [{ type: "text", text: "Updated a.txt" }]);
    assertEquals(await Deno.readTextFile(join(root, "a.txt")), "two\n");
  });
});
