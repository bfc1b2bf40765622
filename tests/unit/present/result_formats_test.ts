// Unit tests of src/present/result_formats.ts and toMcpCallResult with attachments (CONTRACT
// C17.3): every wire format carries an image read's text first, then the image.

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createFsTools } from "../../../mod.ts";
import { MemoryFileSystem } from "../../../memory.ts";
import {
  toAnthropicToolResult,
  toMcpCallResult,
  toOpenAIChatMessages,
  toOpenAIResponsesOutput,
} from "../../../formats.ts";

const png = Deno.readFileSync(new URL("../../fixtures/media/red.png", import.meta.url));
const fs = new MemoryFileSystem({
  roots: ["/w"],
  files: { "/w/red.png": png, "/w/a.txt": "hi\n" },
});
const tools = createFsTools({ fs });
const image = await tools.execute("read", { file_path: "red.png" });
const text = await tools.execute("read", { file_path: "a.txt" });
const failure = await tools.execute("read", { file_path: "nope.png" });
const data = image.attachments![0].data;

Deno.test("C17.3 toMcpCallResult: the text item, then an image item", () => {
  assertEquals(toMcpCallResult(image).content, [
    { type: "text", text: image.content },
    { type: "image", data, mimeType: "image/png" },
  ]);
  assertEquals(toMcpCallResult(text).content, [{ type: "text", text: text.content }]);
});

Deno.test("C17.3 toAnthropicToolResult: a text block, then a base64 image block; is_error on failure", () => {
  assertEquals(toAnthropicToolResult("toolu_1", image), {
    type: "tool_result",
    tool_use_id: "toolu_1",
    content: [
      { type: "text", text: image.content },
      { type: "image", source: { type: "base64", media_type: "image/png", data } },
    ],
  });
  assertEquals(toAnthropicToolResult("toolu_2", failure), {
    type: "tool_result",
    tool_use_id: "toolu_2",
    content: [{ type: "text", text: failure.content }],
    is_error: true,
  });
});

Deno.test("C17.3 toOpenAIResponsesOutput: a string, or input_text then input_image", () => {
  assertEquals(toOpenAIResponsesOutput("call_1", text), {
    type: "function_call_output",
    call_id: "call_1",
    output: text.content,
  });
  assertEquals(toOpenAIResponsesOutput("call_2", image), {
    type: "function_call_output",
    call_id: "call_2",
    output: [
      { type: "input_text", text: image.content },
      { type: "input_image", image_url: `data:image/png;base64,${data}`, detail: "auto" },
    ],
  });
});

Deno.test("C17.3 toOpenAIChatMessages: the tool message, then a user message with the image", () => {
  assertEquals(toOpenAIChatMessages("call_1", text), [
    { role: "tool", tool_call_id: "call_1", content: text.content },
  ]);
  assertEquals(toOpenAIChatMessages("call_2", image), [
    { role: "tool", tool_call_id: "call_2", content: image.content },
    {
      role: "user",
      content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${data}` } }],
    },
  ]);
});
