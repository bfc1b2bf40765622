import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  notDeepStrictEqual as assertNotEquals,
  ok as assert,
} from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem, systemPrompt } from "../mod.ts";
import { toAnthropicTools, toMcpTools, toOpenAIResponsesTools, toOpenAITools } from "../formats.ts";
import { measureDefinitions } from "../scripts/tokens.ts";
import { CONFIG_BOUNDS, createApp, MAX_BODY_BYTES } from "../playground/server/app.ts";
import type { ExecuteResponse } from "../playground/server/api_types.ts";
import {
  createFixtureWorkspace,
  FIXTURES_DIR,
  GENERATED,
  openDirectoryWorkspace,
  type PlaygroundWorkspace,
  workspacePath,
} from "../playground/server/workspace.ts";
import type { TreeNode } from "../playground/server/tree.ts";
import { readableCopy } from "./_readable_copy.ts";

/** Something that answers requests: the app itself, or the app with the token added. */
interface App {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

const TOKEN = "test-token-AAAAAAAAAAAAAAAAAAAAAA";

/** The app with `Authorization: Bearer <TOKEN>` added to every request. */
function authed(app: ReturnType<typeof createApp>): App {
  return {
    request(path, init = {}) {
      const headers = new Headers(init.headers);
      headers.set("authorization", `Bearer ${TOKEN}`);
      return app.request(path, { ...init, headers });
    },
  };
}

/** A fixture workspace (with a small log: the 20 MiB one has its own test) and its app. */
async function setUp(): Promise<
  { app: App; raw: ReturnType<typeof createApp>; workspace: PlaygroundWorkspace } & AsyncDisposable
> {
  const workspace = await createFixtureWorkspace({ bigLogBytes: 64 * 1024 });
  const raw = createApp({ workspace, token: TOKEN });
  return { app: authed(raw), raw, workspace, [Symbol.asyncDispose]: () => workspace.dispose() };
}

function post(app: App, path: string, body: unknown): Promise<Response> {
  return Promise.resolve(app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  }));
}

async function run(
  app: App,
  tool: string,
  args: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<ExecuteResponse> {
  const response = await post(app, "/api/execute", { tool, args, ...extra });
  assertEquals(response.status, 200, await response.clone().text());
  return await response.json();
}

/** The library's own answer for the same call on the committed fixtures (read-only root). */
async function direct(tool: string, args: Record<string, unknown>): Promise<string> {
  const fs = new LocalFileSystem({ roots: [{ path: FIXTURES_DIR, write: false }] });
  return (await createFsTools({ fs }).execute(tool, args)).content;
}

async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  async function walk(path: string, rel: string): Promise<void> {
    for await (const entry of Deno.readDir(path)) {
      const full = join(path, entry.name);
      const key = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(full, key);
      else {
        const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(full));
        files.set(key, Array.from(new Uint8Array(digest), (b) => b.toString(16)).join(""));
      }
    }
  }
  await walk(dir, "");
  return files;
}

Deno.test("playground GET /api/definitions lists the six tools with defaults", async () => {
  await using t = await setUp();
  const response = await t.app.request("/api/definitions");
  assertEquals(response.status, 200);
  const body = await response.json();
  assertEquals(body.tools.map((d: { name: string }) => d.name), [
    "list",
    "read",
    "write",
    "edit",
    "glob",
    "grep",
  ]);
  for (const d of body.tools) assert(d.guidance.length > 0 && d.description.length > 0);
  assertEquals(body.defaults.readLimit, 2000);
  assertEquals(
    body.tokenizers.map((t: { name: string }) => t.name),
    ["deepseek_v3", "o200k", "llama3", "qwen3", "gemma3"],
  );
  assertEquals(body.defaultTokenizers, ["deepseek_v3", "o200k"]);
  assertEquals(Object.keys(body.bounds), Object.keys(body.defaults));
  assertEquals(body.workspace.kind, "fixtures");
  assertEquals(body.workspace.roots, [
    { path: ".", writable: true },
    { path: "vendor", writable: false },
  ]);
});

Deno.test("playground definitions follow a config override in the read schema", async () => {
  await using t = await setUp();
  const config = encodeURIComponent(JSON.stringify({ readLimit: 50 }));
  const body = await (await t.app.request(`/api/definitions?config=${config}`)).json();
  const read = body.tools.find((d: { name: string }) => d.name === "read");
  assertEquals(read.inputSchema.properties.limit.maximum, 50);
  assertEquals(body.config.readLimit, 50);
});

Deno.test("playground execute returns the library's exact text with sizes and tokens", async () => {
  await using t = await setUp();
  const body = await run(t.app, "read", { file_path: "notes/crlf.txt" });
  assertEquals(body.content, await direct("read", { file_path: "notes/crlf.txt" }));
  assertEquals(body.isError, false);
  assert(body.content.endsWith("(End of file - total 6 lines)\n</content>"));
  assertEquals(body.bytes, new TextEncoder().encode(body.content).length);
  assertEquals(body.chars, [...body.content].length);
  assertEquals(body.lines, body.content.split("\n").length);
  assert(body.tokens.deepseek_v3 > 0 && body.tokens.o200k > 0, JSON.stringify(body.tokens));
  assert(body.ms >= 0);
  assertEquals(body.presentation.title, "Read notes/crlf.txt");
  assertEquals(body.presentation.kind, "read");
  assertEquals(body.presentation.locations, [
    { path: join(t.workspace.root, "notes/crlf.txt"), line: 1 },
  ]);
  const value = body.value as { lines: { text: string }[]; totalLines: number };
  assertEquals(value.totalLines, 6);
  assertEquals(value.lines[0].text, "[server]");
  assertEquals(body.session, {
    id: "default",
    files: [{ path: "notes/crlf.txt", op: "read", count: 1 }],
  });
});

Deno.test("playground tokens count the text itself: more text, more tokens", async () => {
  await using t = await setUp();
  const small = await run(t.app, "read", { file_path: "notes/many-lines.txt", limit: 10 });
  const large = await run(t.app, "read", { file_path: "notes/many-lines.txt", limit: 100 });
  assert(large.tokens.deepseek_v3 > small.tokens.deepseek_v3 * 5);
  assert(large.tokens.o200k > small.tokens.o200k * 5);
});

Deno.test("playground fixtures show each footer and error of the committed cases", async () => {
  await using t = await setUp();
  for (
    const [tool, args] of [
      ["read", { file_path: "notes/todo.md" }],
      ["read", { file_path: "notes/long-line.txt" }],
      ["read", { file_path: "notes/bom.txt" }],
      ["read", { file_path: "notes/empty.txt" }],
      ["read", { file_path: "notes/empty.txt", offset: 2 }],
      ["read", { file_path: "notes/many-lines.txt" }],
      ["list", { path: "src" }],
      ["list", { path: "notes" }],
      ["read", { file_path: "notes/missing.txt" }],
      ["list", { path: "notes/todo.md" }],
    ] as const
  ) {
    const body = await run(t.app, tool, args);
    assertEquals(body.content, await direct(tool, args), `${tool} ${JSON.stringify(args)}`);
  }
  const long = await run(t.app, "read", { file_path: "notes/long-line.txt" });
  assertMatch(long.content, /\.\.\. \(line truncated to 2000 chars\)/);
  const many = await run(t.app, "read", { file_path: "notes/many-lines.txt" });
  assertMatch(many.content, /\(Showing lines 1-2000 of 2500\. Use offset=2001 to continue\.\)/);
  const empty = await run(t.app, "read", { file_path: "notes/empty.txt", offset: 2 });
  assertEquals(empty.error?.code, "FS_OFFSET_OUT_OF_RANGE");
  const ambiguous = await run(t.app, "edit", {
    file_path: "src/lib/text/greet.ts",
    old_string: "// TODO: localize",
    new_string: "// done",
  }, { policy: false });
  assertEquals(ambiguous.error?.code, "FS_AMBIGUOUS_MATCH");
});

Deno.test("playground workspace gains the generated cases at start-up", async () => {
  await using t = await setUp();
  const emptyDir = await run(t.app, "list", { path: GENERATED.emptyDir });
  assertMatch(emptyDir.content, /\(Empty directory\)\n<\/content>$/);
  const many = await run(t.app, "list", { path: GENERATED.manyEntries });
  assertMatch(many.content, /^\(Showing 200 of 250 entries: 10 directories, 240 files\./m);
  const wide = await run(t.app, "read", { file_path: GENERATED.wideLines });
  assertMatch(
    wide.content,
    /^\(Output capped at 51200 bytes\. Showing lines 1-\d+ of 1000\. Use offset=\d+ to continue\.\)$/m,
  );
  const binary = await run(t.app, "read", { file_path: GENERATED.binary });
  assertEquals(binary.error?.code, "FS_BINARY");
  const image = await run(t.app, "read", { file_path: GENERATED.image });
  assertEquals(image.content.split("\n")[3], "image/png 1x1, 68 B");
  assertEquals(image.attachments?.[0].mimeType, "image/png");
  const inside = await run(t.app, "read", { file_path: GENERATED.linkInside });
  assertEquals(inside.isError, false);
  assertMatch(inside.content, /1: # Release checklist/);
  const outside = await run(t.app, "read", { file_path: GENERATED.linkOutside });
  assertEquals(outside.error?.code, "FS_OUTSIDE_ROOT");
  const readOnly = await run(t.app, "write", {
    file_path: "vendor/tinyfmt/new.ts",
    content: "x",
  });
  assertEquals(readOnly.error?.code, "FS_READ_ONLY");
  const log = await run(t.app, "read", { file_path: GENERATED.bigLog, offset: 100, limit: 2 });
  assertMatch(log.content, /^100: 2025-01-01T/m);
  const fifo = await Deno.lstat(join(t.workspace.root, GENERATED.fifo)).catch(() => null);
  if (fifo) {
    const body = await run(t.app, "read", { file_path: GENERATED.fifo });
    assertEquals(body.error?.code, "FS_NOT_REGULAR_FILE");
  }
});

Deno.test("playground default workspace carries a log of at least 20 MiB", async () => {
  const workspace = await createFixtureWorkspace();
  try {
    const size = (await Deno.stat(join(workspace.root, GENERATED.bigLog))).size;
    assert(size >= 20 * 1024 * 1024, `big.log is ${size} bytes`);
  } finally {
    await workspace.dispose();
  }
});

Deno.test("playground sessions gate writes, persist across configs, and start fresh", async () => {
  await using t = await setUp();
  const unread = await run(t.app, "write", { file_path: "notes/todo.md", content: "x\n" }, {
    session: "one",
  });
  assertEquals(unread.error?.code, "FS_NOT_OBSERVED");
  // Read under one config, edit under another: the session's read still counts.
  await run(t.app, "read", { file_path: "notes/todo.md" }, {
    session: "one",
    config: { readLimit: 2 },
  });
  const edited = await run(t.app, "edit", {
    file_path: "notes/todo.md",
    old_string: "# Release checklist",
    new_string: "# Checklist",
  }, { session: "one" });
  assertEquals(edited.isError, false, edited.content);
  assertEquals(edited.session.files, [{ path: "notes/todo.md", op: "edit", count: 2 }]);
  const info = await (await t.app.request("/api/sessions/one")).json();
  assertEquals(info, edited.session);
  // A fresh session has read nothing.
  const fresh = await run(t.app, "edit", {
    file_path: "notes/todo.md",
    old_string: "# Checklist",
    new_string: "# Again",
  }, { session: "two" });
  assertEquals(fresh.error?.code, "FS_NOT_OBSERVED");
  assertEquals(fresh.session, { id: "two", files: [] });
  // With the gate off, the write goes through and still counts as the session's own.
  const ungated = await run(t.app, "write", { file_path: "notes/todo.md", content: "y\n" }, {
    session: "two",
    policy: false,
  });
  assertEquals(ungated.isError, false, ungated.content);
  assertEquals(ungated.policy, false);
  const after = await run(t.app, "write", { file_path: "notes/todo.md", content: "z\n" }, {
    session: "two",
  });
  assertEquals(after.isError, false, after.content);
});

Deno.test("playground config overrides change what the model sees", async () => {
  await using t = await setUp();
  const capped = await run(t.app, "read", { file_path: "notes/todo.md" }, {
    config: { readLimit: 3 },
  });
  assertMatch(capped.content, /\(Showing lines 1-3 of 7\. Use offset=4 to continue\.\)/);
  assertEquals(capped.config.readLimit, 3);
  const full = await run(t.app, "read", { file_path: "notes/todo.md" });
  assertNotEquals(full.content, capped.content);
  assert(full.tokens.o200k > capped.tokens.o200k);
});

Deno.test("playground unknown tool is a tool-level error, not a bad request", async () => {
  await using t = await setUp();
  const body = await run(t.app, "delete", {});
  assertEquals(body.isError, true);
  assertEquals(body.error?.code, "FS_UNKNOWN_TOOL");
  assertEquals(body.presentation, { title: "delete", kind: "other" });
});

Deno.test("playground bad requests get a 400 with a clear JSON error", async () => {
  await using t = await setUp();
  const cases: [unknown, RegExp][] = [
    ["{not json", /not valid JSON/],
    [[1, 2], /must be a JSON object/],
    [{ args: {} }, /"tool" must be a non-empty string/],
    [{ tool: "read", args: [1] }, /"args" must be a JSON object/],
    [{ tool: "read", args: {}, extra: 1 }, /unknown field "extra"/],
    [{ tool: "read", args: {}, config: { readLimit: 0 } }, /invalid config: .*readLimit/],
    [{ tool: "read", args: {}, config: { nope: 1 } }, /invalid config: .*nope/],
    [{ tool: "read", args: {}, config: "big" }, /"config" must be a JSON object/],
    [{ tool: "read", args: {}, session: "../x" }, /"session" must be/],
    [{ tool: "read", args: {}, policy: "yes" }, /"policy" must be a boolean/],
  ];
  for (const [body, message] of cases) {
    const response = await post(t.app, "/api/execute", body);
    assertEquals(response.status, 400, JSON.stringify(body));
    assertEquals(response.headers.get("content-type"), "application/json");
    assertMatch((await response.json()).error, message);
  }
  const badQuery = await t.app.request("/api/prompt-cost?config=%7B");
  assertEquals(badQuery.status, 400);
  assertMatch((await badQuery.json()).error, /not valid JSON/);
  const missing = await t.app.request("/api/nothing");
  assertEquals(missing.status, 404);
  assertMatch((await missing.json()).error, /no such endpoint/);
});

Deno.test("playground API refuses foreign hosts, origins and non-JSON posts", async () => {
  await using t = await setUp();
  const body = JSON.stringify({ tool: "list", args: {} });
  const textPost = await t.app.request("/api/execute", {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body,
  });
  assertEquals(textPost.status, 415);
  const foreignHost = await t.app.request("http://evil.example/api/definitions");
  assertEquals(foreignHost.status, 403);
  const foreignOrigin = await t.app.request("/api/execute", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://evil.example" },
    body,
  });
  assertEquals(foreignOrigin.status, 403);
  const local = await t.app.request("http://127.0.0.1:8787/api/execute", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://127.0.0.1:8787" },
    body,
  });
  assertEquals(local.status, 200);
});

Deno.test("playground tree shows the workspace with types and capped directories", async () => {
  await using t = await setUp();
  const body = await (await t.app.request("/api/tree")).json();
  const tree = body.tree as TreeNode;
  function find(path: string): TreeNode | undefined {
    const walk = (node: TreeNode): TreeNode | undefined =>
      node.path === path ? node : node.children?.map(walk).find(Boolean);
    return walk(tree);
  }
  assertEquals(tree.children?.[0].type, "directory");
  assertEquals(find("notes/todo.md")?.type, "file");
  assertEquals(find("notes/todo.md")?.size, 224);
  assertEquals(find(GENERATED.linkInside)?.type, "symlink");
  assertEquals(find(GENERATED.emptyDir)?.total, 0);
  const many = find(GENERATED.manyEntries);
  assertEquals(many?.total, 250);
  assertEquals(many?.children?.length, 40);
  assertEquals(many?.children?.[0].name, "dir-01");
});

Deno.test("playground prompt cost is the one definition deno task tokens uses", async () => {
  await using t = await setUp();
  const body = await (await t.app.request("/api/prompt-cost")).json();
  const definitions = (await (await t.app.request("/api/definitions")).json()).tools;
  assertEquals(body.tools, definitions);
  const fs = new LocalFileSystem({ roots: [{ path: FIXTURES_DIR, write: false }] });
  const library = createFsTools({ fs }).definitions;
  // C13.5 / issue 21: the System prompt view carries the workspace section by default.
  const served = new LocalFileSystem({ roots: t.workspace.roots });
  assertEquals(body.systemPrompt, systemPrompt(library, { roots: served.roots }));
  assert(body.systemPrompt.includes("\n\nThe workspace is "), body.systemPrompt);
  assertEquals(body.wire["openai-chat"], JSON.stringify(toOpenAITools(library)));
  assertEquals(
    body.wire["openai-responses-strict"],
    JSON.stringify(toOpenAIResponsesTools(library, { strict: true })),
  );
  assertEquals(body.wire.anthropic, JSON.stringify(toAnthropicTools(library)));
  assertEquals(body.wire.mcp, JSON.stringify(toMcpTools(library)));
  const script = await measureDefinitions(library, ["deepseek_v3", "o200k"]);
  // The same counts, except that the prompt shown (and counted) names the workspace.
  for (const name of ["deepseek_v3", "o200k"] as const) {
    const { systemPrompt: shown, ...rest } = body.costs[name];
    const { systemPrompt: bare, ...expected } = script[name];
    assertEquals(rest, expected);
    assert(shown > bare, `${name}: ${shown} tokens with the workspace, ${bare} without`);
  }
  assertEquals(Object.keys(body.costs), ["deepseek_v3", "o200k"]);
  const o200k = body.costs.o200k;
  assertEquals(
    o200k.total,
    o200k.tools.reduce((n: number, x: { total: number }) => n + x.total, 0),
  );
});

Deno.test("playground counts with the tokenizers a request picks (Llama 3, Qwen 3, Gemma 3)", async () => {
  await using t = await setUp();
  const tokenizers = ["llama3", "qwen3", "gemma3"];
  const body = await run(t.app, "read", { file_path: "notes/todo.md" }, { tokenizers });
  assertEquals(Object.keys(body.tokens), tokenizers);
  for (const name of tokenizers) assert(body.tokens[name] > 10, `${name}: ${body.tokens[name]}`);
  const cost = await (await t.app.request("/api/prompt-cost?tokenizers=qwen3")).json();
  assertEquals(Object.keys(cost.costs), ["qwen3"]);
  assert(cost.costs.qwen3.systemPrompt > 50);
  const bad = await post(t.app, "/api/execute", {
    tool: "list",
    args: {},
    tokenizers: ["cl100k"],
  });
  assertEquals(bad.status, 400);
  assertMatch((await bad.json()).error, /unknown tokenizer "cl100k"/);
});

Deno.test("playground writes and edits never change playground/fixtures/", async () => {
  const before = await snapshot(FIXTURES_DIR);
  await using t = await setUp();
  for (const path of before.keys()) {
    if (path.startsWith("vendor/")) continue;
    await run(t.app, "read", { file_path: path }, { session: "w" });
    await run(t.app, "write", { file_path: path, content: "overwritten\n" }, { session: "w" });
    const edit = await run(t.app, "edit", {
      file_path: path,
      old_string: "overwritten",
      new_string: "edited",
    }, { session: "w" });
    assertEquals(edit.isError, false, edit.content);
  }
  await run(t.app, "write", { file_path: "notes/brand-new.md", content: "new\n" });
  assertEquals(await snapshot(FIXTURES_DIR), before);
  const changed = await Deno.readTextFile(join(t.workspace.root, "notes/todo.md"));
  assertEquals(changed, "edited\n");
});

Deno.test("playground reset restores the fixtures and forgets sessions", async () => {
  await using t = await setUp();
  await run(t.app, "write", { file_path: "notes/todo.md", content: "changed\n" }, {
    policy: false,
  });
  await run(t.app, "write", { file_path: "notes/extra.md", content: "extra\n" });
  await run(t.app, "read", { file_path: "notes/bom.txt" }, { session: "s" });
  const reset = await post(t.app, "/api/reset", {});
  assertEquals(await reset.json(), { ok: true, kind: "fixtures", restored: true });
  assertEquals(
    await Deno.readTextFile(join(t.workspace.root, "notes/todo.md")),
    await Deno.readTextFile(join(FIXTURES_DIR, "notes/todo.md")),
  );
  assertEquals(await Deno.lstat(join(t.workspace.root, "notes/extra.md")).catch(() => null), null);
  assertEquals((await Deno.lstat(join(t.workspace.root, GENERATED.linkInside))).isSymlink, true);
  assertEquals(await (await t.app.request("/api/sessions/s")).json(), { id: "s", files: [] });
  const gated = await run(t.app, "edit", {
    file_path: "notes/bom.txt",
    old_string: "read",
    new_string: "READ",
  }, { session: "s" });
  assertEquals(gated.error?.code, "FS_NOT_OBSERVED");
});

Deno.test("playground --root workspace uses the directory as it is and reset keeps it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "mine.txt"), "mine\n");
    const workspace = await openDirectoryWorkspace(dir);
    const app = authed(createApp({ workspace, token: TOKEN }));
    const list = await run(app, "list", {});
    assertEquals(list.value && (list.value as { entries: unknown[] }).entries, [
      { name: "mine.txt", type: "file" },
    ]);
    assertEquals(await (await post(app, "/api/reset", {})).json(), {
      ok: true,
      kind: "directory",
      restored: false,
    });
    assertEquals(await Deno.readTextFile(join(dir, "mine.txt")), "mine\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("playground serves the built UI and never a file outside it", async () => {
  await using t = await setUp();
  const missing = await t.app.request("/");
  assertEquals(missing.status, 503);
  assertMatch(await missing.text(), /not built/);
  const parent = await Deno.makeTempDir();
  const dist = join(parent, "dist");
  try {
    await Deno.writeTextFile(join(parent, "secret.txt"), "secret");
    await Deno.mkdir(join(dist, "assets"), { recursive: true });
    await Deno.writeTextFile(join(dist, "index.html"), "<!doctype html><p>ui</p>");
    await Deno.writeTextFile(join(dist, "assets", "app.js"), "console.log(1)");
    const app = createApp({ workspace: t.workspace, distDir: dist, token: TOKEN });
    const index = await app.request("/");
    assertEquals(index.status, 200);
    assertEquals(index.headers.get("content-type"), "text/html; charset=utf-8");
    assertEquals(await index.text(), "<!doctype html><p>ui</p>");
    const asset = await app.request("/assets/app.js");
    assertEquals(asset.headers.get("content-type"), "text/javascript; charset=utf-8");
    assertEquals(await asset.text(), "console.log(1)");
    for (const path of ["/..%2fsecret.txt", "/../secret.txt", "/assets/..%2f..%2fsecret.txt"]) {
      const escape = await app.request(path);
      assertEquals(escape.status, 404, path);
      assertEquals(await escape.text(), "not found");
    }
    assertEquals((await app.request("/assets/none.js")).status, 404);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("playground workspacePath is workspace-relative with / separators", () => {
  assertEquals(workspacePath("/w", "/w"), ".");
  assertEquals(workspacePath("/w", "/w/a/b.txt"), "a/b.txt");
  assertEquals(workspacePath("/w", "/w2/a"), "/w2/a");
  assertEquals(workspacePath("/w", "/etc/x"), "/etc/x");
});

Deno.test("C14.1: every /api/* request without the right bearer token gets 401", async () => {
  await using t = await setUp();
  const body = JSON.stringify({ tool: "write", args: { file_path: "pwned.txt", content: "x" } });
  const attempts: [string, RequestInit][] = [
    ["/api/definitions", {}],
    ["/api/tree", {}],
    ["/api/execute", { method: "POST", headers: { "content-type": "application/json" }, body }],
    ["/api/execute", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer wrong" },
      body,
    }],
    ["/api/execute", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: TOKEN },
      body,
    }],
    ["/api/reset", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}x` },
      body: "{}",
    }],
  ];
  for (const [path, init] of attempts) {
    const response = await t.raw.request(path, init);
    assertEquals(response.status, 401, `${path} ${JSON.stringify(init.headers)}`);
    assertEquals(await response.json(), { error: "missing or wrong token" });
  }
  await assertRejectsNotFound(join(t.workspace.root, "pwned.txt"));
  const allowed = await post(t.app, "/api/execute", JSON.parse(body));
  assertEquals(allowed.status, 200);
  const open = createApp({ workspace: t.workspace, token: null });
  assertEquals((await open.request("/api/definitions")).status, 200);
});

async function assertRejectsNotFound(path: string): Promise<void> {
  const found = await Deno.lstat(path).then(() => true, () => false);
  assertEquals(found, false, `${path} exists`);
}

Deno.test("C14.2: a request body over 1 MiB gets 413 and is not run", async () => {
  await using t = await setUp();
  const content = "x".repeat(MAX_BODY_BYTES);
  const response = await post(t.app, "/api/execute", {
    tool: "write",
    args: { file_path: "huge.txt", content },
  });
  assertEquals(response.status, 413);
  assertMatch((await response.json()).error, /over 1048576 bytes/);
  await assertRejectsNotFound(join(t.workspace.root, "huge.txt"));
  // Streamed without a length, too.
  const streamed = await t.app.request("/api/execute", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: new Blob([`{"tool":"list","args":{},"x":"${"y".repeat(MAX_BODY_BYTES)}"}`]).stream(),
  });
  assertEquals(streamed.status, 413);
  const justUnder = await post(t.app, "/api/execute", {
    tool: "write",
    args: { file_path: "big.txt", content: "x".repeat(MAX_BODY_BYTES - 200) },
  });
  assertEquals(justUnder.status, 200);
});

Deno.test("C14.2: config values past their bound get 400 naming the key and the bound", async () => {
  await using t = await setUp();
  for (const [key, bound] of Object.entries(CONFIG_BOUNDS)) {
    const defaults = (await (await t.app.request("/api/definitions")).json()).defaults;
    if (!(key in defaults)) continue; // a key this library version does not have yet
    const over = await post(t.app, "/api/execute", {
      tool: "list",
      args: {},
      config: { [key]: bound + 1 },
    });
    assertEquals(over.status, 400, key);
    assertEquals(
      (await over.json()).error,
      `config "${key}" may be at most ${bound} in the playground: got ${bound + 1}`,
    );
    const at = await post(t.app, "/api/execute", {
      tool: "list",
      args: {},
      config: { [key]: bound },
    });
    assertEquals(at.status, 200, key);
  }
  const query = encodeURIComponent(JSON.stringify({ listMaxEntries: 1e9 }));
  const viaQuery = await t.app.request(`/api/prompt-cost?config=${query}`);
  assertEquals(viaQuery.status, 400);
  assertMatch((await viaQuery.json()).error, /"listMaxEntries" may be at most 10000/);
});

Deno.test("C14.3: --root / is refused; the home directory or a parent of it is accepted with a warning", async () => {
  await assertRejectsMessage(() => openDirectoryWorkspace("/"), /refusing the file-system root/);
  const parent = await Deno.realPath(await Deno.makeTempDir());
  try {
    const home = join(parent, "home");
    await Deno.mkdir(home);
    const atHome = await openDirectoryWorkspace(home, { home });
    assertMatch(atHome.warning ?? "", /is your home directory .*; writes there are real/);
    const above = await openDirectoryWorkspace(parent, { home });
    assertMatch(above.warning ?? "", /holds your home directory .*; writes there are real/);
    const inside = join(home, "project");
    await Deno.mkdir(inside);
    assertEquals((await openDirectoryWorkspace(inside, { home })).warning, undefined);
    const sibling = join(parent, "home2");
    await Deno.mkdir(sibling);
    assertEquals((await openDirectoryWorkspace(sibling, { home })).warning, undefined);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

async function assertRejectsMessage(fn: () => Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await fn();
  } catch (error) {
    assertMatch((error as Error).message, message);
    return;
  }
  assert(false, `expected a rejection matching ${message}`);
}

Deno.test("playground tree never lists a directory swapped for a link out of the workspace", async () => {
  await using t = await setUp();
  const outside = await Deno.realPath(await Deno.makeTempDir());
  const flip = join(t.workspace.root, "flip");
  const real = join(t.workspace.root, "flip-real");
  const link = join(t.workspace.root, "flip-link");
  try {
    await Deno.writeTextFile(join(outside, "OUTSIDE-SECRET.txt"), "secret\n");
    await Deno.mkdir(real);
    await Deno.writeTextFile(join(real, "inside.txt"), "ok\n");
    await Deno.symlink(outside, link);
    await Deno.rename(real, flip);
    let stop = false;
    let swaps = 0;
    // Swap flip between the real directory and the link on every turn of the event loop.
    const swapper = (async () => {
      while (!stop) {
        if (swaps % 2 === 0) {
          Deno.renameSync(flip, real);
          Deno.renameSync(link, flip);
        } else {
          Deno.renameSync(flip, link);
          Deno.renameSync(real, flip);
        }
        swaps++;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    })();
    const seen: string[] = [];
    for (let i = 0; i < 60; i++) {
      const response = await t.app.request("/api/tree");
      assertEquals(response.status, 200);
      const text = await response.text();
      if (text.includes("OUTSIDE-SECRET")) seen.push(text);
    }
    stop = true;
    await swapper;
    assert(swaps > 10, `only ${swaps} swaps`);
    assertEquals(seen.length, 0, "the tree listed a name from outside the workspace");
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

const UNPRIVILEGED_SKIP = (() => {
  if (Deno.permissions.querySync({ name: "run" }).state !== "granted") return "needs --allow-run";
  if (Deno.uid?.() !== 0) return "needs root, to run the tree as nobody";
  try {
    Deno.statSync("/usr/bin/setpriv");
  } catch {
    return "needs /usr/bin/setpriv";
  }
  return undefined;
})();

Deno.test({
  name: `playground tree shows an unreadable directory as an error entry, not a 500${
    UNPRIVILEGED_SKIP ? ` [skipped: ${UNPRIVILEGED_SKIP}]` : ""
  }`,
  ignore: UNPRIVILEGED_SKIP !== undefined,
  async fn() {
    const root = await Deno.realPath(await Deno.makeTempDir());
    const denoDir = await Deno.makeTempDir();
    try {
      await Deno.chmod(root, 0o755);
      await Deno.chmod(denoDir, 0o777);
      await Deno.mkdir(join(root, "locked"));
      await Deno.writeTextFile(join(root, "locked", "x.txt"), "x\n");
      await Deno.chmod(join(root, "locked"), 0o000);
      await Deno.mkdir(join(root, "open"), { mode: 0o755 });
      await Deno.writeTextFile(join(root, "open", "y.txt"), "y\n");
      // The tree, built as nobody (for whom locked/ is unreadable) through the provider.
      const modUrl = new URL("mod.ts", readableCopy()).href;
      const treeUrl = new URL("playground/server/tree.ts", readableCopy()).href;
      const script = `
        const { LocalFileSystem } = await import(${JSON.stringify(modUrl)});
        const { buildTree } = await import(${JSON.stringify(treeUrl)});
        const fs = new LocalFileSystem({ roots: [${JSON.stringify(root)}] });
        console.log(JSON.stringify(await buildTree(fs, ${JSON.stringify(root)})));
      `;
      const output = await new Deno.Command("/usr/bin/setpriv", {
        args: [
          "--reuid=nobody",
          "--regid=nogroup",
          "--clear-groups",
          Deno.execPath(),
          "eval",
          "--no-prompt",
          "--no-config",
          "--allow-read",
          script,
        ],
        env: { DENO_DIR: denoDir, HOME: denoDir, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(output.stderr);
      assert(output.success, stderr);
      const tree = JSON.parse(new TextDecoder().decode(output.stdout)) as TreeNode;
      const locked = tree.children?.find((c) => c.name === "locked");
      const open = tree.children?.find((c) => c.name === "open");
      assertMatch(locked?.error ?? "", /PERMISSION/, JSON.stringify(locked));
      assertEquals(locked?.children, undefined);
      assertEquals(open?.children?.map((c) => c.name), ["y.txt"]);
    } finally {
      await Deno.chmod(join(root, "locked"), 0o755).catch(() => {});
      await Deno.remove(root, { recursive: true });
      await Deno.remove(denoDir, { recursive: true });
    }
  },
});
