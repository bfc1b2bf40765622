/**
 * Drives the MCP server (`mcp.ts`) as a child process with the official MCP SDK client, over
 * stdio and Streamable HTTP, the way a real MCP host would; and runs the official conformance
 * scenarios that apply to a tools-only server against it. Needs --allow-run, --allow-env and
 * --allow-net besides read and write (CI runs `deno test -A`); without them every test here is
 * skipped, with the reason printed.
 */

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client";
import { createFsTools, LocalFileSystem, systemPrompt } from "../mod.ts";
import { toMcpTools } from "../formats.ts";
import { MCP_SERVER_NAME, MCP_SERVER_VERSION } from "../mcp.ts";
import { NO_ROOTS_MESSAGE } from "../src/render/mcp_render.ts";

const PROJECT = dirname(dirname(fileURLToPath(import.meta.url)));
const MISSING = (["run", "env", "net"] as const).filter((name) =>
  Deno.permissions.querySync({ name }).state !== "granted"
);
const ignore = MISSING.length > 0;
if (ignore) {
  console.warn(
    `mcp_test.ts: skipped, it starts the MCP server and needs ${
      MISSING.map((n) => `--allow-${n}`).join(" ")
    } (run deno test -A)`,
  );
}

/** The conformance suite CI runs, pinned. */
const CONFORMANCE = "npm:@modelcontextprotocol/conformance@0.1.16";
/** The scenarios that apply to a server with tools only (README, "MCP server"). */
const CONFORMANCE_SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "dns-rebinding-protection",
  "server-sse-multiple-streams",
];

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
  /** Replaces the client's roots and notifies the server. */
  setRoots(paths: string[]): Promise<void>;
  stderr(): string;
  close(): Promise<void>;
}

/** Client options: `roots` declares the roots capability with these directories. */
interface ClientOptions {
  roots?: string[];
}

async function newClient(options: ClientOptions): Promise<{
  client: Client;
  setRoots(paths: string[]): Promise<void>;
}> {
  const { Client } = await import("@modelcontextprotocol/sdk/client");
  const { ListRootsRequestSchema } = await import(
    // @ts-types="@modelcontextprotocol/sdk/types"
    "@modelcontextprotocol/sdk/types.js"
  );
  let roots = options.roots;
  const client = new Client(
    { name: "toolfs-test", version: "0.0.0" },
    roots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: (roots ?? []).map((path) => ({ uri: pathToFileURL(path).href, name: path })),
    }));
  }
  return {
    client,
    async setRoots(paths) {
      roots = paths;
      await client.sendRootsListChanged();
    },
  };
}

function wrap(
  client: Client,
  setRoots: (paths: string[]) => Promise<void>,
  stderr: () => string,
): Connection {
  return {
    client,
    call: async (name, args) =>
      await client.callTool({ name, arguments: args }, undefined, {
        timeout: 30_000,
      }) as unknown as CallResult,
    setRoots,
    stderr,
    close: () => client.close(),
  };
}

/** Runs `deno <args>` (by default `deno task mcp …`) and connects the SDK client over stdio. */
async function connectStdio(args: string[], options: ClientOptions = {}): Promise<Connection> {
  // Imported here: the stdio transport reads the environment as it loads.
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
  const { client, setRoots } = await newClient(options);
  await client.connect(transport);
  return wrap(client, setRoots, () => stderr);
}

/** A server started with `--http`, its URL and token as it printed them. */
interface HttpServer {
  url: string;
  token: string | null;
  stderr(): string;
  /** Sends a signal and waits for the exit code. */
  stop(signal?: Deno.Signal): Promise<number>;
}

async function startHttp(
  args: string[],
  env: Record<string, string> = {},
): Promise<HttpServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(PROJECT, "mcp.ts"), ...args],
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let match: RegExpExecArray | null = null;
  const pump = (async () => {
    while (true) {
      const { value, done } = await lines.read();
      if (done) return;
      stderr += value;
    }
  })();
  for (let i = 0; i < 600 && !match; i++) {
    match = /serving (http:\/\/\S+\/mcp)(?:; send Authorization: Bearer (\S+))?/.exec(stderr);
    if (!match) await delay(50);
  }
  if (!match) {
    child.kill();
    await child.status;
    throw new Error(`the HTTP server did not start:\n${stderr}`);
  }
  const token = match[2] ?? env.TOOLFS_MCP_TOKEN ?? null;
  return {
    url: match[1],
    token,
    stderr: () => stderr,
    async stop(signal = "SIGTERM") {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
      const { code } = await child.status;
      await pump;
      return code;
    },
  };
}

async function connectHttp(
  server: HttpServer,
  options: ClientOptions = {},
): Promise<Connection> {
  const { StreamableHTTPClientTransport } = await import(
    // @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  );
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: server.token ? { headers: { authorization: `Bearer ${server.token}` } } : {},
  });
  const { client, setRoots } = await newClient(options);
  await client.connect(transport);
  return wrap(client, setRoots, server.stderr);
}

/** A temporary directory with `root/` holding `files`, and `outside.txt` beside it. */
async function withDir(
  files: Record<string, string>,
  fn: (root: string, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "toolfs_mcp_" }));
  const root = join(dir, "root");
  await Deno.mkdir(root);
  await Deno.writeTextFile(join(dir, "outside.txt"), "secret\n");
  for (const [name, content] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(root, name)), { recursive: true });
    await Deno.writeTextFile(join(root, name), content);
  }
  try {
    await fn(root, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Like `withDir`, with a `connect(...args)` that starts `deno task mcp <root> ...args`. */
async function withServer(
  files: Record<string, string>,
  fn: (connect: (...extra: string[]) => Promise<Connection>, root: string) => Promise<void>,
): Promise<void> {
  await withDir(files, async (root) => {
    const open: Connection[] = [];
    try {
      await fn(async (...extra) => {
        const connection = await connectStdio(["task", "--quiet", "mcp", root, ...extra]);
        open.push(connection);
        return connection;
      }, root);
    } finally {
      for (const connection of open) await connection.close();
    }
  });
}

/** Starts `mcp.ts <args> --http 127.0.0.1:0` with a known token and stops it afterwards. */
async function withHttp(
  args: string[],
  fn: (server: HttpServer) => Promise<void>,
  env: Record<string, string> = { TOOLFS_MCP_TOKEN: "test-token-0123456789" },
): Promise<void> {
  const server = await startHttp([...args, "--http", "127.0.0.1:0"], env);
  try {
    await fn(server);
  } finally {
    await server.stop();
  }
}

const test = (name: string, fn: () => Promise<void>): void =>
  Deno.test({ name, ignore, fn, sanitizeResources: false, sanitizeOps: false });

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean, stderr: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await delay(25);
  }
  throw new Error(`timed out waiting for ${what}; stderr:\n${stderr()}`);
}

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

test("C7.3: the server runs with only --no-prompt --allow-read=<root> --allow-write=<root>", async () => {
  await withDir({ "a.txt": "a\n" }, async (root) => {
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

// C13.2 — client roots

test("C13.2: with no directory on the command line, the client's roots are the roots", async () => {
  await withDir({ "a/one.txt": "1\n", "b/two.txt": "2\n" }, async (root) => {
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
});

test("C13.2: with command-line roots, only client roots inside them are used", async () => {
  await withDir({ "sub/in.txt": "in\n", "top.txt": "top\n" }, async (root, dir) => {
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
});

test("C13.2: a client root inside a read-only command-line root stays read-only", async () => {
  await withDir({ "docs/guide.md": "g\n" }, async (root) => {
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
});

test("C13.2: no directory and no client roots: a tool call says so, the server keeps serving", async () => {
  await withDir({}, async (root) => {
    const plain = await connectStdio(["task", "--quiet", "mcp"]);
    try {
      // C13.5: no roots in force at initialize: the guidance only, no workspace section.
      const definitions = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) }).definitions;
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
      assertEquals((await empty.call("list", {})).content[0].text, NO_ROOTS_MESSAGE);
      assert(empty.stderr().includes(`client root "${join(root, "gone")}": does not exist`));
      await empty.setRoots([root]);
      assertEquals((await empty.call("list", {})).isError, false);
    } finally {
      await empty.close();
    }
  });
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
  await withDir({}, async (root) => {
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
      await send(JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        },
      }));
      const init = await nextLine() as { id: number; result: { serverInfo: { name: string } } };
      assertEquals(init.id, 1);
      assertEquals(init.result.serverInfo.name, MCP_SERVER_NAME);
    } finally {
      await writer.close();
      await lines.cancel();
      await child.status;
    }
  });
});

// C13.3 — Streamable HTTP

test("C13.3: over HTTP a result is exactly the text, and two sessions are two policy sessions", async () => {
  await withDir({ "a.txt": "a\n" }, async (root) => {
    await withHttp([root], async (server) => {
      assertEquals(server.url.startsWith("http://127.0.0.1:"), true);
      const first = await connectHttp(server);
      const second = await connectHttp(server);
      try {
        assertEquals(await first.call("read", { file_path: "a.txt" }), {
          content: [{
            type: "text",
            text: "<path>a.txt</path>\n<type>file</type>\n<content>\n1: a\n\n" +
              "(End of file - total 1 lines)\n</content>",
          }],
          isError: false,
        });
        assertEquals(
          (await second.call("edit", { file_path: "a.txt", old_string: "a", new_string: "b" }))
            .content[0].text,
          'Error: cannot edit "a.txt": read it first',
        );
        assertEquals(
          (await first.call("edit", { file_path: "a.txt", old_string: "a", new_string: "b" }))
            .content[0].text,
          "The file a.txt has been updated successfully.",
        );
        assertEquals(await Deno.readTextFile(join(root, "a.txt")), "b\n");
      } finally {
        await first.close();
        await second.close();
      }
    });
  });
});

test("C13.3: a request without the token or with a wrong one gets 401", async () => {
  await withDir({}, async (root) => {
    await withHttp([root], async (server) => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      };
      for (const authorization of [undefined, "Bearer wrong-token", "Basic dGVzdA=="]) {
        const response = await fetch(server.url, {
          method: "POST",
          headers: authorization ? { ...headers, authorization } : headers,
          body,
        });
        assertEquals(response.status, 401);
        const challenge = response.headers.get("www-authenticate")!;
        // RFC 6750: an error code only when a credential was sent.
        assertEquals(
          challenge.startsWith('Bearer realm="toolfs", error="invalid_token", error_description='),
          authorization !== undefined,
          challenge,
        );
        if (authorization === undefined) assertEquals(challenge, 'Bearer realm="toolfs"');
        assertEquals(
          (await response.json()).error.message,
          'unauthorized: missing or wrong bearer token; send the header "Authorization: Bearer <token>" with the token in TOOLFS_MCP_TOKEN or the one the server printed to stderr at start (Claude Code: claude mcp add --transport http toolfs <url> --header "Authorization: Bearer <token>")',
        );
      }
      // OAuth discovery finds no metadata (404), so a client does not try to register.
      for (const path of ["oauth-protected-resource/mcp", "oauth-authorization-server"]) {
        const metadata = await fetch(new URL(`/.well-known/${path}`, server.url));
        assertEquals(metadata.status, 404);
        await metadata.body?.cancel();
      }
    });
  });
});

test("C13.3: a foreign Host or Origin gets 403 even with the token (DNS rebinding)", async () => {
  await withDir({}, async (root) => {
    await withHttp([root], async (server) => {
      const url = new URL(server.url);
      const host = await rawStatus(url, "evil.example", server.token!);
      assertEquals(host, 403);
      assertEquals(await rawStatus(url, `localhost:${url.port}`, server.token!), 200);
      const origin = await fetch(server.url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${server.token}`,
          origin: "http://evil.example",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      assertEquals(origin.status, 403);
      await origin.body?.cancel();
    });
  });
});

test("C13.3: without TOOLFS_MCP_TOKEN a fresh token is printed; --no-auth only on loopback", async () => {
  await withDir({ "a.txt": "a\n" }, async (root) => {
    await withHttp([root], async (server) => {
      assert(server.token !== null && server.token.length >= 40, server.stderr());
      const client = await connectHttp(server);
      try {
        assertEquals((await client.call("read", { file_path: "a.txt" })).isError, false);
      } finally {
        await client.close();
      }
    }, {});
    const open = await runMcp([root, "--http", "0.0.0.0:0", "--no-auth"]);
    assertEquals(open.code, 2);
    assertEquals(
      open.stderr,
      "toolfs mcp: --no-auth is allowed only on a loopback host, not 0.0.0.0\n",
    );
  });
});

test("C13.3: HTTP sessions take the client's roots", async () => {
  await withDir({ "a/one.txt": "1\n", "b/two.txt": "2\n" }, async (root) => {
    await withHttp([root], async (server) => {
      const a = await connectHttp(server, { roots: [join(root, "a")] });
      const b = await connectHttp(server, { roots: [join(root, "b")] });
      try {
        assertEquals((await a.call("read", { file_path: "one.txt" })).isError, false);
        assertEquals((await b.call("read", { file_path: "two.txt" })).isError, false);
        // notifications/roots/list_changed over HTTP: the next call asks again.
        await a.setRoots([join(root, "b")]);
        assertEquals((await a.call("read", { file_path: "two.txt" })).isError, false);
        assertEquals(
          (await b.call("read", { file_path: "../a/one.txt" })).content[0].text,
          'Error: cannot read "../a/one.txt": outside the permitted roots',
        );
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
});

test("C13.4: an 11 MiB or malformed HTTP body gets a JSON-RPC error, the server keeps serving", async () => {
  await withDir({}, async (root) => {
    await withHttp([root], async (server) => {
      const client = await connectHttp(server);
      try {
        let failure: unknown;
        try {
          await client.call("write", { file_path: "huge.txt", content: "x".repeat(11 << 20) });
        } catch (error) {
          failure = error;
        }
        assert(failure instanceof Error, "the oversize call must fail");
        assert(!(await exists(join(root, "huge.txt"))));
        const raw = await fetch(server.url, {
          method: "POST",
          headers: {
            authorization: `Bearer ${server.token}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: " ".repeat(11 << 20),
        });
        assertEquals(raw.status, 413);
        const answer = await raw.json();
        assertEquals(answer.jsonrpc, "2.0");
        assertEquals(typeof answer.error.code, "number");
        const malformed = await fetch(server.url, {
          method: "POST",
          headers: {
            authorization: `Bearer ${server.token}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: "not json",
        });
        assertEquals(malformed.status, 400);
        assertEquals((await malformed.json()).error.code, -32700);
        assertEquals((await client.call("list", {})).isError, false);
      } finally {
        await client.close();
      }
    });
  });
});

test("C13.3: SIGTERM and SIGINT stop the HTTP server cleanly with exit code 0", async () => {
  await withDir({}, async (root) => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const server = await startHttp([root, "--http", "127.0.0.1:0", "--no-auth"]);
      const client = await connectHttp(server);
      assertEquals((await client.call("list", {})).isError, false);
      assertEquals(await server.stop(signal), 0);
      assert(server.stderr().includes("toolfs mcp: stopping"), server.stderr());
      await client.close().catch(() => {});
    }
  });
});

test("C13.3: the official MCP conformance scenarios for a tools-only server pass", async () => {
  await withDir({}, async (root, dir) => {
    const server = await startHttp([root, "--http", "127.0.0.1:0", "--no-auth"]);
    try {
      for (const scenario of CONFORMANCE_SCENARIOS) {
        const out = await new Deno.Command(Deno.execPath(), {
          // Run outside the project, so the suite's own dependencies stay out of deno.lock.
          cwd: dir,
          args: [
            "run",
            "-A",
            "--no-lock",
            CONFORMANCE,
            "server",
            "--url",
            server.url,
            "--scenario",
            scenario,
          ],
          env: { NO_COLOR: "1" },
          stdout: "piped",
          stderr: "piped",
        }).output();
        const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
        assertEquals(out.code, 0, `${scenario} failed:\n${text}`);
        assert(/Passed: (\d+)\/\1, 0 failed/.test(text), `${scenario}:\n${text}`);
      }
    } finally {
      await server.stop();
    }
  });
});

test("C13.3: a session idle past sessionIdleMs is closed; its client gets 404 and can start anew", async () => {
  await withDir({ "a.txt": "a\n" }, async (root) => {
    const { serveHttp } = await import("../mcp.ts");
    const serving = await serveHttp([root], { token: null, sessionIdleMs: 1500, log: () => {} });
    const server: HttpServer = {
      url: serving.url,
      token: null,
      stderr: () => "",
      stop: () => Promise.resolve(0),
    };
    try {
      const first = await connectHttp(server);
      assertEquals((await first.call("read", { file_path: "a.txt" })).isError, false);
      await delay(3500);
      let failure: unknown;
      try {
        await first.call("list", {});
      } catch (error) {
        failure = error;
      }
      assert(
        failure instanceof Error && /404|session not found/i.test(failure.message),
        String(failure),
      );
      await first.close().catch(() => {});
      const second = await connectHttp(server);
      assertEquals((await second.call("list", {})).isError, false);
      await second.close();
    } finally {
      await serving.close();
    }
  });
});

Deno.test("mcp: the server version is the package version", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(PROJECT, "deno.json")));
  assertEquals(MCP_SERVER_VERSION, config.version);
});

/** Status of a POST ping to `url` sent with the given `Host` header over a raw socket. */
async function rawStatus(url: URL, host: string, token: string): Promise<number> {
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    },
  });
  const request = `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\n` +
    "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n" +
    `Content-Length: ${new TextEncoder().encode(body).length}\r\nConnection: close\r\n\r\n${body}`;
  await conn.write(new TextEncoder().encode(request));
  const buffer = new Uint8Array(64);
  const n = await conn.read(buffer);
  conn.close();
  const status = /^HTTP\/1\.1 (\d{3})/.exec(new TextDecoder().decode(buffer.subarray(0, n ?? 0)));
  return status ? Number(status[1]) : -1;
}

async function runMcp(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
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
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
