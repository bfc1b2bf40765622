/**
 * The tools for the Vercel AI SDK (`npm:ai`): `toAiSdkTools(tools)` is a `ToolSet` for
 * `generateText`, `streamText` or an `Agent`, with the wiring that is easy to get wrong done
 * once:
 *
 * - the model gets exactly toolfs's text (`toModelOutput`), never the JSON of the whole result
 *   (which, after a write or edit, carries the file twice);
 * - a failure follows the SDK's convention for a failed tool: `execute` rejects with an
 *   {@linkcode AiSdkToolError}, so the host sees a `tool-error` part (in `steps[].content`,
 *   `onStepFinish`, the stream and the UI) and the model gets exactly toolfs's `Error: …` text
 *   as `error-text`; the error carries the whole result (its `code` included);
 * - the SDK does not validate the arguments first, so the model gets toolfs's messages (which
 *   name the argument and suggest a fix) rather than a schema validator's;
 * - the call's `abortSignal` cancels the tool call.
 *
 * @example Ten lines to an agent
 * ```ts ignore
 * import { generateText, stepCountIs } from "ai";
 * import { createFsTools, LocalFileSystem, systemPrompt } from "@toolfs/fs";
 * import { toAiSdkTools } from "@toolfs/fs/ai-sdk";
 *
 * const fsTools = createFsTools({ fs: new LocalFileSystem({ roots: ["./workspace"] }) });
 * const { text } = await generateText({
 *   model: "openai/gpt-5",
 *   system: systemPrompt(fsTools.definitions),
 *   tools: toAiSdkTools(fsTools, { session: {} }),
 *   stopWhen: stepCountIs(20),
 *   prompt: "Fix the typo in README.md",
 * });
 * ```
 *
 * @module
 */

import type { FsToolResult, FsTools } from "../mod.ts";
import { type FsInputSchema, unvalidated } from "./_standard_schema.ts";

export type { FsInputSchema };
// The core types this adapter takes, so this entry documents itself on its own (issue 33.3).
export type * from "./_core_types.ts";

/** Options of {@linkcode toAiSdkTools}. */
export interface AiSdkToolsOptions {
  /**
   * The read-before-write session (C5): one per agent conversation.
   * @default {the tools' default session}
   */
  session?: object;
  /** The session directory for every call (relative resolves against the tools' `cwd`). */
  cwd?: string;
}

/** The options the AI SDK passes a tool's `execute` that toolfs uses. */
export interface AiSdkToolCallOptions {
  /** Cancels the tool call. */
  abortSignal?: AbortSignal;
}

/** One part of a `content` model output: toolfs's text, or an image it read (C17.3). */
export type AiSdkContentPart = { type: "text"; text: string } | {
  type: "file";
  data: { type: "data"; data: string };
  mediaType: string;
};

/**
 * What the model gets: toolfs's text, marked as an error for a failed call; for a `read` of an
 * image, `content`: the text, then the image as base64 file data (C17.3).
 */
export type AiSdkModelOutput =
  | { type: "text"; value: string }
  | { type: "error-text"; value: string }
  | { type: "content"; value: AiSdkContentPart[] };

/**
 * An AI SDK function tool (assignable to the SDK's `Tool`, so a record of them is a
 * `ToolSet`) whose `execute` resolves to the toolfs result.
 */
export interface AiSdkFsTool {
  /** The tool's one-line description. */
  description: string;
  /** The tool's JSON Schema, which the SDK sends the model without validating arguments. */
  inputSchema: FsInputSchema;
  /**
   * Runs the tool: resolves to the result (value included, in `toolResults`), or rejects with
   * an {@linkcode AiSdkToolError} for a failure (a `tool-error` part).
   */
  execute: (input: Record<string, unknown>, options: AiSdkToolCallOptions) => Promise<FsToolResult>;
  /** Exactly toolfs's text for the model, images after the text. */
  toModelOutput: (options: { output: FsToolResult }) => AiSdkModelOutput;
}

/**
 * The tools as an AI SDK `ToolSet`, one entry per `tools.definitions` (so tools added later
 * appear automatically).
 *
 * @param tools The tools, from `createFsTools`.
 * @param options The session and session directory.
 * @returns The tool set, keyed by tool name.
 *
 * @example
 * ```ts ignore
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import { toAiSdkTools } from "@toolfs/fs/ai-sdk";
 *
 * const tools = toAiSdkTools(createFsTools({ fs: new LocalFileSystem({ roots: ["."] }) }));
 * ```
 */
export function toAiSdkTools(
  tools: FsTools,
  options: AiSdkToolsOptions = {},
): Record<string, AiSdkFsTool> {
  const set: Record<string, AiSdkFsTool> = {};
  for (const definition of tools.definitions) {
    set[definition.name] = {
      description: definition.description,
      // A Standard JSON Schema that accepts anything: the arguments reach `execute` as the
      // model sent them, and toolfs judges them.
      inputSchema: unvalidated(definition),
      execute: async (input, { abortSignal }) => {
        const result = await tools.execute(definition.name, input, {
          session: options.session,
          cwd: options.cwd,
          signal: abortSignal,
        });
        if (result.isError) throw new AiSdkToolError(result);
        return result;
      },
      toModelOutput: ({ output }) => modelOutput(output),
    };
  }
  return set;
}

/**
 * A toolfs failure as the AI SDK expects a failed tool to report it: `execute` rejects with
 * it, the SDK records a `tool-error` part, and the model gets `String(error)`, which is exactly
 * toolfs's text (`Error: cannot read "a.txt": not found`).
 *
 * @example Tell a toolfs failure in a step's content
 * ```ts ignore
 * import { AiSdkToolError } from "@toolfs/fs/ai-sdk";
 *
 * for (const part of result.steps[0].content) {
 *   if (part.type === "tool-error" && part.error instanceof AiSdkToolError) {
 *     console.log(part.error.code, part.error.result.content);
 *   }
 * }
 * ```
 */
export class AiSdkToolError extends Error {
  /** The whole toolfs result: `content` is the model's text, `error` the name and code. */
  readonly result: FsToolResult;
  /** The error code, e.g. `FS_NOT_FOUND` (C7). */
  readonly code: string;

  /**
   * Wraps a failed result.
   *
   * @param result The result, `isError: true`.
   */
  constructor(result: FsToolResult) {
    super(result.content.replace(/^Error: /, ""));
    this.name = "AiSdkToolError";
    this.result = result;
    this.code = result.error?.code ?? "FS_IO_ERROR";
  }

  /**
   * Exactly toolfs's text, which the SDK sends the model as `error-text`.
   *
   * @returns The `Error: …` text.
   */
  override toString(): string {
    return this.result.content;
  }
}

function modelOutput(output: FsToolResult): AiSdkModelOutput {
  if (output.isError) return { type: "error-text", value: output.content };
  if (!output.attachments?.length) return { type: "text", value: output.content };
  const value: AiSdkContentPart[] = [{ type: "text", text: output.content }];
  for (const attachment of output.attachments) {
    value.push({
      type: "file",
      data: { type: "data", data: attachment.data },
      mediaType: attachment.mimeType,
    });
  }
  return { type: "content", value };
}
