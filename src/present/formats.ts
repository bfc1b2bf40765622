/**
 * The tool definitions in the shapes the common tool-calling APIs take, plus the system-prompt
 * text assembled from their guidance. Plain data: no SDK is needed to use any of them.
 *
 * Every function here is deterministic: the same definitions give byte-identical output, so a
 * prompt prefix built from them stays cacheable for as long as the config does not change.
 *
 * @module
 */

import { workspaceSection } from "../render/hints.ts";
import type { FsRootInfo, FsToolDefinition, FsToolResult } from "../types.ts";
import type { ToolInputSchema } from "../types.ts";
import { type McpToolAnnotations, SPECS, TOOL_NAMES } from "./specs/mod.ts";
import type { McpImageContent, McpTextContent } from "./result_formats.ts";
import { boundsOf } from "./text_bounds.ts";

export type { McpToolAnnotations } from "./specs/mod.ts";

/** An OpenAI Chat Completions function tool. */
export interface OpenAIFunctionTool {
  /** Always `function`. */
  type: "function";
  /** The function. */
  function: {
    /** The tool name. */
    name: string;
    /** The one-line description. */
    description: string;
    /** The JSON Schema of the arguments. */
    parameters: ToolInputSchema;
    /** Present (`true`) only for strict schemas. */
    strict?: boolean;
  };
}

/** An OpenAI Responses API function tool. */
export interface OpenAIResponsesFunctionTool {
  /** Always `function`. */
  type: "function";
  /** The tool name. */
  name: string;
  /** The one-line description. */
  description: string;
  /** The JSON Schema of the arguments. */
  parameters: ToolInputSchema;
  /** Whether the schema is strict. */
  strict: boolean;
}

/** Options of {@linkcode toOpenAITools} and {@linkcode toOpenAIResponsesTools}. */
export interface OpenAIToolsOptions {
  /**
   * Emit strict-mode schemas: every property is listed in `required`, an optional one accepts
   * `null` (which the tools treat as absent) and loses its `default`.
   * @default {false}
   */
  strict?: boolean;
}

/** An Anthropic Messages API tool. */
export interface AnthropicTool {
  /** The tool name. */
  name: string;
  /** The one-line description. */
  description: string;
  /** The JSON Schema of the arguments. */
  input_schema: ToolInputSchema;
}

/** An MCP `Tool` object (the `tools/list` result entry). */
export interface McpTool {
  /** The tool name. */
  name: string;
  /** The one-line description. */
  description: string;
  /** The JSON Schema of the arguments. */
  inputSchema: ToolInputSchema;
  /** Behaviour hints for the client. */
  annotations: McpToolAnnotations;
}

/** An MCP `tools/call` result (`CallToolResult`). */
export interface McpCallToolResult {
  /** Exactly the model-facing text, then an `image` item per attachment (C17.3). */
  content: [McpTextContent, ...McpImageContent[]];
  /** Mirrors the tool result. */
  isError: boolean;
  /** The structured value (C6), on success only. */
  structuredContent?: Record<string, unknown>;
  /** On failure, `{ "toolfs/error": { name, code } }` for the host; models do not see it. */
  _meta?: Record<string, unknown>;
  /** The SDK's result type is open; so is this one. */
  [key: string]: unknown;
}

/** Options of {@linkcode systemPrompt}. */
export interface SystemPromptOptions {
  /**
   * The provider's roots (`fs.roots`). When given, a last section names the session workspace
   * and each root with its access, so the model can use absolute paths (C12.9).
   */
  roots?: readonly FsRootInfo[];
  /**
   * The absolute session workspace the section names (`tools.cwd`, or a session's own cwd).
   * @default {the first root}
   */
  cwd?: string;
}

/**
 * The system-prompt text for the given tools: each tool's guidance, in the fixed order `list`,
 * `read`, `write`, `edit`, `glob`, `grep` (whatever the order passed), separated by blank lines; with `roots`, a
 * last section stating the workspace and the roots (C12.9). Byte-stable for a given set of
 * tools and options, so it can sit in a cached prompt prefix.
 *
 * @param definitions The definitions, e.g. `tools.definitions` or a subset of them.
 * @param options The roots and the workspace to state.
 * @returns The sections, joined; empty for no definitions and no roots.
 *
 * @example Put the guidance and the workspace in the system prompt
 * ```ts
 * import { createFsTools, LocalFileSystem, systemPrompt } from "@toolfs/fs";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const fs = new LocalFileSystem({ roots: [root] });
 * const tools = createFsTools({ fs });
 * const system = `You are a coding agent.\n\n${systemPrompt(tools.definitions, { roots: fs.roots })}`;
 * const real = fs.roots[0].path;
 * assert.ok(system.endsWith(
 *   `The workspace is ${real}; relative paths resolve against it. ` +
 *     `Paths must lie inside these roots: ${real} (read-write).`,
 * ));
 * await Deno.remove(root);
 * ```
 */
export function systemPrompt(
  definitions: readonly FsToolDefinition[],
  options: SystemPromptOptions = {},
): string {
  const sections = inOrder(definitions).map((d) => d.guidance).filter((g) => g !== "");
  const roots = options?.roots;
  if (roots && roots.length > 0) {
    sections.push(workspaceSection(options.cwd ?? roots[0].path, roots));
  }
  return sections.join("\n\n");
}

/**
 * The tools as OpenAI Chat Completions function tools (`tools` of a chat completion request).
 *
 * @param definitions The definitions, e.g. `tools.definitions`.
 * @param options `strict` for strict-mode schemas.
 * @returns One tool per definition, in the fixed order.
 *
 * @example
 * ```ts
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import { toOpenAITools } from "@toolfs/fs/formats";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
 * const body = { model: "gpt-4.1", messages: [], tools: toOpenAITools(tools.definitions) };
 * assert.equal(body.tools[0].type, "function");
 * assert.equal(body.tools[0].function.name, "list");
 * await Deno.remove(root);
 * ```
 */
export function toOpenAITools(
  definitions: readonly FsToolDefinition[],
  options: OpenAIToolsOptions = {},
): OpenAIFunctionTool[] {
  const strict = options.strict === true;
  return inOrder(definitions).map((d) => ({
    type: "function",
    function: strict
      ? {
        name: d.name,
        description: d.description,
        parameters: strictSchema(d.inputSchema),
        strict: true,
      }
      : { name: d.name, description: d.description, parameters: copy(d.inputSchema) },
  }));
}

/**
 * The tools as OpenAI Responses API function tools.
 *
 * @param definitions The definitions, e.g. `tools.definitions`.
 * @param options `strict` for strict-mode schemas.
 * @returns One tool per definition, in the fixed order.
 *
 * @example
 * ```ts
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import { toOpenAIResponsesTools } from "@toolfs/fs/formats";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
 * const body = { model: "gpt-4.1", input: "hi", tools: toOpenAIResponsesTools(tools.definitions) };
 * assert.deepEqual(body.tools.map((tool) => tool.name), [
 *   "list",
 *   "read",
 *   "write",
 *   "edit",
 *   "glob",
 *   "grep",
 * ]);
 * await Deno.remove(root);
 * ```
 */
export function toOpenAIResponsesTools(
  definitions: readonly FsToolDefinition[],
  options: OpenAIToolsOptions = {},
): OpenAIResponsesFunctionTool[] {
  const strict = options.strict === true;
  return inOrder(definitions).map((d) => ({
    type: "function",
    name: d.name,
    description: d.description,
    parameters: strict ? strictSchema(d.inputSchema) : copy(d.inputSchema),
    strict,
  }));
}

/**
 * The tools as Anthropic Messages API tools (`tools` of a messages request).
 *
 * @param definitions The definitions, e.g. `tools.definitions`.
 * @returns One tool per definition, in the fixed order.
 *
 * @example
 * ```ts
 * import { createFsTools, LocalFileSystem, systemPrompt } from "@toolfs/fs";
 * import { toAnthropicTools } from "@toolfs/fs/formats";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
 * const body = {
 *   model: "claude-sonnet-4-5",
 *   system: systemPrompt(tools.definitions),
 *   tools: toAnthropicTools(tools.definitions),
 * };
 * assert.equal(body.tools[3].name, "edit");
 * await Deno.remove(root);
 * ```
 */
export function toAnthropicTools(definitions: readonly FsToolDefinition[]): AnthropicTool[] {
  return inOrder(definitions).map((d) => ({
    name: d.name,
    description: d.description,
    input_schema: copy(d.inputSchema),
  }));
}

/**
 * The tools as MCP `Tool` objects, with annotations: `list` and `read` are read-only, `write`
 * and `edit` destructive, none open-world.
 *
 * @param definitions The definitions, e.g. `tools.definitions`.
 * @returns One tool per definition, in the fixed order.
 *
 * @example
 * ```ts
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import { toMcpTools } from "@toolfs/fs/formats";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
 * assert.equal(toMcpTools(tools.definitions)[0].annotations.readOnlyHint, true);
 * await Deno.remove(root);
 * ```
 */
export function toMcpTools(definitions: readonly FsToolDefinition[]): McpTool[] {
  return inOrder(definitions).map((d) => ({
    name: d.name,
    description: d.description,
    inputSchema: copy(d.inputSchema),
    annotations: { ...SPECS[d.name].annotations },
  }));
}

/**
 * A tool result as an MCP `tools/call` result: the text content is exactly the model-facing
 * text, `isError` mirrors, `structuredContent` carries the value on success, and on failure
 * `_meta["toolfs/error"]` carries the error code.
 *
 * @param result What `tools.execute` resolved to.
 * @returns The MCP result.
 *
 * @example
 * ```ts
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import { toMcpCallResult } from "@toolfs/fs/formats";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
 * const result = await tools.execute("list", {});
 * assert.equal(toMcpCallResult(result).content[0].text, result.content);
 * await Deno.remove(root);
 * ```
 */
export function toMcpCallResult(result: FsToolResult): McpCallToolResult {
  const content: McpCallToolResult["content"] = [{ type: "text", text: result.content }];
  for (const a of result.attachments ?? []) {
    content.push({ type: "image", data: a.data, mimeType: a.mimeType });
  }
  if (result.isError) {
    return { content, isError: true, _meta: { "toolfs/error": { ...result.error } } };
  }
  if (result.value === undefined) return { content, isError: false };
  const value = result.value as unknown as Record<string, unknown>;
  if (diffOver(value)) {
    // A whole large file twice over would exceed what MCP clients accept in one message. The
    // texts are left out unread: a lazy `before`/`after` (C6) is never decoded for this.
    const rest: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (key !== "before" && key !== "after") rest[key] = value[key];
    }
    return {
      content,
      isError: false,
      structuredContent: rest,
      _meta: { "toolfs/omitted": ["before", "after"] },
    };
  }
  return { content, isError: false, structuredContent: value };
}

/**
 * Whether `before` plus `after` exceed {@linkcode MCP_MAX_DIFF_CHARS}: judged from the byte
 * counts a tool attached where they decide it, else (near the limit, or a value built by hand)
 * from the texts.
 */
function diffOver(value: Record<string, unknown>): boolean {
  const bounds = boundsOf(value);
  if (bounds && bounds.max <= MCP_MAX_DIFF_CHARS) return false;
  if (bounds && bounds.min > MCP_MAX_DIFF_CHARS) return true;
  if (typeof value.after !== "string") return false;
  const before = typeof value.before === "string" ? value.before.length : 0;
  return before + value.after.length > MCP_MAX_DIFF_CHARS;
}

/**
 * The most characters of `before` plus `after` a write or edit result carries in MCP
 * `structuredContent`; beyond it both are left out and `_meta["toolfs/omitted"]` names them
 * (stdio MCP clients refuse messages over a few MiB).
 */
export const MCP_MAX_DIFF_CHARS = 1 << 20;

/** The definitions in the fixed tool order; unknown names last, in the order given. */
function inOrder(definitions: readonly FsToolDefinition[]): FsToolDefinition[] {
  const rank = (d: FsToolDefinition): number => {
    const i = TOOL_NAMES.indexOf(d.name);
    return i === -1 ? TOOL_NAMES.length : i;
  };
  return [...definitions].sort((a, b) => rank(a) - rank(b));
}

function copy(schema: ToolInputSchema): ToolInputSchema {
  return structuredClone(schema);
}

/** A strict-mode copy: all properties required; the optional ones nullable, without `default`. */
function strictSchema(schema: ToolInputSchema): ToolInputSchema {
  const properties: ToolInputSchema["properties"] = {};
  for (const [key, value] of Object.entries(schema.properties)) {
    const property = structuredClone(value);
    if (!schema.required.includes(key)) {
      delete property.default;
      // A one-of-several argument (C9.3's globs) takes null as one more branch.
      if (Array.isArray(property.anyOf)) property.anyOf = [...property.anyOf, { type: "null" }];
      else property.type = [property.type, "null"].flat();
    }
    properties[key] = property;
  }
  return {
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}
