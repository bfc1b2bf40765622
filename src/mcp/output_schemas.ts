/**
 * MCP `outputSchema`s for the structured values (C6), sent only with `--structured` (C13.1):
 * each tool's comes from its spec (`src/present/specs/<tool>.ts`). Loose on purpose: a large
 * write or edit leaves `before`/`after` out (`toMcpCallResult`), and a tool toolfs does not
 * know gets a plain object schema.
 *
 * @module
 */

import { isToolName, type OutputSchema, SPECS } from "../present/specs/mod.ts";

export type { OutputSchema } from "../present/specs/mod.ts";

/**
 * The output schema of a tool's structured value.
 *
 * @param name The tool's name.
 * @returns A JSON Schema object.
 */
export function outputSchemaFor(name: string): OutputSchema {
  return structuredClone(isToolName(name) ? SPECS[name].outputSchema : { type: "object" });
}
