// The playground's hints/ fixture (CONTRACT C12) through the playground API: each row of the
// table in playground/README.md gives the hint it promises, and editSnippet can be compared
// side by side with its token cost.

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { createApp } from "../playground/server/app.ts";
import type { ExecuteResponse } from "../playground/server/api_types.ts";
import { createFixtureWorkspace } from "../playground/server/workspace.ts";

type App = ReturnType<typeof createApp>;

async function setUp(): Promise<{ app: App } & AsyncDisposable> {
  const workspace = await createFixtureWorkspace({ bigLogBytes: 64 * 1024 });
  // The token check has its own tests (C14.1); these are about the hints.
  const app = createApp({ workspace, token: null });
  return { app, [Symbol.asyncDispose]: () => workspace.dispose() };
}

async function run(
  app: App,
  tool: string,
  args: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<ExecuteResponse> {
  const response = await app.request("/api/execute", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tool, args, ...extra }),
  });
  assertEquals(response.status, 200, await response.clone().text());
  return await response.json();
}

const ROWS: Array<[string, Record<string, unknown>, string, string?]> = [
  [
    "read",
    { file_path: "hints/app.ts", start_line: 10, end_line: 12 },
    'Error: unknown argument "start_line" for read; its arguments are file_path, offset, limit',
  ],
  [
    "edit",
    { file_path: "hints/app.ts", old_string: "c.json", new_string: "c.body", replaceAll: true },
    'Error: unknown argument "replaceAll" for edit; did you mean "replace_all"?',
  ],
  [
    "edit",
    {
      file_path: "hints/app.ts",
      old_string: '11:   const id = c.req.param("id");',
      new_string: "x",
    },
    'Error: old_string was not found in "hints/app.ts"; remove the line numbers that read puts before each line',
    "hints/app.ts",
  ],
  [
    "edit",
    {
      file_path: "hints/app.ts",
      old_string: '\tif (id === "") {\n\t\treturn c.json({ error: "missing id" }, 400);\n\t}',
      new_string: "x",
    },
    'Error: old_string was not found in "hints/app.ts"; lines 12-14 match except for whitespace, so copy the indentation exactly',
    "hints/app.ts",
  ],
  [
    "edit",
    {
      file_path: "hints/router.ts",
      old_string: "    this.routes.set(path, name);",
      new_string: "x",
    },
    'Error: old_string was not found in "hints/router.ts"; line 8 matches except for whitespace, so copy the indentation exactly',
    "hints/router.ts",
  ],
  [
    "edit",
    {
      file_path: "hints/trailing.ts",
      old_string: "export const config = {\n  port: 8787,\n",
      new_string: "x",
    },
    'Error: old_string was not found in "hints/trailing.ts"; lines 1-2 match except for whitespace, so copy the indentation exactly',
    "hints/trailing.ts",
  ],
  [
    "edit",
    { file_path: "hints/app.ts", old_string: "return c.json(", new_string: "return c.body(" },
    'Error: old_string matches 3 times in "hints/app.ts" (lines 13, 15, 20); add surrounding context to make it unique or set replace_all to true',
    "hints/app.ts",
  ],
  [
    "read",
    { file_path: "hints/roter.ts" },
    'Error: cannot read "hints/roter.ts": not found; did you mean "hints/router.ts"?',
  ],
  [
    "read",
    { file_path: "hints/readme.md" },
    'Error: cannot read "hints/readme.md": not found; did you mean "hints/README.md"?',
  ],
  [
    "list",
    { path: "hints/util" },
    'Error: cannot list "hints/util": not found; did you mean "hints/utils"?',
  ],
  [
    "read",
    { file_path: "hints/utils" },
    'Error: cannot read "hints/utils": not a regular file; it is a directory, use list',
  ],
  [
    "write",
    { file_path: "hints/README.md", content: "x" },
    'Error: cannot write "hints/README.md": the file already exists; read it first',
  ],
  // Issue 21: C12.10, C12.11, C12.12.
  [
    "read",
    { file_path: "/hints/app.ts" },
    'Error: cannot read "/hints/app.ts": outside the permitted roots; did you mean "hints/app.ts"?',
  ],
  [
    "read",
    { file_path: "hint/app.ts" },
    'Error: cannot read "hint/app.ts": not found; did you mean "hints/app.ts"?',
  ],
  [
    "edit",
    { file_path: "hints/app.ts", old_string: "", new_string: "// x\n" },
    "Error: old_string must be a non-empty string; to create a file use write, and to insert text include a neighbouring line in old_string and new_string",
  ],
  [
    "grep",
    { pattern: "(\\w+) \\1", path: "hints" },
    "Error: invalid pattern: \\1 is not supported (RE2 syntax: no look-around, no back-references, repeat counts up to 1000)",
  ],
];

Deno.test("C12 playground hints/ fixture: each row of the README table shows its hint", async () => {
  await using t = await setUp();
  const app = t.app;
  for (const [tool, args, content, readFirst] of ROWS) {
    const session = `s${Math.random().toString(36).slice(2, 10)}`;
    if (readFirst) await run(app, "read", { file_path: readFirst }, { session });
    const body = await run(app, tool, args, { session });
    assertEquals(body.content, content);
    assertEquals(body.isError, true);
  }
});

Deno.test("C12.2 playground hints table: an unknown tool is refused by the API (issue 30.8); the CLI shows the model's text", async () => {
  await using t = await setUp();
  const response = await t.app.request("/api/execute", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tool: "bash", args: {} }),
  });
  assertEquals(response.status, 400);
  assertEquals(
    (await response.json()).error,
    'unknown tool "bash": the playground runs list, read, write, edit, glob, grep, move, delete, patch',
  );
  const { runCli } = await import("../cli.ts");
  let text = "";
  const stdout = {
    write(bytes: Uint8Array): Promise<number> {
      text += new TextDecoder().decode(bytes);
      return Promise.resolve(bytes.length);
    },
  };
  const status = await runCli(["--tools", "list,read,write,edit,glob,grep", "bash"], {
    stdout,
    terminal: false,
  });
  assertEquals(status, 2);
  assertEquals(
    text,
    'Error: unknown tool "bash"; the tools are list, read, write, edit, glob, grep',
  );
});

Deno.test("C12.8 playground: the same edit with editSnippet 0 and 2, with token counts", async () => {
  await using t = await setUp();
  const app = t.app;
  const edit = (from: string, to: string) => ({
    file_path: "hints/app.ts",
    old_string: `  const query = ${from};`,
    new_string: `  const query = ${to};`,
  });
  await run(app, "read", { file_path: "hints/app.ts" });
  const a = await run(app, "edit", edit("parseQuery(c.req.url)", "parseQuery(c.req.url, true)"));
  const b = await run(app, "edit", edit("parseQuery(c.req.url, true)", "parseQuery(c.req.url)"), {
    config: { editSnippet: 2 },
  });
  assertEquals(a.content, "The file hints/app.ts has been updated successfully.");
  assertEquals(
    b.content,
    [
      "The file hints/app.ts has been updated successfully.",
      "",
      "17: ",
      '18: app.get("/search", (c) => {',
      "19:   const query = parseQuery(c.req.url);",
      "20:   return c.json({ query });",
      "21: });",
    ].join("\n"),
  );
  assert(b.tokens.deepseek_v3 > a.tokens.deepseek_v3);
  // The API's config type lists the playground's five caps; the server passes every C2 key on.
  assertEquals((b.config as unknown as Record<string, number>).editSnippet, 2);
});
