// Unit tests of src/present/formats.ts and acp.ts: OpenAI, Anthropic, MCP and ACP conversions.

import {
  deepStrictEqual as assertEquals,
  strictEqual as assertStrictEquals,
} from "node:assert/strict";
import { join } from "node:path";
import {
  MCP_MAX_DIFF_CHARS,
  toAnthropicTools,
  toMcpCallResult,
  toMcpTools,
  toOpenAIResponsesTools,
  toOpenAITools,
} from "../../../formats.ts";
import { toAcpDiff } from "../../../acp.ts";
import type { FsToolResult } from "../../../mod.ts";
import assert from "node:assert/strict";
import { type TextBounds, textBounds, withBounds } from "../../../src/present/text_bounds.ts";
import { DESCRIPTIONS, FILE_PATH, NAMES, SCHEMAS } from "../../contract/_shared.ts";
import { sandbox } from "../../_sandbox.ts";

Deno.test("toOpenAITools gives Chat Completions function tools", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  assertEquals(
    toOpenAITools(tools.definitions),
    NAMES.map((name) => ({
      type: "function",
      function: { name, description: DESCRIPTIONS[name], parameters: SCHEMAS[name] },
    })),
  );
});

Deno.test("toOpenAITools strict requires every property and makes optional ones nullable", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
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
  assertEquals(edit.function.parameters.properties.replace_all, { type: ["boolean", "null"] });
  assertEquals(edit.function.parameters.required, [
    "file_path",
    "old_string",
    "new_string",
    "replace_all",
  ]);
  // The definitions themselves are untouched.
  assertEquals(tools.definitions[1].inputSchema, SCHEMAS.read);
});

Deno.test("toOpenAIResponsesTools gives flat Responses API function tools", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
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

Deno.test("toAnthropicTools gives name, description and input_schema", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  assertEquals(
    toAnthropicTools(tools.definitions),
    NAMES.map((name) => ({
      name,
      description: DESCRIPTIONS[name],
      input_schema: SCHEMAS[name],
    })),
  );
});

Deno.test("toMcpTools marks list, read, glob and grep read-only, write and edit destructive, none open-world", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
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
    {
      name: "glob",
      description: DESCRIPTIONS.glob,
      inputSchema: SCHEMAS.glob,
      annotations: readOnly,
    },
    {
      name: "grep",
      description: DESCRIPTIONS.grep,
      inputSchema: SCHEMAS.grep,
      annotations: readOnly,
    },
  ]);
});

Deno.test("the formats hand out copies: mutating one never changes the definitions", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  const [tool] = toMcpTools(tools.definitions);
  tool.inputSchema.properties.path.description = "changed";
  toAnthropicTools(tools.definitions)[1].input_schema.required.push("offset");
  assertEquals(tools.definitions[0].inputSchema, SCHEMAS.list);
  assertEquals(tools.definitions[1].inputSchema, SCHEMAS.read);
});

Deno.test("toMcpCallResult carries the exact text, mirrors isError, and the value only on success", async () => {
  await using box = await sandbox("local");
  const { tools, root } = box;
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

Deno.test("toMcpCallResult leaves a large file's before and after out of structuredContent", async () => {
  await using box = await sandbox("local");
  const { tools, root } = box;
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

Deno.test("toMcpCallResult judges the texts' size from byte counts, never decoding them", () => {
  const trap = (bounds: TextBounds) =>
    withBounds(
      Object.defineProperties({ path: "/w/a.txt" }, {
        before: { get: () => assert.fail("before decoded"), enumerable: true },
        after: { get: () => assert.fail("after decoded"), enumerable: true },
      }),
      bounds,
    );
  const result = (value: object): FsToolResult => ({
    content: "ok",
    isError: false,
    value: value as FsToolResult["value"],
  });
  const over = toMcpCallResult(result(trap(textBounds([3 * MCP_MAX_DIFF_CHARS + 9]))));
  assertEquals(over.structuredContent, { path: "/w/a.txt" });
  assertEquals(over._meta, { "toolfs/omitted": ["before", "after"] });
  const under = toMcpCallResult(result(trap(textBounds([MCP_MAX_DIFF_CHARS / 2], 10))));
  assertStrictEquals(Object.keys(under.structuredContent ?? {}).length, 3);
  // A byte decodes to at most one code unit; three bytes (past a BOM) to at least one.
  assertEquals(textBounds([0, 3, 4, 9], 5), { min: 5 + 0 + 0 + 1 + 2, max: 5 + 16 });
});

Deno.test("toAcpDiff turns write and edit values into ACP diff items", async () => {
  await using box = await sandbox("local");
  const { tools, root } = box;
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

Deno.test("toOpenAITools strict adds null as one more anyOf branch of a glob argument (C9.3, issue 34 item 4)", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  const strict = toOpenAITools(tools.definitions, { strict: true });
  const glob = strict[4].function.parameters;
  assertEquals(glob.properties.pattern, SCHEMAS.glob.properties.pattern);
  assertEquals(glob.properties.limit, { type: ["integer", "null"], minimum: 1 });
  assertEquals(strict[5].function.parameters.properties.glob, {
    anyOf: [...SCHEMAS.grep.properties.glob.anyOf, { type: "null" }],
    description: "e.g. [*.ts, !*.test.ts]",
  });
  for (const tool of strict) {
    for (const property of Object.values(tool.function.parameters.properties)) {
      assert.ok(!Array.isArray(property.type) || !property.type.includes("array"));
    }
  }
});
