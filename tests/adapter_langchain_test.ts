// The LangChain.js adapter against the real @langchain/core: tools invoked with tool calls, as
// LangGraph's ToolNode invokes them, and bound to a model the way bindTools converts them.

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { ToolMessage } from "@langchain/core/messages";
import type { BindToolsInput } from "@langchain/core/language_models/chat_models";
import { DynamicStructuredTool, type StructuredToolInterface } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { createFsTools, type FsToolResult, LocalFileSystem } from "../mod.ts";
import { toOpenAITools } from "../formats.ts";
import { toLangChainTools } from "../adapters/langchain.ts";
import { sandbox } from "./_sandbox.ts";

function call(name: string, args: Record<string, unknown>, id = "call_1") {
  return { type: "tool_call" as const, id, name, args };
}

Deno.test("langchain: a tool call returns a ToolMessage with exactly toolfs's text", async () => {
  await using box = await sandbox("local", { "a.txt": "hello\nworld\n" });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const reference = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const [, read] = toLangChainTools(tools, { session: {} });
  const message = await read.invoke(call("read", { file_path: "a.txt", limit: 1 }));
  assert(message instanceof ToolMessage);
  const expected = await reference.execute("read", { file_path: "a.txt", limit: 1 });
  assertEquals(
    [message.content, message.status, message.tool_call_id, message.name],
    [expected.content, "success", "call_1", "read"],
  );
  assertEquals((message.artifact as FsToolResult).value, expected.value);
  // Invoked with plain arguments, the tool returns the text.
  assertEquals(await read.invoke({ file_path: "a.txt", limit: 1 }), expected.content);
});

Deno.test("langchain: toolfs errors are ToolMessages with status error and our text (C7.1)", async () => {
  await using box = await sandbox("local", { "a.txt": "hello\n" });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const [list, read, , edit] = toLangChainTools(tools, { session: {} });
  const cases: [typeof read, Record<string, unknown>, string][] = [
    [read, { file_path: "missing.txt" }, 'Error: cannot read "missing.txt": not found'],
    [
      edit,
      { file_path: "a.txt", old_string: "hello", new_string: "x" },
      'Error: cannot edit "a.txt": read it first',
    ],
    [list, { path: "/" }, 'Error: cannot list "/": outside the permitted roots'],
    // Arguments the schema refuses reach toolfs, whose message names the problem.
    [read, { file_path: "a.txt", limit: "x" }, "Error: limit must be a positive integer"],
    [read, { file_path: "a.txt", offset: 0 }, "Error: offset must be a positive integer"],
    [
      edit,
      { file_path: "a.txt" },
      "Error: old_string must be a non-empty string; to create a file use write, and to insert text include a neighbouring line in old_string and new_string",
    ],
  ];
  for (const [tool, args, text] of cases) {
    const message = await tool.invoke(call(tool.name, args));
    assert(message instanceof ToolMessage, JSON.stringify(args));
    assertEquals([message.status, message.content], ["error", text], JSON.stringify(args));
    assertEquals((message.artifact as FsToolResult).isError, true);
  }
  assertEquals(await Deno.readTextFile(`${root}/a.txt`), "hello\n");
});

Deno.test("langchain: the session option scopes read-before-write (C5.2)", async () => {
  await using box = await sandbox("local", { "a.txt": "hello\n" });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const [, read, , edit] = toLangChainTools(tools, { session: {} });
  await read.invoke(call("read", { file_path: "a.txt" }));
  const message = await edit.invoke(
    call("edit", { file_path: "a.txt", old_string: "hello", new_string: "bye" }, "call_2"),
  );
  assertEquals(
    [message.status, message.content],
    ["success", "The file a.txt has been updated successfully."],
  );
  // Another conversation's tools have not read it.
  const [, , , otherEdit] = toLangChainTools(tools, { session: {} });
  const refused = await otherEdit.invoke(
    call("edit", { file_path: "a.txt", old_string: "bye", new_string: "x" }),
  );
  assertEquals(refused.status, "error");
});

Deno.test("langchain: the model is bound to exactly toolfs's schemas, in definition order", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  // The tools as @langchain/core's own types: what bindTools, ToolNode and createAgent take.
  const structured: StructuredToolInterface[] = toLangChainTools(tools);
  const bindable: BindToolsInput[] = structured;
  assert(structured.every((t) => t instanceof DynamicStructuredTool));
  const bound = bindable.map((t) => convertToOpenAITool(t));
  assertEquals(bound, toOpenAITools(tools.definitions));
  return Promise.resolve();
});

Deno.test("langchain: the call's signal reaches the tool (C7.2)", async () => {
  await using box = await sandbox("local", { "a.txt": "hello\n" });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  let seen: AbortSignal | undefined;
  const [, read] = toLangChainTools({
    ...tools,
    execute(name, args, ctx) {
      seen = ctx?.signal;
      return tools.execute(name, args, ctx);
    },
  });
  const controller = new AbortController();
  await read.invoke(call("read", { file_path: "a.txt" }), { signal: controller.signal });
  assert(seen instanceof AbortSignal && !seen.aborted);
  controller.abort();
  assert(seen.aborted, "aborting the invocation's signal aborts the tool call's");
});

Deno.test("langchain: an image read is a ToolMessage with a text block, then an image block (C17.3)", async () => {
  const png = await Deno.readFile(new URL("./fixtures/media/red.png", import.meta.url));
  await using box = await sandbox("local", { "red.png": png });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const expected = await tools.execute("read", { file_path: "red.png" });
  const [, read] = toLangChainTools(tools);
  const message = await read.invoke(call("read", { file_path: "red.png" }));
  assert(message instanceof ToolMessage);
  assertEquals(message.content, [
    { type: "text", text: expected.content },
    { type: "image", data: expected.attachments![0].data, mimeType: "image/png" },
  ]);
  // LangChain's own view of the blocks: standard text and image blocks.
  assertEquals(message.contentBlocks.map((block) => block.type), ["text", "image"]);
});

Deno.test("langchain: createAgent takes toolfs's tools before another tool, and a failure is status error (issue 34.5)", async () => {
  // `deno check` of this file is the type test: `[...toLangChainTools(t), other]` was TS2769.
  const { createAgent, FakeToolCallingModel, tool } = await import("npm:langchain@1.5.14");
  const { z } = await import("zod");
  await using box = await sandbox("local", { "a.txt": "hello\n" });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const other = tool(({ q }: { q: string }) => q, {
    name: "echo",
    description: "Echoes q.",
    schema: z.object({ q: z.string() }),
  });
  const model = new FakeToolCallingModel({
    toolCalls: [[
      { id: "c1", name: "read", args: { file_path: "a.txt" } },
      { id: "c2", name: "read", args: { file_path: "missing.txt" } },
      { id: "c3", name: "echo", args: { q: "hi" } },
    ], []],
  });
  const agent = createAgent({ model, tools: [...toLangChainTools(tools, { session: {} }), other] });
  const { messages } = await agent.invoke({ messages: [{ role: "user", content: "go" }] });
  const answers = messages.filter((m) => m instanceof ToolMessage).map((m) => {
    const message = m as ToolMessage;
    return [message.tool_call_id, message.status, message.content];
  });
  assertEquals(answers, [
    ["c1", "success", (await tools.execute("read", { file_path: "a.txt" })).content],
    ["c2", "error", 'Error: cannot read "missing.txt": not found'],
    ["c3", "success", "hi"],
  ]);
});
