/**
 * Text overrides for the tools' definitions: a host ships its own descriptions, guidance and
 * argument descriptions (`createFsTools({ texts })`) without touching schemas or behaviour. The
 * overrides are checked once, at construction, against the specs: an unknown tool, field or
 * argument is an error that names it and what is known.
 *
 * @module
 */

import type { FsToolDefinition, FsToolName } from "../types.ts";
import { isToolName, TOOL_NAMES } from "./specs/mod.ts";

/** Replacement texts for one tool; absent fields keep the library's text. */
export interface FsToolTexts {
  /** The one-line description a model sees (replaces the spec's; must not be empty). */
  description?: string;
  /** The tool's system-prompt section; `""` drops the section. */
  guidance?: string;
  /** Argument descriptions by argument name; `""` removes that argument's description. */
  parameters?: Readonly<Record<string, string>>;
}

/** Text overrides by tool name, as `createFsTools({ texts })` takes them. */
export type FsTextsOverride = Readonly<Partial<Record<FsToolName, FsToolTexts>>>;

const FIELDS: readonly string[] = ["description", "guidance", "parameters"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks text overrides against the tools' argument names.
 *
 * @param texts The overrides (any value: a host may read them from JSON).
 * @param parametersOf The argument names of a tool.
 * @throws {TypeError} For an unknown tool, field or argument, or a value that is not a string.
 */
export function checkTexts(
  texts: unknown,
  parametersOf: (name: FsToolName) => readonly string[],
): asserts texts is FsTextsOverride {
  if (!isObject(texts)) throw new TypeError(`texts must be an object keyed by tool name`);
  for (const [tool, entry] of Object.entries(texts)) {
    if (!isToolName(tool)) {
      throw new TypeError(
        `texts: unknown tool ${JSON.stringify(tool)}; the tools are ${TOOL_NAMES.join(", ")}`,
      );
    }
    if (!isObject(entry)) throw new TypeError(`texts.${tool} must be an object`);
    for (const [field, value] of Object.entries(entry)) {
      if (!FIELDS.includes(field)) {
        throw new TypeError(
          `texts.${tool}: unknown field ${JSON.stringify(field)}; expected ${FIELDS.join(", ")}`,
        );
      }
      if (field === "parameters") continue;
      if (typeof value !== "string" || (field === "description" && value.trim() === "")) {
        throw new TypeError(
          `texts.${tool}.${field} must be a ${field === "description" ? "non-empty " : ""}string`,
        );
      }
    }
    if (entry.parameters === undefined) continue;
    if (!isObject(entry.parameters)) {
      throw new TypeError(`texts.${tool}.parameters must be an object`);
    }
    const known = parametersOf(tool);
    for (const [name, value] of Object.entries(entry.parameters)) {
      if (!known.includes(name)) {
        throw new TypeError(
          `texts.${tool}.parameters: unknown argument ${JSON.stringify(name)} for ${tool}; ` +
            `its arguments are ${known.join(", ")}`,
        );
      }
      if (typeof value !== "string") {
        throw new TypeError(`texts.${tool}.parameters.${name} must be a string`);
      }
    }
  }
}

/**
 * Applies checked text overrides to one definition.
 *
 * @param definition The library's definition (not changed).
 * @param texts The overrides for its tool, if any.
 * @returns The definition with the overrides applied (the same object when there are none).
 */
export function withTexts(
  definition: FsToolDefinition,
  texts: FsToolTexts | undefined,
): FsToolDefinition {
  if (!texts) return definition;
  const properties = { ...definition.inputSchema.properties };
  for (const [name, text] of Object.entries(texts.parameters ?? {})) {
    // Keep the keys' order, so an override changes only the text in the serialized schema.
    const entries = Object.entries(properties[name]).filter(([key]) =>
      key !== "description" || text !== ""
    );
    const at = entries.findIndex(([key]) => key === "description");
    if (text !== "") {
      if (at === -1) entries.push(["description", text]);
      else entries[at] = ["description", text];
    }
    properties[name] = Object.fromEntries(entries);
  }
  return {
    ...definition,
    description: texts.description ?? definition.description,
    inputSchema: { ...definition.inputSchema, properties },
    guidance: texts.guidance ?? definition.guidance,
  };
}
