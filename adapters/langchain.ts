/**
 * The tools for LangChain.js (`npm:@langchain/core`), for `model.bindTools`, LangGraph's
 * `ToolNode` or `createAgent`: `toLangChainTools(tools)` gives one `StructuredTool` per tool
 * with the wiring that is easy to get wrong done once:
 *
 * - a failure comes back as a `ToolMessage` with `status: "error"` whose content is toolfs's
 *   `Error: …` text, not as a success, and not wrapped in LangGraph's generic error prompt;
 * - LangChain does not validate the arguments first (its message, "Received tool input did
 *   not match expected schema", would pre-empt toolfs's, which names the argument and suggests
 *   a fix), yet the model is bound to exactly toolfs's JSON Schemas;
 * - the content is exactly the tool's text; the whole result (value or error code) is the
 *   message's `artifact`, for the host;
 * - the call's `signal` cancels the tool call.
 *
 * Invoked with a tool call (`{ type: "tool_call", id, name, args }`, as `ToolNode` does), a
 * tool returns a `ToolMessage`; invoked with plain arguments, it returns the text.
 *
 * @example Ten lines to an agent
 * ```ts ignore
 * import { createAgent } from "langchain";
 * import { createFsTools, LocalFileSystem, systemPrompt } from "@toolfs/fs";
 * import { toLangChainTools } from "@toolfs/fs/langchain";
 *
 * const fsTools = createFsTools({ fs: new LocalFileSystem({ roots: ["./workspace"] }) });
 * const agent = createAgent({
 *   model: "openai:gpt-5",
 *   tools: toLangChainTools(fsTools, { session: {} }),
 *   systemPrompt: systemPrompt(fsTools.definitions),
 * });
 * await agent.invoke({ messages: [{ role: "user", content: "Fix the typo in README.md" }] });
 * ```
 *
 * @module
 */

import { ToolMessage } from "npm:@langchain/core@1.4.0/messages";
import { DynamicStructuredTool } from "npm:@langchain/core@1.4.0/tools";
import {
  type ApplyPatchOperation,
  applyPatchOperation,
  type ApplyPatchOutcome,
  type FsToolResult,
  type FsTools,
} from "../mod.ts";
import { type FsInputSchema, unvalidated } from "./_standard_schema.ts";

export type { FsInputSchema };
// The core types this adapter takes, so this entry documents itself on its own (issue 33.3).
export type * from "./_core_types.ts";
export type { ApplyPatchOutcome } from "../mod.ts";

/** Options of {@linkcode toLangChainTools}. */
export interface LangChainToolsOptions {
  /**
   * The read-before-write session (C5): one per agent conversation.
   * @default {the tools' default session}
   */
  session?: object;
  /** The session directory for every call (relative resolves against the tools' `cwd`). */
  cwd?: string;
}

/** A tool call, as LangGraph's `ToolNode` invokes a tool with it. */
export interface LangChainToolCall {
  /** Always `tool_call`. */
  type?: "tool_call";
  /** The call id, which the `ToolMessage` answers. */
  id: string;
  /** The tool name. */
  name: string;
  /** The arguments the model sent. */
  args: Record<string, unknown>;
}

/**
 * A standard LangChain content block of a `ToolMessage` (`ContentBlock.Text`,
 * `ContentBlock.Multimodal.Image` with base64 data).
 */
export type LangChainContentPart = { type: "text"; text: string } | {
  type: "image";
  data: string;
  mimeType: string;
};

/** The `ToolMessage` a tool call returns (an instance of LangChain's `ToolMessage`). */
export interface LangChainToolMessage {
  /**
   * Exactly toolfs's text (`Error: …` for a failure); for an image `read`, content blocks: the
   * text, then the image (C17.3).
   */
  content: string | LangChainContentPart[];
  /** The id of the call it answers. */
  tool_call_id: string;
  /** The tool name. */
  name?: string;
  /** `error` when the tool call failed. */
  status?: "success" | "error";
  /**
   * The whole toolfs result (value or error code), for the host; for an apply_patch call, the
   * operation's `{ status, output }`.
   */
  artifact?: FsToolResult | ApplyPatchOutcome;
}

/** The parts of LangChain's run config that toolfs uses. */
export interface LangChainCallConfig {
  /** Cancels the tool call. */
  signal?: AbortSignal;
}

/**
 * A LangChain structured tool (an instance of `DynamicStructuredTool`, assignable to
 * `StructuredToolInterface`, so `bindTools`, `ToolNode` and `createAgent` take it).
 */
export interface LangChainFsTool {
  /** The tool name. */
  name: string;
  /** The tool's one-line description. */
  description: string;
  /** The tool's JSON Schema, which LangChain binds the model to without validating arguments. */
  schema: object;
  /** Always `false`: the model sees the result. */
  returnDirect: boolean;
  /** LangChain's serialization namespace. */
  lc_namespace: string[];
  /** Whether LangChain may serialize the tool. */
  lc_serializable: boolean;
  /** LangChain's serialization id. */
  readonly lc_id: string[];
  /** Runs a tool call: the answer is a `ToolMessage`. */
  invoke(input: LangChainToolCall, config?: LangChainCallConfig): Promise<LangChainToolMessage>;
  /** Runs the tool on plain arguments: the answer is toolfs's text. */
  invoke(input: Record<string, unknown>, config?: LangChainCallConfig): Promise<string>;
  /** LangChain's older entry point, as `invoke`. */
  call(input: unknown, config?: LangChainCallConfig, tags?: string[]): Promise<unknown>;
  /** LangChain's `Runnable.batch`. */
  batch(inputs: unknown[], options?: unknown, batchOptions?: unknown): Promise<unknown[]>;
  /** LangChain's `Runnable.stream`. */
  stream(input: unknown, options?: unknown): Promise<ReadableStream<unknown>>;
  /** LangChain's `Runnable.transform`. */
  transform(generator: AsyncGenerator<unknown>, options: unknown): AsyncGenerator<unknown>;
  /** The tool's name for traces. */
  getName(suffix?: string): string;
}

/**
 * The tools as LangChain structured tools, one per `tools.definitions` (so tools added later
 * appear automatically).
 *
 * @param tools The tools, from `createFsTools`.
 * @param options The session and session directory.
 * @returns The tools, in definition order.
 *
 * @example
 * ```ts ignore
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import { toLangChainTools } from "@toolfs/fs/langchain";
 *
 * const tools = toLangChainTools(createFsTools({ fs: new LocalFileSystem({ roots: ["."] }) }));
 * const message = await tools[1].invoke({
 *   type: "tool_call",
 *   id: "call_1",
 *   name: "read",
 *   args: { file_path: "README.md" },
 * });
 * ```
 */
export function toLangChainTools(
  tools: FsTools,
  options: LangChainToolsOptions = {},
): [LangChainFsTool, ...LangChainFsTool[]] {
  if (tools.definitions.length === 0) {
    throw new TypeError("toLangChainTools needs tools with at least one definition");
  }
  const [first, ...rest] = tools.definitions.map((definition) =>
    new DynamicStructuredTool({
      name: definition.name,
      description: definition.description,
      schema: unvalidated(definition),
      func: async (input: unknown, _runManager, config): Promise<string | ToolMessage> => {
        const result = await tools.execute(definition.name, input, {
          session: options.session,
          cwd: options.cwd,
          signal: config?.signal,
        });
        const id = toolCallId(config);
        if (id === undefined) return result.content;
        return toolMessage(result, id, definition.name, messageContent(result));
      },
    }) as LangChainFsTool
  );
  // A tuple with a first element: `createAgent({ tools: [...toLangChainTools(t), other] })`
  // infers its tools as a tuple only when the spread one has an element 0 (else TS2769).
  return [first, ...rest];
}

/** The `ToolMessage` answering call `id`: `status: "error"` for a failure (C7.1). */
function toolMessage(
  result: FsToolResult | ApplyPatchOutcome,
  id: string,
  name: string,
  content: string | LangChainContentPart[],
): ToolMessage {
  const failed = "isError" in result ? result.isError : result.status === "failed";
  return new ToolMessage({
    content,
    tool_call_id: id,
    name,
    status: failed ? "error" : "success",
    artifact: result,
  });
}

/** The id of the tool call a LangChain run config carries, if any. */
function toolCallId(config: unknown): string | undefined {
  const id = (config as { toolCall?: { id?: unknown } } | undefined)?.toolCall?.id;
  return typeof id === "string" ? id : undefined;
}

/** An `apply_patch` operation as `@langchain/openai`'s `applyPatch` tool hands it over. */
export type LangChainPatchOperation = ApplyPatchOperation;

/** The run config LangChain passes a tool's function; `toolCall` when invoked with a tool call. */
export interface LangChainPatchCallConfig extends LangChainCallConfig {
  /** The tool call being answered. */
  toolCall?: { id?: string; name?: string };
}

/**
 * The `execute` {@linkcode toLangChainPatchExecute} returns: given only the operation (or
 * plain arguments), toolfs's text; given LangChain's run config of a tool call, the
 * `ToolMessage` answering it, `status: "error"` when the operation failed.
 */
export interface LangChainPatchExecute {
  /** Applies the operation; resolves to toolfs's text (`Error: …` for a failure). */
  (operation: LangChainPatchOperation): Promise<string>;
  /**
   * Applies the operation; for a tool call resolves to its `ToolMessage` (exactly toolfs's
   * text, `status: "error"` for a failure, the outcome as `artifact`), else to the text.
   */
  (
    operation: LangChainPatchOperation,
    config: LangChainPatchCallConfig,
  ): Promise<string | LangChainToolMessage>;
}

/**
 * An `execute` for `@langchain/openai`'s `tools.applyPatch({ execute })` (C16.4): every
 * operation the model sends runs through toolfs — inside the roots, under the read-before-write
 * policy of `session`, atomically for its file — and its text (`Updated src/a.ts`, or
 * `Error: …` with a hint) becomes the tool's output. Invoked with a tool call (as `ToolNode`
 * and `createAgent` invoke it), it answers with a `ToolMessage` whose `status` is `"error"`
 * when the operation failed, as toolfs's other LangChain tools do.
 *
 * @param tools The tools, from `createFsTools` (they need not expose `patch`).
 * @param options The session and session directory.
 * @returns The `execute` function.
 *
 * @example
 * ```ts ignore
 * import { ChatOpenAI, tools } from "@langchain/openai";
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import { toLangChainPatchExecute, toLangChainTools } from "@toolfs/fs/langchain";
 *
 * const fsTools = createFsTools({ fs: new LocalFileSystem({ roots: ["./workspace"] }) });
 * const session = {};
 * const model = new ChatOpenAI({ model: "gpt-5.1" }).bindTools([
 *   ...toLangChainTools(fsTools, { session }),
 *   tools.applyPatch({ execute: toLangChainPatchExecute(fsTools, { session }) }),
 * ]);
 * ```
 */
export function toLangChainPatchExecute(
  tools: FsTools,
  options: LangChainToolsOptions = {},
): LangChainPatchExecute {
  async function execute(operation: LangChainPatchOperation): Promise<string>;
  async function execute(
    operation: LangChainPatchOperation,
    config: LangChainPatchCallConfig,
  ): Promise<string | LangChainToolMessage>;
  async function execute(
    operation: LangChainPatchOperation,
    config?: LangChainPatchCallConfig,
  ): Promise<string | LangChainToolMessage> {
    const outcome = await applyPatchOperation(tools, operation, {
      session: options.session,
      cwd: options.cwd,
      signal: config?.signal,
    });
    const id = toolCallId(config);
    if (id === undefined) return outcome.output;
    const name = config?.toolCall?.name ?? "apply_patch";
    return toolMessage(outcome, id, name, outcome.output) as LangChainToolMessage;
  }
  return execute;
}

function messageContent(result: FsToolResult): string | LangChainContentPart[] {
  if (!result.attachments?.length) return result.content;
  const parts: LangChainContentPart[] = [{ type: "text", text: result.content }];
  for (const attachment of result.attachments) {
    parts.push({ type: "image", data: attachment.data, mimeType: attachment.mimeType });
  }
  return parts;
}
