import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { createFsTools, systemPrompt } from "../../../mod.ts";
import { toolDefinitions } from "../../../src/tools/tools.ts";
import { toAnthropicTools } from "../../../formats.ts";
import { MemoryFileSystem } from "../../../memory.ts";

function tools(texts: unknown) {
  return createFsTools({
    fs: new MemoryFileSystem({ roots: ["/w"] }),
    texts: texts as Parameters<typeof createFsTools>[0]["texts"],
  });
}

Deno.test("texts replace a tool's description, guidance and argument descriptions, nothing else", () => {
  const plain = toolDefinitions();
  const varied = tools({
    read: {
      description: "Read a file; lines come numbered.",
      guidance: "Read before you edit.",
      parameters: { offset: "Start line (1 = first).", limit: "How many lines." },
    },
  }).definitions;
  const read = varied.find((d) => d.name === "read")!;
  assertEquals(read.description, "Read a file; lines come numbered.");
  assertEquals(read.guidance, "Read before you edit.");
  // The replaced description keeps its place; an added one comes last; the schema is the same.
  assertEquals(Object.keys(read.inputSchema.properties.offset), ["type", "minimum", "description"]);
  assertEquals(read.inputSchema.properties.offset.description, "Start line (1 = first).");
  assertEquals(read.inputSchema.properties.limit, {
    type: "integer",
    minimum: 1,
    maximum: 2000,
    default: 2000,
    description: "How many lines.",
  });
  assertEquals(read.inputSchema.required, ["file_path"]);
  // Other tools keep the library's bytes.
  assertEquals(varied.filter((d) => d.name !== "read"), plain.filter((d) => d.name !== "read"));
  // Every surface built from definitions carries the variant.
  assertEquals(systemPrompt(varied).includes("Read before you edit."), true);
  assertEquals(
    toAnthropicTools(varied).find((t) => t.name === "read")?.description,
    "Read a file; lines come numbered.",
  );
});

Deno.test("texts: an empty guidance drops the tool's section; an empty argument text drops its description", () => {
  const varied = tools({ list: { guidance: "" }, read: { parameters: { file_path: "" } } })
    .definitions;
  const plain = toolDefinitions();
  assertEquals(
    systemPrompt(varied),
    systemPrompt(plain.filter((d) => d.name !== "list")),
  );
  assertEquals(varied.find((d) => d.name === "read")!.inputSchema.properties.file_path, {
    type: "string",
  });
});

Deno.test("texts with no overrides give the library's definitions byte for byte", () => {
  assertEquals(JSON.stringify(tools({}).definitions), JSON.stringify(toolDefinitions()));
  assertEquals(
    JSON.stringify(toolDefinitions({ texts: { grep: {} } })),
    JSON.stringify(toolDefinitions()),
  );
});

Deno.test("texts: an unknown tool, field or argument is a TypeError naming it and what is known", () => {
  assertThrows(() => tools({ reed: { description: "x" } }), {
    name: "TypeError",
    message:
      'texts: unknown tool "reed"; the tools are list, read, write, edit, glob, grep, move, delete, patch',
  });
  assertThrows(() => tools({ read: { desc: "x" } }), {
    message: 'texts.read: unknown field "desc"; expected description, guidance, parameters',
  });
  assertThrows(() => tools({ read: { parameters: { ofset: "x" } } }), {
    message:
      'texts.read.parameters: unknown argument "ofset" for read; its arguments are file_path, offset, limit',
  });
  assertThrows(() => tools({ read: { description: "  " } }), {
    message: "texts.read.description must be a non-empty string",
  });
  assertThrows(() => tools({ read: { parameters: { offset: 1 } } }), {
    message: "texts.read.parameters.offset must be a string",
  });
  assertThrows(() => tools([]), { message: "texts must be an object keyed by tool name" });
});
