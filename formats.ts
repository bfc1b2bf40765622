/**
 * The tool definitions in the shapes model APIs and protocols expect: OpenAI Chat Completions
 * and Responses, Anthropic Messages, and the Model Context Protocol (tools and call results).
 *
 * @example Hand the tools to an OpenAI-style API
 * ```ts
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import { toAnthropicTools, toOpenAITools } from "@toolfs/fs/formats";
 * import assert from "node:assert/strict";
 *
 * const workspace = await Deno.makeTempDir();
 * const tools = createFsTools({ fs: new LocalFileSystem({ roots: [workspace] }) });
 * const openai = toOpenAITools(tools.definitions, { strict: true });
 * assert.deepEqual(openai.map((tool) => tool.function.name), [
 *   "list",
 *   "read",
 *   "write",
 *   "edit",
 *   "glob",
 *   "grep",
 * ]);
 * assert.equal(toAnthropicTools(tools.definitions)[1].input_schema.type, "object");
 * await Deno.remove(workspace);
 * ```
 *
 * @module
 */

export * from "./src/present/formats.ts";
export * from "./src/present/result_formats.ts";
// The core types these helpers take, so this entry documents itself on its own (issue 33.3).
export type {
  DeleteValue,
  EditValue,
  FS_ERROR_CODES,
  FsAttachment,
  FsDirEntry,
  FsEntryType,
  FsErrorCode,
  FsRootInfo,
  FsToolDefinition,
  FsToolName,
  FsToolResult,
  FsToolValue,
  GlobValue,
  GrepValue,
  ListTotals,
  ListValue,
  MoveValue,
  PatchOperationValue,
  PatchValue,
  ReadImageInfo,
  ReadLine,
  ReadValue,
  ToolInputSchema,
  WriteValue,
} from "./mod.ts";
