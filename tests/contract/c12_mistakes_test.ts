// CONTRACT C12 in practice: the wrong calls models make on a real repository, each answered with
// a message that names the concrete next step (a line number, a path, an argument name). The
// files are the playground's hint fixture (playground/fixtures/hints/), copied to a sandbox.

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFsTools, LocalFileSystem, systemPrompt } from "../../mod.ts";
import { sandbox } from "../_sandbox.ts";

const FIXTURE = fileURLToPath(new URL("../../playground/fixtures/hints/", import.meta.url));

async function copyTree(from: string, to: string): Promise<void> {
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) {
      await Deno.mkdir(join(to, entry.name));
      await copyTree(join(from, entry.name), join(to, entry.name));
    } else await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
}

const MINIFIED = (await Deno.readTextFile(join(FIXTURE, "minified.js"))).split("\n")[0];

interface Mistake {
  /** What the model got wrong. */
  mistake: string;
  /** Files the session reads first. */
  reads?: string[];
  tool: string;
  args: unknown;
  /** The exact `content` of the result. */
  content: string;
  /** The concrete next step the message names. */
  step: string;
}

const TOOLS = "list, read, write, edit, glob, grep";
const READ_ARGS = "file_path, offset, limit";

const MISTAKES: Mistake[] = [
  {
    mistake: "a line range with made-up argument names",
    tool: "read",
    args: { file_path: "app.ts", start_line: 10, end_line: 12 },
    content: `Error: unknown argument "start_line" for read; its arguments are ${READ_ARGS}`,
    step: "offset, limit",
  },
  {
    mistake: "path instead of file_path",
    tool: "read",
    args: { path: "app.ts" },
    content: `Error: unknown argument "path" for read; its arguments are ${READ_ARGS}`,
    step: "file_path",
  },
  {
    mistake: "camelCase replaceAll",
    reads: ["app.ts"],
    tool: "edit",
    args: { file_path: "app.ts", old_string: "c.json", new_string: "c.body", replaceAll: true },
    content: 'Error: unknown argument "replaceAll" for edit; did you mean "replace_all"?',
    step: '"replace_all"',
  },
  {
    mistake: "camelCase oldString and newString",
    reads: ["app.ts"],
    tool: "edit",
    args: { file_path: "app.ts", oldString: "hello", newString: "hi" },
    content: 'Error: unknown argument "oldString" for edit; did you mean "old_string"?',
    step: '"old_string"',
  },
  {
    mistake: "a typo in an argument name",
    tool: "read",
    args: { file_path: "app.ts", ofset: 10 },
    content: 'Error: unknown argument "ofset" for read; did you mean "offset"?',
    step: '"offset"',
  },
  {
    mistake: "file instead of file_path for write",
    tool: "write",
    args: { file: "new.ts", content: "x" },
    content: 'Error: unknown argument "file" for write; its arguments are file_path, content',
    step: "file_path",
  },
  {
    mistake: "a JSON-stringified number for offset",
    tool: "read",
    args: { file_path: "app.ts", offset: "10" },
    content: "Error: offset must be a positive integer",
    step: "offset",
  },
  {
    mistake: "a JSON-stringified number for limit",
    tool: "read",
    args: { file_path: "app.ts", limit: "20" },
    content: "Error: limit must be a positive integer",
    step: "limit",
  },
  {
    mistake: "a string for replace_all",
    reads: ["app.ts"],
    tool: "edit",
    args: { file_path: "app.ts", old_string: "c.json", new_string: "c.body", replace_all: "true" },
    content: "Error: replace_all must be a boolean when given",
    step: "replace_all",
  },
  {
    mistake: "the arguments sent as a JSON string",
    tool: "read",
    args: '{"file_path":"app.ts"}',
    content: "Error: arguments must be an object",
    step: "object",
  },
  {
    mistake: "a tool that is not configured",
    tool: "bash",
    args: { command: "grep -rn parseQuery ." },
    content: `Error: unknown tool "bash"; the tools are ${TOOLS}`,
    step: TOOLS,
  },
  {
    mistake: "another agent's tool name",
    tool: "read_file",
    args: { path: "app.ts" },
    content: `Error: unknown tool "read_file"; the tools are ${TOOLS}`,
    step: TOOLS,
  },
  {
    mistake: "old_string copied with read's line-number prefixes",
    reads: ["app.ts"],
    tool: "edit",
    args: {
      file_path: "app.ts",
      old_string: '12:   if (id === "") {\n13:     return c.json({ error: "missing id" }, 400);',
      new_string: '  if (!id) {\n    return c.json({ error: "missing id" }, 400);',
    },
    content:
      'Error: old_string was not found in "app.ts"; remove the line numbers that read puts before each line',
    step: "remove the line numbers",
  },
  {
    mistake: "tabs where the file has spaces",
    reads: ["app.ts"],
    tool: "edit",
    args: {
      file_path: "app.ts",
      old_string: '\tif (id === "") {\n\t\treturn c.json({ error: "missing id" }, 400);\n\t}',
      new_string: "\tif (!id) return c.notFound();",
    },
    content:
      'Error: old_string was not found in "app.ts"; lines 12-14 match except for whitespace, so copy the indentation exactly',
    step: "lines 12-14",
  },
  {
    mistake: "spaces where the file has tabs",
    reads: ["router.ts"],
    tool: "edit",
    args: {
      file_path: "router.ts",
      old_string: "    this.routes.set(path, name);",
      new_string: "    this.routes.set(path, name.trim());",
    },
    content:
      'Error: old_string was not found in "router.ts"; line 8 matches except for whitespace, so copy the indentation exactly',
    step: "line 8",
  },
  {
    mistake: "a tab/space mix inside a line",
    reads: ["app.ts"],
    tool: "edit",
    args: {
      file_path: "app.ts",
      old_string: 'const id =\tc.req.param("id");',
      new_string: 'const id = c.req.param("id") ?? "";',
    },
    content:
      'Error: old_string was not found in "app.ts"; line 11 matches except for whitespace, so copy the indentation exactly',
    step: "line 11",
  },
  {
    mistake: "old_string with the file's trailing spaces trimmed",
    reads: ["trailing.ts"],
    tool: "edit",
    args: {
      file_path: "trailing.ts",
      old_string: "export const config = {\n  port: 8787,\n",
      new_string: "export const config = {\n  port: 3000,\n",
    },
    content:
      'Error: old_string was not found in "trailing.ts"; lines 1-2 match except for whitespace, so copy the indentation exactly',
    step: "lines 1-2",
  },
  {
    mistake: "indentation dropped altogether (a run never matches nothing)",
    reads: ["app.ts"],
    tool: "edit",
    args: {
      file_path: "app.ts",
      old_string: "const query = parseQuery(c.req.url);\nreturn c.json({ query });",
      new_string: "return c.json({ query: parseQuery(c.req.url) });",
    },
    content:
      'Error: old_string was not found in "app.ts"; read the file again and copy old_string exactly',
    step: "read the file again",
  },
  {
    mistake: "old_string spanning a line read had truncated",
    reads: ["minified.js"],
    tool: "edit",
    args: {
      file_path: "minified.js",
      old_string: `${MINIFIED.slice(0, 2000)}... (line truncated to 2000 chars)`,
      new_string: "var a=0;",
    },
    content:
      'Error: old_string was not found in "minified.js"; read the file again and copy old_string exactly',
    step: "read the file again",
  },
  {
    mistake: "an ambiguous old_string",
    reads: ["app.ts"],
    tool: "edit",
    args: { file_path: "app.ts", old_string: "return c.json(", new_string: "return c.body(" },
    content:
      'Error: old_string matches 3 times in "app.ts" (lines 13, 15, 20); add surrounding context to make it unique or set replace_all to true',
    step: "lines 13, 15, 20",
  },
  {
    mistake: "a typo in a file name",
    tool: "read",
    args: { file_path: "roter.ts" },
    content: 'Error: cannot read "roter.ts": not found; did you mean "router.ts"?',
    step: '"router.ts"',
  },
  {
    mistake: "the wrong case",
    tool: "read",
    args: { file_path: "readme.md" },
    content: 'Error: cannot read "readme.md": not found; did you mean "README.md"?',
    step: '"README.md"',
  },
  {
    mistake: "the wrong extension",
    reads: [],
    tool: "edit",
    args: { file_path: "utils/url.js", old_string: "url", new_string: "href" },
    content: 'Error: cannot edit "utils/url.js": not found; did you mean "utils/url.ts"?',
    step: '"utils/url.ts"',
  },
  {
    mistake: "a typo in a directory name",
    tool: "list",
    args: { path: "util" },
    content: 'Error: cannot list "util": not found; did you mean "utils"?',
    step: '"utils"',
  },
  {
    mistake: "read of a directory",
    tool: "read",
    args: { file_path: "utils" },
    content: 'Error: cannot read "utils": not a regular file; it is a directory, use list',
    step: "use list",
  },
  {
    mistake: "write over a file it never read",
    tool: "write",
    args: { file_path: "README.md", content: "# hints\n" },
    content: 'Error: cannot write "README.md": the file already exists; read it first',
    step: "read it first",
  },
  {
    mistake: "an absolute path from the repository root, not the file system's",
    tool: "read",
    args: { file_path: "/app.ts" },
    // C12.10
    content: 'Error: cannot read "/app.ts": outside the permitted roots; did you mean "app.ts"?',
    step: 'did you mean "app.ts"?',
  },
  {
    mistake: "~ for the home directory",
    tool: "read",
    args: { file_path: "~/app.ts" },
    content: 'Error: cannot read "~/app.ts": not found',
    step: '"~/app.ts"',
  },
  {
    mistake: "an offset past the end",
    tool: "read",
    args: { file_path: "router.ts", offset: 40 },
    content: 'Error: offset 40 is out of range for "router.ts" (10 lines)',
    step: "(10 lines)",
  },
  {
    mistake: "old_string equal to new_string",
    reads: ["app.ts"],
    tool: "edit",
    args: { file_path: "app.ts", old_string: "hello", new_string: "hello" },
    content: "Error: old_string and new_string must differ",
    step: "new_string",
  },
];

const SUCCESSES: Array<Omit<Mistake, "content" | "step"> & { after: string }> = [
  {
    mistake: "a CRLF file edited with \\r\\n in old_string",
    reads: ["windows.ts"],
    tool: "edit",
    args: {
      file_path: "windows.ts",
      old_string: "  return `hello ${name}`;\r\n}",
      new_string: "  return `hi ${name}`;\r\n}",
    },
    after: "  return `hi ${name}`;\r\n}\r\n",
  },
  {
    mistake: "a CRLF file edited with \\n in old_string",
    reads: ["windows.ts"],
    tool: "edit",
    args: {
      file_path: "windows.ts",
      old_string: "  return `goodbye ${name}`;\n}",
      new_string: "  return `bye ${name}`;\n}",
    },
    after: "  return `bye ${name}`;\r\n}\r\n",
  },
];

async function inFixture(
  fn: (tools: ReturnType<typeof createFsTools>, root: string) => Promise<void>,
): Promise<void> {
  await using box = await sandbox("local");
  const { root } = box;
  await copyTree(FIXTURE, root);
  await fn(createFsTools({ fs: new LocalFileSystem({ roots: [root] }) }), root);
}

Deno.test(`C12 mistakes table: ${MISTAKES.length} wrong calls each name the next step`, async () => {
  assert.ok(MISTAKES.length >= 25);
  for (const m of MISTAKES) {
    await inFixture(async (tools, root) => {
      const before = await snapshot(root);
      for (const file_path of m.reads ?? []) {
        assert.equal((await tools.execute("read", { file_path })).isError, false);
      }
      const result = await tools.execute(m.tool, m.args);
      assert.equal(result.content, m.content, m.mistake);
      assert.equal(result.isError, true, m.mistake);
      assert.ok(result.content.includes(m.step), `${m.mistake}: names ${m.step}`);
      // A refused call changes nothing.
      assert.deepEqual(await snapshot(root), before, m.mistake);
    });
  }
});

Deno.test("C12 mistakes table: CRLF edits with \\r\\n or \\n in old_string succeed", async () => {
  for (const m of SUCCESSES) {
    await inFixture(async (tools, root) => {
      for (const file_path of m.reads ?? []) await tools.execute("read", { file_path });
      const result = await tools.execute(m.tool, m.args);
      assert.equal(result.isError, false, `${m.mistake}: ${result.content}`);
      const text = await Deno.readTextFile(join(root, "windows.ts"));
      assert.ok(text.includes(m.after), m.mistake);
      assert.equal(text.replaceAll("\r\n", "").includes("\n"), false, "no bare LF");
    });
  }
});

Deno.test("C12.9 mistakes table: the stated workspace turns /app.ts into a path that works", async () => {
  await inFixture(async (tools, root) => {
    const fs = new LocalFileSystem({ roots: [root] });
    const prompt = systemPrompt(tools.definitions, { roots: fs.roots });
    assert.ok(
      prompt.endsWith(
        `The workspace is ${root}; relative paths resolve against it. Paths must lie inside these roots: ${root} (read-write).`,
      ),
    );
    const result = await tools.execute("read", { file_path: `${root}/app.ts` });
    assert.equal(result.isError, false);
  });
});

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      for (const [k, v] of Object.entries(await snapshot(path))) out[`${entry.name}/${k}`] = v;
    } else out[entry.name] = await Deno.readTextFile(path);
  }
  return out;
}
