/**
 * What a set of tools costs in every prompt, before any call: the one definition of what is
 * counted, shared by `deno task tokens` and the playground. Pure: the caller brings the
 * tokenizer as a counting function, so this module loads none.
 *
 * @module
 */

import type { FsToolDefinition } from "../../src/types.ts";
import {
  systemPrompt,
  toAnthropicTools,
  toMcpTools,
  toOpenAIResponsesTools,
  toOpenAITools,
} from "../../src/present/formats.ts";

/** The wire formats a request can carry the tools in. */
export type WireFormat = "openai-chat" | "openai-responses-strict" | "anthropic" | "mcp";

/** The wire formats, in display order. */
export const WIRE_FORMATS: readonly WireFormat[] = Object.freeze([
  "openai-chat",
  "openai-responses-strict",
  "anthropic",
  "mcp",
]);

/** The root the token budget's system prompt names (a typical project directory). */
export const BUDGET_ROOT: Readonly<{ path: string; writable: boolean }> = Object.freeze({
  path: "/home/user/project",
  writable: true,
});

/** The texts of one tool that a prompt carries. */
export interface ToolPromptTexts {
  /** The tool name. */
  name: string;
  /** The one-line description. */
  description: string;
  /** The input schema as compact JSON (`JSON.stringify`). */
  schema: string;
  /** The system-prompt section. */
  guidance: string;
}

/** Everything a prompt carries for a set of tools. */
export interface PromptTexts {
  /** Per tool, in definition order. */
  tools: ToolPromptTexts[];
  /** The assembled system prompt, `systemPrompt(definitions)`. */
  systemPrompt: string;
  /** `systemPrompt(definitions, { roots })` with the one root {@linkcode BUDGET_ROOT} (C12.9). */
  workspacePrompt: string;
  /** The tools array as compact JSON, per wire format (no guidance). */
  wire: Record<WireFormat, string>;
}

/** The token counts of one tool's parts; `total` is their sum. */
export interface ToolPromptCost {
  /** The tool name. */
  tool: string;
  /** The name. */
  name: number;
  /** The description. */
  description: number;
  /** The compact JSON schema. */
  schema: number;
  /** The guidance. */
  guidance: number;
  /** name + description + schema + guidance. */
  total: number;
}

/** The token counts of {@linkcode PromptTexts} with one tokenizer. */
export interface PromptCost {
  /** Per tool. */
  tools: ToolPromptCost[];
  /** The sum of the tools' totals (names, descriptions, schemas, guidance). */
  total: number;
  /** The assembled system prompt, counted as one text. */
  systemPrompt: number;
  /** The system prompt with one root, counted as one text. */
  workspacePrompt: number;
  /**
   * The figure the token budget is about: the tools in the Anthropic wire format plus the system
   * prompt with one root, what a request to a model carries.
   */
  budget: number;
  /** The tools array per wire format, counted as one text. */
  wire: Record<WireFormat, number>;
}

/**
 * The texts a prompt carries for a set of tools.
 *
 * @param definitions The definitions, e.g. `tools.definitions`.
 * @returns Per-tool parts, the assembled system prompt and the tools array per wire format.
 *
 * @example
 * ```ts ignore
 * import { createFsTools, LocalFileSystem } from "../../mod.ts";
 * import { promptTexts } from "./prompt_cost.ts";
 *
 * const tools = createFsTools({ fs: new LocalFileSystem({ roots: ["."] }) });
 * console.log(promptTexts(tools.definitions).wire.anthropic);
 * ```
 */
export function promptTexts(definitions: readonly FsToolDefinition[]): PromptTexts {
  return {
    tools: definitions.map((d) => ({
      name: d.name,
      description: d.description,
      schema: JSON.stringify(d.inputSchema),
      guidance: d.guidance,
    })),
    systemPrompt: systemPrompt(definitions),
    workspacePrompt: systemPrompt(definitions, { roots: [BUDGET_ROOT] }),
    wire: {
      "openai-chat": JSON.stringify(toOpenAITools(definitions)),
      "openai-responses-strict": JSON.stringify(
        toOpenAIResponsesTools(definitions, { strict: true }),
      ),
      "anthropic": JSON.stringify(toAnthropicTools(definitions)),
      "mcp": JSON.stringify(toMcpTools(definitions)),
    },
  };
}

/**
 * Counts {@linkcode promptTexts} with one tokenizer. A tool's cost is its name, description,
 * compact schema and guidance, each counted on its own and summed.
 *
 * @param texts What {@linkcode promptTexts} returned.
 * @param count The tokenizer: the token count of a text.
 * @returns The counts.
 *
 * @example
 * ```ts ignore
 * import { promptCost, promptTexts } from "./prompt_cost.ts";
 *
 * const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
 * console.log(promptCost(promptTexts(definitions), words).total);
 * ```
 */
export function promptCost(texts: PromptTexts, count: (text: string) => number): PromptCost {
  const tools = texts.tools.map((t): ToolPromptCost => {
    const parts = {
      name: count(t.name),
      description: count(t.description),
      schema: count(t.schema),
      guidance: count(t.guidance),
    };
    return {
      tool: t.name,
      ...parts,
      total: parts.name + parts.description + parts.schema + parts.guidance,
    };
  });
  const wire = Object.fromEntries(
    WIRE_FORMATS.map((format) => [format, count(texts.wire[format])]),
  ) as Record<WireFormat, number>;
  const workspacePrompt = count(texts.workspacePrompt);
  return {
    tools,
    total: tools.reduce((n, t) => n + t.total, 0),
    systemPrompt: count(texts.systemPrompt),
    workspacePrompt,
    budget: wire.anthropic + workspacePrompt,
    wire,
  };
}
