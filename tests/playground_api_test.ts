/**
 * The playground server's API through `app.request`: definitions, execute, sessions, config,
 * the tree, the prompt cost, reset and the built UI.
 */

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
import { createApp } from "../playground/server/app.ts";
import {
  createFixtureWorkspace,
  FIXTURES_DIR,
  GENERATED,
  openDirectoryWorkspace,
  workspacePath,
} from "../playground/server/workspace.ts";
import type { TreeNode } from "../playground/server/tree.ts";
import { authed, direct, post, run, setUp, snapshot, TOKEN } from "./_playground_app.ts";

Deno.test("playground GET /api/definitions lists all nine tools (issue 32.8), the default six marked, with defaults", async () => {
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
    "move",
    "delete",
    "patch",
  ]);
  assertEquals(body.defaultTools, ["list", "read", "write", "edit", "glob", "grep"]);
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
    /^\(Output capped\. Showing lines 1-\d+\. Use offset=\d+ to continue\.\)$/m,
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

Deno.test("playground refuses an unknown tool with a 400 before anything runs (issue 30.8)", async () => {
  await using t = await setUp();
  // `delete` is a tool (C15, opt-in, run by the playground); `rm` is no tool at all.
  const response = await post(t.app, "/api/execute", { tool: "rm", args: {} });
  assertEquals(response.status, 400);
  assertEquals(await response.json(), {
    error:
      'unknown tool "rm": the playground runs list, read, write, edit, glob, grep, move, delete, patch',
  });
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
  // The default six: the budget `deno task tokens` holds (the playground runs all nine).
  assertEquals(body.tools, definitions.slice(0, 6));
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
