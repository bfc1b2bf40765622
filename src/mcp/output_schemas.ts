/**
 * MCP `outputSchema`s for the structured values (C6), sent only with `--structured` (C13.1).
 * Loose on purpose: a large write or edit leaves `before`/`after` out (`toMcpCallResult`), and a
 * tool this file does not know gets a plain object schema.
 *
 * @module
 */

/** A JSON Schema object, as MCP `outputSchema` takes it. */
export type OutputSchema = { type: "object" } & Record<string, unknown>;

const TEXT = { type: "string" };
const COUNT = { type: "integer", minimum: 0 };

const SCHEMAS: Record<string, OutputSchema> = {
  list: {
    type: "object",
    properties: {
      path: TEXT,
      entries: {
        type: "array",
        items: {
          type: "object",
          properties: { name: TEXT, type: { enum: ["file", "directory", "other"] } },
          required: ["name", "type"],
        },
      },
      total: {
        type: "object",
        properties: { entries: COUNT, directories: COUNT, files: COUNT, other: COUNT },
      },
    },
    required: ["path", "entries"],
  },
  read: {
    type: "object",
    properties: {
      path: TEXT,
      offset: { type: "integer", minimum: 1 },
      lines: {
        type: "array",
        items: {
          type: "object",
          properties: { number: { type: "integer", minimum: 1 }, text: TEXT },
          required: ["number", "text"],
        },
      },
      totalLines: COUNT,
      image: {
        type: "object",
        properties: { mimeType: TEXT, width: COUNT, height: COUNT, size: COUNT },
      },
      document: { type: "object", properties: { pages: COUNT } },
    },
    required: ["path", "offset", "lines"],
  },
  write: {
    type: "object",
    properties: {
      path: TEXT,
      operation: { enum: ["create", "update"] },
      before: { type: ["string", "null"] },
      after: TEXT,
    },
    required: ["path", "operation"],
  },
  edit: {
    type: "object",
    properties: { path: TEXT, before: TEXT, after: TEXT },
    required: ["path"],
  },
};

/**
 * The output schema of a tool's structured value.
 *
 * @param name The tool's name.
 * @returns A JSON Schema object.
 */
export function outputSchemaFor(name: string): OutputSchema {
  return structuredClone(SCHEMAS[name] ?? { type: "object" });
}
