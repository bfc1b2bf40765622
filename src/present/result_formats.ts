/**
 * Tool results in the shapes the model APIs take them back, attachments included (CONTRACT
 * C17.3): an Anthropic `tool_result` block, an OpenAI Responses `function_call_output` item, and
 * OpenAI Chat Completions messages. Plain data: no SDK is needed.
 *
 * @module
 */

import type { FsToolResult } from "../types.ts";

/** The text item of an MCP `tools/call` result. */
export interface McpTextContent {
  /** Always `text`. */
  type: "text";
  /** Exactly the model-facing text. */
  text: string;
}

/** An image item of an MCP `tools/call` result (C17.3). */
export interface McpImageContent {
  /** Always `image`. */
  type: "image";
  /** The image's bytes, base64. */
  data: string;
  /** The image's MIME type. */
  mimeType: string;
}

/** A block of an Anthropic `tool_result`'s content. */
export type AnthropicToolResultContent = { type: "text"; text: string } | {
  type: "image";
  source: { type: "base64"; media_type: string; data: string };
};

/** An Anthropic Messages API `tool_result` content block, for the next `user` message. */
export interface AnthropicToolResultBlock {
  /** Always `tool_result`. */
  type: "tool_result";
  /** The `id` of the `tool_use` block it answers. */
  tool_use_id: string;
  /** The text, then an image block per attachment. */
  content: AnthropicToolResultContent[];
  /** Present (`true`) only for a failed call. */
  is_error?: boolean;
}

/**
 * A tool result as an Anthropic `tool_result` block: toolfs's text, then each image as a base64
 * image block; `is_error` for a failure.
 *
 * @param toolUseId The `id` of the model's `tool_use` block.
 * @param result What `tools.execute` resolved to.
 * @returns The block, to put in the next `user` message's content.
 *
 * @example
 * ```ts
 * import { createFsTools } from "@toolfs/fs";
 * import { MemoryFileSystem } from "@toolfs/fs/memory";
 * import { toAnthropicToolResult } from "@toolfs/fs/formats";
 * import assert from "node:assert/strict";
 *
 * const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/a.txt": "hi\n" } });
 * const result = await createFsTools({ fs }).execute("read", { file_path: "a.txt" });
 * const block = toAnthropicToolResult("toolu_1", result);
 * assert.deepEqual(block.content, [{ type: "text", text: result.content }]);
 * ```
 */
export function toAnthropicToolResult(
  toolUseId: string,
  result: FsToolResult,
): AnthropicToolResultBlock {
  const content: AnthropicToolResultContent[] = [{ type: "text", text: result.content }];
  for (const a of result.attachments ?? []) {
    content.push({
      type: "image",
      source: { type: "base64", media_type: a.mimeType, data: a.data },
    });
  }
  const block: AnthropicToolResultBlock = { type: "tool_result", tool_use_id: toolUseId, content };
  if (result.isError) block.is_error = true;
  return block;
}

/** An item of an OpenAI Responses `function_call_output`'s list output. */
export type OpenAIResponsesOutputContent = { type: "input_text"; text: string } | {
  type: "input_image";
  image_url: string;
  detail: "auto";
};

/** An OpenAI Responses API `function_call_output` input item. */
export interface OpenAIResponsesFunctionCallOutput {
  /** Always `function_call_output`. */
  type: "function_call_output";
  /** The `call_id` of the model's `function_call`. */
  call_id: string;
  /** The text alone, or with attachments the text then an `input_image` per image. */
  output: string | OpenAIResponsesOutputContent[];
}

/**
 * A tool result as an OpenAI Responses `function_call_output` item: the text as a string, or,
 * for an image `read`, a list of the text (`input_text`) and the image (`input_image` with a
 * `data:` URL).
 *
 * @param callId The `call_id` of the model's `function_call`.
 * @param result What `tools.execute` resolved to.
 * @returns The item, to append to the next request's `input`.
 *
 * @example
 * ```ts
 * import { createFsTools } from "@toolfs/fs";
 * import { MemoryFileSystem } from "@toolfs/fs/memory";
 * import { toOpenAIResponsesOutput } from "@toolfs/fs/formats";
 * import assert from "node:assert/strict";
 *
 * const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/a.txt": "hi\n" } });
 * const result = await createFsTools({ fs }).execute("read", { file_path: "a.txt" });
 * assert.equal(toOpenAIResponsesOutput("call_1", result).output, result.content);
 * ```
 */
export function toOpenAIResponsesOutput(
  callId: string,
  result: FsToolResult,
): OpenAIResponsesFunctionCallOutput {
  const item = { type: "function_call_output" as const, call_id: callId };
  if (!result.attachments?.length) return { ...item, output: result.content };
  const output: OpenAIResponsesOutputContent[] = [{ type: "input_text", text: result.content }];
  for (const a of result.attachments) {
    output.push({ type: "input_image", image_url: dataUrl(a.mimeType, a.data), detail: "auto" });
  }
  return { ...item, output };
}

/** An OpenAI Chat Completions message toolfs produces for a tool result. */
export type OpenAIChatResultMessage = { role: "tool"; tool_call_id: string; content: string } | {
  role: "user";
  content: { type: "image_url"; image_url: { url: string } }[];
};

/**
 * A tool result as OpenAI Chat Completions messages. A `tool` message carries text only, so an
 * image `read` gives the `tool` message with toolfs's text and then a `user` message with the
 * image as a `data:` URL, the way OpenAI documents for images; any other result gives the `tool`
 * message alone.
 *
 * @param toolCallId The `id` of the model's tool call.
 * @param result What `tools.execute` resolved to.
 * @returns The messages, to append in order.
 *
 * @example
 * ```ts
 * import { createFsTools } from "@toolfs/fs";
 * import { MemoryFileSystem } from "@toolfs/fs/memory";
 * import { toOpenAIChatMessages } from "@toolfs/fs/formats";
 * import assert from "node:assert/strict";
 *
 * const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/a.txt": "hi\n" } });
 * const result = await createFsTools({ fs }).execute("read", { file_path: "a.txt" });
 * assert.equal(toOpenAIChatMessages("call_1", result).length, 1);
 * ```
 */
export function toOpenAIChatMessages(
  toolCallId: string,
  result: FsToolResult,
): OpenAIChatResultMessage[] {
  const messages: OpenAIChatResultMessage[] = [
    { role: "tool", tool_call_id: toolCallId, content: result.content },
  ];
  if (result.attachments?.length) {
    messages.push({
      role: "user",
      content: result.attachments.map((a) => ({
        type: "image_url" as const,
        image_url: { url: dataUrl(a.mimeType, a.data) },
      })),
    });
  }
  return messages;
}

function dataUrl(mimeType: string, data: string): string {
  return `data:${mimeType};base64,${data}`;
}
