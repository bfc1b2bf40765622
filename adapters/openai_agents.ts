/**
 * The tools for the OpenAI Agents SDK (`npm:@openai/agents`): `toOpenAIAgentsTools(tools)`
 * gives one function tool per tool with the wiring that is easy to get wrong done once:
 *
 * - strict schemas (every property required, the optional ones nullable, which toolfs treats
 *   as absent), built by the same converter as `toOpenAIResponsesTools(…, { strict: true })`;
 * - the output is exactly toolfs's text, a failure included (`Error: …`), never the SDK's
 *   generic "An error occurred" message;
 * - the run's abort signal cancels the tool call.
 *
 * The tools are built with `@openai/agents-core`, the package `@openai/agents` re-exports (its
 * `Agent` takes them as they are), so this module does not load the realtime and OpenAI-client
 * parts of the SDK.
 *
 * @example Ten lines to an agent
 * ```ts ignore
 * import { Agent, run } from "@openai/agents";
 * import { createFsTools, LocalFileSystem, systemPrompt } from "@toolfs/fs";
 * import { toOpenAIAgentsTools } from "@toolfs/fs/openai-agents";
 *
 * const fsTools = createFsTools({ fs: new LocalFileSystem({ roots: ["./workspace"] }) });
 * const agent = new Agent({
 *   name: "Editor",
 *   instructions: systemPrompt(fsTools.definitions),
 *   tools: toOpenAIAgentsTools(fsTools, { session: {} }),
 * });
 * const result = await run(agent, "Fix the typo in README.md");
 * ```
 *
 * @module
 */

import { tool } from "npm:@openai/agents-core@0.20.0";
import {
  type ApplyPatchOperation,
  applyPatchOperation,
  type FsToolResult,
  type FsTools,
  type ToolInputSchema,
} from "../mod.ts";
import { toOpenAIResponsesTools } from "../formats.ts";

// The core types this adapter takes, so this entry documents itself on its own (issue 33.3).
export type * from "./_core_types.ts";

/** Options of {@linkcode toOpenAIAgentsTools}. */
export interface OpenAIAgentsToolsOptions {
  /**
   * The read-before-write session (C5): one per agent conversation.
   * @default {the tools' default session}
   */
  session?: object;
  /** The session directory for every call (relative resolves against the tools' `cwd`). */
  cwd?: string;
}

/** The parts of the Agents SDK's tool-call details that toolfs uses. */
export interface OpenAIAgentsCallDetails {
  /** Cancels the tool call. */
  signal?: AbortSignal;
}

/**
 * A structured tool output item of the Agents SDK (its `ToolOutputText` and `ToolOutputImage`):
 * an image `read` returns toolfs's text, then the image (C17.3).
 */
export type OpenAIAgentsToolOutput = { type: "text"; text: string } | {
  type: "image";
  image: { data: string; mediaType: string };
};

/**
 * A function tool of the Agents SDK (assignable to its `FunctionTool`, so an `Agent` takes
 * it) whose output is toolfs's text.
 */
export interface OpenAIAgentsFsTool {
  /** Always `function`. */
  type: "function";
  /** The tool name. */
  name: string;
  /** The tool's one-line description. */
  description: string;
  /** The strict JSON Schema of the arguments (C1.4). */
  parameters: ToolInputSchema;
  /** Always `true`. */
  strict: boolean;
  /**
   * Runs the tool on the model's JSON arguments: toolfs's text, a failure included; for an
   * image `read`, the text and the image as structured output items.
   */
  invoke: (
    runContext: unknown,
    input: string,
    details?: OpenAIAgentsCallDetails,
  ) => Promise<string | OpenAIAgentsToolOutput[]>;
  /** Always resolves `false`. */
  needsApproval: (runContext: unknown, input: unknown, callId?: string) => Promise<boolean>;
  /** Always resolves `true`. */
  isEnabled: (runContext: unknown, agent: unknown) => Promise<boolean>;
}

/**
 * The tools as OpenAI Agents SDK function tools with strict schemas, one per
 * `tools.definitions` (so tools added later appear automatically).
 *
 * @param tools The tools, from `createFsTools`.
 * @param options The session and session directory.
 * @returns The tools, in definition order.
 *
 * @example
 * ```ts ignore
 * import { Agent } from "@openai/agents";
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import { toOpenAIAgentsTools } from "@toolfs/fs/openai-agents";
 *
 * const fsTools = createFsTools({ fs: new LocalFileSystem({ roots: ["."] }) });
 * const agent = new Agent({ name: "Reader", tools: toOpenAIAgentsTools(fsTools) });
 * ```
 */
export function toOpenAIAgentsTools(
  tools: FsTools,
  options: OpenAIAgentsToolsOptions = {},
): OpenAIAgentsFsTool[] {
  const strict = toOpenAIResponsesTools(tools.definitions, { strict: true });
  return tools.definitions.map((definition) => {
    const parameters = strict.find((t) => t.name === definition.name)!.parameters;
    return tool({
      name: definition.name,
      description: definition.description,
      parameters,
      strict: true,
      execute: async (input, _context, details): Promise<string | OpenAIAgentsToolOutput[]> => {
        const result = await tools.execute(definition.name, input, {
          session: options.session,
          cwd: options.cwd,
          signal: details?.signal,
        });
        return toolOutput(result);
      },
    }) as OpenAIAgentsFsTool;
  });
}

/** An `apply_patch` operation as the Agents SDK hands it to an editor. */
export type OpenAIAgentsPatchOperation = ApplyPatchOperation;

/** What an editor method returns to the Agents SDK. */
export interface OpenAIAgentsPatchResult {
  /** `completed`, or `failed` when nothing was changed. */
  status: "completed" | "failed";
  /** toolfs's text for the operation, a failure included (`Error: …`). */
  output: string;
}

/**
 * The Agents SDK's `Editor` interface (assignable to it), as toolfs implements it: each method
 * applies one operation through the tools.
 */
export interface OpenAIAgentsEditor {
  /** Creates a file from a diff of `+` lines; refused when the file exists. */
  createFile(operation: OpenAIAgentsPatchOperation): Promise<OpenAIAgentsPatchResult>;
  /** Updates (and with `moveTo` renames) a file the session has read, from a V4A diff. */
  updateFile(operation: OpenAIAgentsPatchOperation): Promise<OpenAIAgentsPatchResult>;
  /** Deletes a file the session has read. */
  deleteFile(operation: OpenAIAgentsPatchOperation): Promise<OpenAIAgentsPatchResult>;
}

/**
 * An `Editor` for the Agents SDK's `applyPatchTool` (C16.4): every operation the model sends
 * runs through toolfs — inside the roots, under the read-before-write policy of `session`,
 * atomically for its file — and its text (`Updated src/a.ts`, or `Error: …` with a hint) goes
 * back to the model.
 *
 * @param tools The tools, from `createFsTools` (they need not expose `patch`).
 * @param options The session and session directory.
 * @returns The editor.
 *
 * @example
 * ```ts ignore
 * import { Agent, applyPatchTool } from "@openai/agents";
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import { toOpenAIAgentsEditor, toOpenAIAgentsTools } from "@toolfs/fs/openai-agents";
 *
 * const fsTools = createFsTools({ fs: new LocalFileSystem({ roots: ["./workspace"] }) });
 * const session = {};
 * const agent = new Agent({
 *   name: "Coder",
 *   tools: [
 *     ...toOpenAIAgentsTools(fsTools, { session }),
 *     applyPatchTool({ editor: toOpenAIAgentsEditor(fsTools, { session }) }),
 *   ],
 * });
 * ```
 */
export function toOpenAIAgentsEditor(
  tools: FsTools,
  options: OpenAIAgentsToolsOptions = {},
): OpenAIAgentsEditor {
  const apply = (operation: OpenAIAgentsPatchOperation) =>
    applyPatchOperation(tools, operation, { session: options.session, cwd: options.cwd });
  return { createFile: apply, updateFile: apply, deleteFile: apply };
}

function toolOutput(result: FsToolResult): string | OpenAIAgentsToolOutput[] {
  if (!result.attachments?.length) return result.content;
  const items: OpenAIAgentsToolOutput[] = [{ type: "text", text: result.content }];
  for (const attachment of result.attachments) {
    items.push({ type: "image", image: { data: attachment.data, mediaType: attachment.mimeType } });
  }
  return items;
}
