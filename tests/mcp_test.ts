/**
 * Drives `deno task mcp <root>` as a child process with the official MCP SDK client, the way a
 * real MCP host would. Needs --allow-run and --allow-env besides read and write (CI runs
 * `deno test -A`); without them every test here is skipped, with the reason printed.
 */

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client";
import { createFsTools, LocalFileSystem, systemPrompt } from "../mod.ts";
import { toMcpTools } from "../formats.ts";
import { MCP_SERVER_NAME, MCP_SERVER_VERSION } from "../mcp.ts";

const PROJECT = dirname(dirname(fileURLToPath(import.meta.url)));
const MISSING = (["run", "env"] as const).filter((name) =>
  Deno.permissions.querySync({ name }).state !== "granted"
);
const ignore = MISSING.length > 0;
if (ignore) {
  console.warn(
    `mcp_test.ts: skipped, it starts "deno task mcp" and needs ${
      MISSING.map((n) => `--allow-${n}`).join(" ")
    } (run deno test -A)`,
  );
}

/** A tools/call result as the client returns it. */
interface CallResult {
  content: { type: string; text: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** A connected client and what the server wrote to stderr. */
interface Connection {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  stderr(): string;
  close(): Promise<void>;
}

/** Runs `deno <args>` (by default `deno task mcp <roots>`) and connects the SDK client to it. */
async function connect(args: string[]): Promise<Connection> {
  // Imported here: the stdio transport reads the environment as it loads.
  const { Client } = await import("@modelcontextprotocol/sdk/client");
  const { StdioClientTransport } = await import(
    // @ts-types="@modelcontextprotocol/sdk/client/stdio"
    "@modelcontextprotocol/sdk/client/stdio.js"
  );
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args,
    cwd: PROJECT,
    env: Deno.env.toObject(),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "toolfs-test", version: "0.0.0" });
  await client.connect(transport);
  return {
    client,
    call: async (name, args) =>
      await client.callTool({ name, arguments: args }) as unknown as CallResult,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

async function withServer(
  files: Record<string, string>,
  fn: (connect: (...extra: string[]) => Promise<Connection>, root: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "toolfs_mcp_" }));
  const root = join(dir, "root");
  await Deno.mkdir(root);
  await Deno.writeTextFile(join(dir, "outside.txt"), "secret\n");
  for (const [name, content] of Object.entries(files)) {
    await Deno.writeTextFile(join(root, name), content);
  }
  const open: Connection[] = [];
  try {
    await fn(async (...extra) => {
      const connection = await connect(["task", "--quiet", "mcp", root, ...extra]);
      open.push(connection);
      return connection;
    }, root);
  } finally {
    for (const connection of open) await connection.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const test = (name: string, fn: () => Promise<void>): void => Deno.test({ name, ignore, fn });

test("mcp: tools/list returns the four tools with exactly our schemas and annotations", async () => {
  await withServer({}, async (connect, root) => {
    const { client } = await connect();
    const local = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
    const { tools } = await client.listTools();
    assertEquals(tools, toMcpTools(local.definitions));
    assertEquals(tools.map((t) => t.name), ["list", "read", "write", "edit"]);
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
    assertEquals(client.getInstructions(), systemPrompt(local.definitions));
    assertEquals(client.getServerVersion(), {
      name: MCP_SERVER_NAME,
      version: MCP_SERVER_VERSION,
    });
  });
});

test("mcp: read returns exactly the contract text, with the value as structuredContent", async () => {
  await withServer({ "notes.md": "# Notes\r\n\r\nfirst\r\n" }, async (connect, root) => {
    const { call } = await connect();
    assertEquals(await call("read", { file_path: "notes.md", offset: 2 }), {
      content: [{
        type: "text",
        text: "<path>notes.md</path>\n<type>file</type>\n<content>\n2: \n3: first\n\n" +
          "(End of file - total 3 lines)\n</content>",
      }],
      isError: false,
      structuredContent: {
        path: join(root, "notes.md"),
        offset: 2,
        lines: [{ number: 2, text: "" }, { number: 3, text: "first" }],
        totalLines: 3,
      },
    });
  });
});

test("mcp: write of an existing file before a read is FS_NOT_OBSERVED, and works after one", async () => {
  await withServer({ "config.json": "{}\n" }, async (connect, root) => {
    const { call } = await connect();
    assertEquals(await call("write", { file_path: "config.json", content: '{"a":1}\n' }), {
      content: [{ type: "text", text: 'Error: cannot write "config.json": read it first' }],
      isError: true,
      _meta: { "toolfs/error": { name: "FsError", code: "FS_NOT_OBSERVED" } },
    });
    assertEquals(await Deno.readTextFile(join(root, "config.json")), "{}\n");
    assertEquals((await call("read", { file_path: "config.json" })).isError, false);
    const written = await call("write", { file_path: "config.json", content: '{"a":1}\n' });
    assertEquals(
      written.content[0].text,
      "<path>config.json</path>\n<type>file</type>\n<content>\nUpdated file\n</content>",
    );
    assertEquals(written.structuredContent?.operation, "update");
    assertEquals(await Deno.readTextFile(join(root, "config.json")), '{"a":1}\n');
  });
});

test("mcp: one connection is one session, so a read over another connection does not count", async () => {
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
  await withServer({}, async (connect, root) => {
    const { call } = await connect();
    const outside = join(root, "..", "outside.txt");
    for (const path of ["../outside.txt", outside]) {
      assertEquals(await call("read", { file_path: path }), {
        content: [{
          type: "text",
          text: `Error: cannot read "${path}": outside the permitted roots`,
        }],
        isError: true,
        _meta: { "toolfs/error": { name: "FsError", code: "FS_OUTSIDE_ROOT" } },
      });
    }
    const written = await call("write", { file_path: "../escape.txt", content: "x" });
    assertEquals(written.isError, true);
    assertEquals(written._meta, {
      "toolfs/error": { name: "FsError", code: "FS_OUTSIDE_ROOT" },
    });
    assert(!(await exists(join(root, "..", "escape.txt"))));
  });
});

test("mcp: an unknown tool and invalid arguments are tool errors, not protocol errors", async () => {
  await withServer({}, async (connect) => {
    const { call } = await connect();
    assertEquals((await call("grep", {})).content, [{
      type: "text",
      text: 'Error: unknown tool "grep"',
    }]);
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
    const { call } = await connect("--read-only", docs);
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

test("mcp: the server runs with only --allow-read=<root> --allow-write=<root>", async () => {
  await withServer({ "a.txt": "a\n" }, async (_connect, root) => {
    const server = await connect([
      "run",
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
});

test("mcp: no roots, or a missing root, is a usage error without a stack trace", async () => {
  const run = async (args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "mcp", ...args],
      cwd: PROJECT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    return {
      code: out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
    };
  };
  const none = await run([]);
  assertEquals(none.code, 2);
  assertEquals(none.stdout, "");
  assert(none.stderr.startsWith("toolfs mcp: no roots given\nusage: "), none.stderr);
  const missing = await run(["/definitely/not/here"]);
  assertEquals(missing.code, 1);
  assertEquals(
    missing.stderr,
    'toolfs mcp: root "/definitely/not/here" does not exist: create it or pass another directory\n',
  );
});

Deno.test("mcp: the server version is the package version", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(PROJECT, "deno.json")));
  assertEquals(MCP_SERVER_VERSION, config.version);
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
