/**
 * The tools' definitions from their specs: the selection, the caps and a host's own texts
 * (C1.3, C9.1). Shared by `createFsTools` and the surfaces that list tools without a provider.
 *
 * @module
 */

import { type FsToolsConfig, resolveConfig } from "../config.ts";
import { DEFAULT_TOOLS, SPECS, TOOL_NAMES } from "./specs/mod.ts";
import { checkTexts, type FsTextsOverride, withTexts } from "./texts.ts";
import type { FsToolDefinition, FsToolName } from "../types.ts";

/** Options of {@linkcode toolDefinitions}: as `createFsTools` takes them. */
export interface ToolDefinitionsOptions {
  /** Partial overrides of the caps (C2). */
  config?: Partial<FsToolsConfig>;
  /**
   * The tools to expose, in any order (they come out in the canonical order).
   * @default {the six tools of C9.1}
   */
  tools?: readonly FsToolName[];
  /** A host's own descriptions, guidance and argument descriptions. */
  texts?: FsTextsOverride;
}

/**
 * The tools' definitions alone: what `createFsTools(options).definitions` gives for the same
 * caps and selection, without a provider (for a usage text, a server's tool list, a token count).
 *
 * @param options The caps and the selection.
 * @returns The definitions.
 * @throws {TypeError} For an unknown tool or an invalid config value.
 */
export function toolDefinitions(
  options: ToolDefinitionsOptions = {},
): readonly FsToolDefinition[] {
  return definitionsOf(selectTools(options.tools), resolveConfig(options.config), options.texts);
}

/** The definitions of `names`, in that order, with `texts` applied (checked first). */
export function definitionsOf(
  names: readonly FsToolName[],
  config: Readonly<FsToolsConfig>,
  texts: FsTextsOverride | undefined,
): readonly FsToolDefinition[] {
  if (texts !== undefined && texts !== null) {
    checkTexts(texts, (name) => Object.keys(SPECS[name].inputSchema(config).properties));
  }
  return Object.freeze(names.map((name) =>
    Object.freeze(withTexts({
      name,
      description: SPECS[name].description,
      inputSchema: SPECS[name].inputSchema(config),
      guidance: SPECS[name].guidance,
    }, texts?.[name]))
  ));
}

/** The tools to expose, in the canonical order (C9.1); the default set when not given. */
export function selectTools(tools: readonly FsToolName[] | undefined): readonly FsToolName[] {
  if (tools === undefined || tools === null) return DEFAULT_TOOLS;
  if (!Array.isArray(tools)) throw new TypeError("tools must be an array of tool names");
  for (const name of tools) {
    if (!(TOOL_NAMES as readonly unknown[]).includes(name)) {
      throw new TypeError(
        `unknown tool ${JSON.stringify(name)} in tools: expected some of ${TOOL_NAMES.join(", ")}`,
      );
    }
  }
  return TOOL_NAMES.filter((name) => tools.includes(name));
}
