/**
 * Pins what a model and an editor see before any file is touched: the definitions (C1.3), their
 * export formats, the assembled guidance, ACP presentation (C8) and the token budget.
 */

import {
  deepStrictEqual as assertEquals,
  ok as assert,
  strictEqual as assertStrictEquals,
} from "node:assert/strict";
import { join } from "node:path";
import {
  createFsTools,
  type FsTools,
  LocalFileSystem,
  MCP_MAX_DIFF_CHARS,
  systemPrompt,
  toAcpDiff,
  toAnthropicTools,
  toMcpCallResult,
  toMcpTools,
  toOpenAIResponsesTools,
  toOpenAITools,
} from "../mod.ts";
import { measureDefinitions, TOKEN_BUDGET } from "../scripts/tokens.ts";

const FILE_PATH = { type: "string", description: "Absolute or workspace-relative." };

const SCHEMAS = {
  list: {
    type: "object",
    properties: { path: { type: "string", description: "Directory; default: workspace." } },
    required: [],
    additionalProperties: false,
  },
  read: {
    type: "object",
    properties: {
      file_path: FILE_PATH,
      offset: { type: "integer", minimum: 1, description: "First line, 1-based." },
      limit: { type: "integer", minimum: 1, maximum: 2000, default: 2000 },
    },
    required: ["file_path"],
    additionalProperties: false,
  },
  write: {
    type: "object",
    properties: { file_path: FILE_PATH, content: { type: "string" } },
    required: ["file_path", "content"],
    additionalProperties: false,
  },
  edit: {
    type: "object",
    properties: {
      file_path: FILE_PATH,
      old_string: { type: "string", description: "Exact text to replace." },
      new_string: { type: "string" },
      replace_all: { type: "boolean", description: "Replace every match.", default: false },
    },
    required: ["file_path", "old_string", "new_string"],
    additionalProperties: false,
  },
};

const DESCRIPTIONS = {
  list: "List the files and subdirectories of a directory.",
  read: "Read a text file as numbered lines.",
  write: "Create a file or replace its whole content.",
  edit: "Replace exact text in a file.",
};

const GUIDANCE = {
  list:
    "Use list, not ls, to see what a directory holds. The footer counts every entry, even when the view is capped.",
  read:
    "Use read, not cat, head or tail, for text files. Lines come numbered; when the footer says more remain, continue with the offset it gives, or use offset and limit to jump within a large file.",
  write:
    "Use write, not shell redirection, to create a file (parent directories too) or replace all of it. Read an existing file first; prefer edit for partial changes.",
  edit:
    "Use edit, not sed, for targeted changes: old_string must match exactly once (copy it from read output, without the line-number prefix) unless replace_all is set. Read the file first; your own writes and edits count as reads.",
};

const NAMES = ["list", "read", "write", "edit"] as const;

async function withTools(
  fn: (tools: FsTools, root: string) => void | Promise<void>,
  config?: { readLimit?: number },
): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "toolfs_defs_" }));
  try {
    await fn(createFsTools({ fs: new LocalFileSystem({ roots: [root] }), config }), root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("definitions are list, read, write, edit with the pinned descriptions, schemas and guidance", async () => {
  await withTools((tools) => {
    assertEquals(
      tools.definitions,
      NAMES.map((name) => ({
        name,
        description: DESCRIPTIONS[name],
        inputSchema: SCHEMAS[name],
        guidance: GUIDANCE[name],
      })),
    );
  });
});

Deno.test("every schema is snake_case, lists required and forbids additional properties", async () => {
  await withTools((tools) => {
    for (const { inputSchema } of tools.definitions) {
      assertStrictEquals(inputSchema.type, "object");
      assertStrictEquals(inputSchema.additionalProperties, false);
      assert(Array.isArray(inputSchema.required));
      for (const key of Object.keys(inputSchema.properties)) assert(/^[a-z]+(_[a-z]+)*$/.test(key));
      for (const key of inputSchema.required) assert(key in inputSchema.properties);
    }
  });
});

Deno.test("read.limit advertises the configured readLimit as default and maximum", async () => {
  await withTools((tools) => {
    const limit = tools.definitions[1].inputSchema.properties.limit;
    assertEquals(limit, { type: "integer", minimum: 1, maximum: 300, default: 300 });
  }, { readLimit: 300 });
});

Deno.test("guidance tells when to use each tool instead of a shell, how to page, and to read before changing", async () => {
  await withTools((tools) => {
    const [list, read, write, edit] = tools.definitions.map((d) => d.guidance);
    assert(list.includes("not ls"));
    assert(read.includes("not cat") && read.includes("offset and limit"));
    assert(
      write.includes("not shell redirection") && write.includes("Read an existing file first"),
    );
    assert(edit.includes("not sed") && edit.includes("Read the file first"));
  });
});

Deno.test("systemPrompt joins the guidance in the fixed order, whatever order it is given", async () => {
  await withTools((tools) => {
    const expected = NAMES.map((n) => GUIDANCE[n]).join("\n\n");
    assertStrictEquals(systemPrompt(tools.definitions), expected);
    assertStrictEquals(systemPrompt([...tools.definitions].reverse()), expected);
    assertStrictEquals(
      systemPrompt([tools.definitions[3], tools.definitions[1]]),
      `${GUIDANCE.read}\n\n${GUIDANCE.edit}`,
    );
    assertStrictEquals(systemPrompt([]), "");
  });
});

Deno.test("systemPrompt and the formats are byte-stable across instances of one config", async () => {
  await withTools(async (a) => {
    await withTools((b) => {
      assertStrictEquals(systemPrompt(a.definitions), systemPrompt(b.definitions));
      assertStrictEquals(
        JSON.stringify(toOpenAITools(a.definitions)),
        JSON.stringify(toOpenAITools(b.definitions)),
      );
      assertStrictEquals(
        JSON.stringify(toMcpTools(a.definitions)),
        JSON.stringify(toMcpTools(b.definitions)),
      );
    });
  });
});

Deno.test("toOpenAITools gives Chat Completions function tools", async () => {
  await withTools((tools) => {
    assertEquals(
      toOpenAITools(tools.definitions),
      NAMES.map((name) => ({
        type: "function",
        function: { name, description: DESCRIPTIONS[name], parameters: SCHEMAS[name] },
      })),
    );
  });
});

Deno.test("toOpenAITools strict requires every property and makes optional ones nullable", async () => {
  await withTools((tools) => {
    const [list, read, write, edit] = toOpenAITools(tools.definitions, { strict: true });
    assertEquals(list.function, {
      name: "list",
      description: DESCRIPTIONS.list,
      parameters: {
        type: "object",
        properties: {
          path: { type: ["string", "null"], description: "Directory; default: workspace." },
        },
        required: ["path"],
        additionalProperties: false,
      },
      strict: true,
    });
    assertEquals(read.function.parameters, {
      type: "object",
      properties: {
        file_path: FILE_PATH,
        offset: { type: ["integer", "null"], minimum: 1, description: "First line, 1-based." },
        limit: { type: ["integer", "null"], minimum: 1, maximum: 2000 },
      },
      required: ["file_path", "offset", "limit"],
      additionalProperties: false,
    });
    assertEquals(write.function.parameters, SCHEMAS.write);
    assertEquals(edit.function.parameters.properties.replace_all, {
      type: ["boolean", "null"],
      description: "Replace every match.",
    });
    assertEquals(edit.function.parameters.required, [
      "file_path",
      "old_string",
      "new_string",
      "replace_all",
    ]);
    // The definitions themselves are untouched.
    assertEquals(tools.definitions[1].inputSchema, SCHEMAS.read);
  });
});

Deno.test("toOpenAIResponsesTools gives flat Responses API function tools", async () => {
  await withTools((tools) => {
    assertEquals(
      toOpenAIResponsesTools(tools.definitions),
      NAMES.map((name) => ({
        type: "function",
        name,
        description: DESCRIPTIONS[name],
        parameters: SCHEMAS[name],
        strict: false,
      })),
    );
    assertStrictEquals(toOpenAIResponsesTools(tools.definitions, { strict: true })[0].strict, true);
  });
});

Deno.test("toAnthropicTools gives name, description and input_schema", async () => {
  await withTools((tools) => {
    assertEquals(
      toAnthropicTools(tools.definitions),
      NAMES.map((name) => ({
        name,
        description: DESCRIPTIONS[name],
        input_schema: SCHEMAS[name],
      })),
    );
  });
});

Deno.test("toMcpTools marks list and read read-only, write and edit destructive, none open-world", async () => {
  await withTools((tools) => {
    const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
    assertEquals(toMcpTools(tools.definitions), [
      {
        name: "list",
        description: DESCRIPTIONS.list,
        inputSchema: SCHEMAS.list,
        annotations: readOnly,
      },
      {
        name: "read",
        description: DESCRIPTIONS.read,
        inputSchema: SCHEMAS.read,
        annotations: readOnly,
      },
      {
        name: "write",
        description: DESCRIPTIONS.write,
        inputSchema: SCHEMAS.write,
        annotations: {
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      {
        name: "edit",
        description: DESCRIPTIONS.edit,
        inputSchema: SCHEMAS.edit,
        annotations: {
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: false,
          openWorldHint: false,
        },
      },
    ]);
  });
});

Deno.test("the formats hand out copies: mutating one never changes the definitions", async () => {
  await withTools((tools) => {
    const [tool] = toMcpTools(tools.definitions);
    tool.inputSchema.properties.path.description = "changed";
    toAnthropicTools(tools.definitions)[1].input_schema.required.push("offset");
    assertEquals(tools.definitions[0].inputSchema, SCHEMAS.list);
    assertEquals(tools.definitions[1].inputSchema, SCHEMAS.read);
  });
});

Deno.test("toMcpCallResult carries the exact text, mirrors isError, and the value only on success", async () => {
  await withTools(async (tools, root) => {
    await Deno.writeTextFile(join(root, "a.txt"), "one\ntwo\n");
    const ok = await tools.execute("read", { file_path: "a.txt" });
    assertEquals(toMcpCallResult(ok), {
      content: [{
        type: "text",
        text: "<path>a.txt</path>\n<type>file</type>\n<content>\n1: one\n2: two\n\n" +
          "(End of file - total 2 lines)\n</content>",
      }],
      isError: false,
      structuredContent: {
        path: join(root, "a.txt"),
        offset: 1,
        lines: [{ number: 1, text: "one" }, { number: 2, text: "two" }],
        totalLines: 2,
      },
    });
    const failed = await tools.execute("read", { file_path: "missing.txt" });
    assertEquals(toMcpCallResult(failed), {
      content: [{ type: "text", text: 'Error: cannot read "missing.txt": not found' }],
      isError: true,
      _meta: { "toolfs/error": { name: "FsError", code: "FS_NOT_FOUND" } },
    });
  });
});

Deno.test("toMcpCallResult leaves a large file's before and after out of structuredContent", async () => {
  await withTools(async (tools, root) => {
    const big = "x".repeat(MCP_MAX_DIFF_CHARS) + "\n";
    await Deno.writeTextFile(join(root, "big.txt"), big);
    await tools.execute("read", { file_path: "big.txt", limit: 1 });
    const result = toMcpCallResult(
      await tools.execute("edit", { file_path: "big.txt", old_string: "x\n", new_string: "y\n" }),
    );
    assertEquals(result.structuredContent, { path: join(root, "big.txt") });
    assertEquals(result._meta, { "toolfs/omitted": ["before", "after"] });
    const small = toMcpCallResult(
      await tools.execute("write", { file_path: "small.txt", content: "hi\n" }),
    );
    assertEquals(small.structuredContent, {
      path: join(root, "small.txt"),
      operation: "create",
      before: null,
      after: "hi\n",
    });
  });
});

Deno.test("presentCall: list is a search titled with its path, located at the directory (C8)", async () => {
  await withTools((tools, root) => {
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
});

Deno.test("presentCall: read shows offset and limit only when given, located at the first line (C8)", async () => {
  await withTools((tools, root) => {
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
});

Deno.test("presentCall: write is an edit located at the file, without rawInput (C8)", async () => {
  await withTools((tools, root) => {
    assertEquals(
      tools.presentCall("write", { file_path: "out/new.md", content: "x".repeat(500) }),
      {
        title: "Write out/new.md",
        kind: "edit",
        locations: [{ path: join(root, "out/new.md") }],
      },
    );
  });
});

Deno.test("presentCall: edit clips old_string and new_string to 80 code points ending in … (C8)", async () => {
  await withTools((tools, root) => {
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
});

Deno.test("presentCall resolves locations against ctx.cwd, lexically, and keeps absolute paths", async () => {
  await withTools((tools, root) => {
    assertEquals(tools.presentCall("write", { file_path: "../b.ts" }, { cwd: "pkg" }).locations, [
      { path: join(root, "b.ts") },
    ]);
    assertEquals(tools.presentCall("read", { file_path: "/etc/hosts" }).locations, [
      { path: "/etc/hosts", line: 1 },
    ]);
  });
});

Deno.test("presentCall: an unknown tool is titled with its name, kind other (C8)", async () => {
  await withTools((tools) => {
    assertEquals(tools.presentCall("grep", { pattern: "x" }), { title: "grep", kind: "other" });
  });
});

Deno.test("presentCall presents a path that does not exist, with no file access", async () => {
  await withTools((tools, root) => {
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
});

Deno.test("toAcpDiff turns write and edit values into ACP diff items", async () => {
  await withTools(async (tools, root) => {
    const created = await tools.execute("write", { file_path: "d.txt", content: "a\n" });
    assertEquals(toAcpDiff(created.value as never), {
      type: "diff",
      path: join(root, "d.txt"),
      oldText: null,
      newText: "a\n",
    });
    const edited = await tools.execute("edit", {
      file_path: "d.txt",
      old_string: "a",
      new_string: "b",
    });
    assertEquals(toAcpDiff(edited.value as never), {
      type: "diff",
      path: join(root, "d.txt"),
      oldText: "a\n",
      newText: "b\n",
    });
  });
});

Deno.test(`the four tools' name, description, schema and guidance fit ${TOKEN_BUDGET} DeepSeek V3 tokens`, async () => {
  await withTools(async (tools) => {
    const cost = (await measureDefinitions(tools.definitions, ["deepseek_v3"])).deepseek_v3;
    assert(
      cost.total <= TOKEN_BUDGET,
      `${cost.total} DeepSeek V3 tokens, over the budget of ${TOKEN_BUDGET}`,
    );
    assert(cost.total > 100, "the tokenizer counted implausibly few tokens");
  });
});
