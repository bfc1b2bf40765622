// The tools' JSON Schemas as Standard JSON Schemas (https://standardschema.dev), the one schema
// shape the AI SDK and LangChain both accept that is plain data (no framework symbol or class).

import type { FsToolDefinition } from "../mod.ts";

/**
 * A tool's JSON Schema as a Standard JSON Schema that accepts any arguments: the framework
 * sends `jsonSchema.input()` to the model and does not validate the arguments first, so the
 * model gets toolfs's messages (which name the argument and suggest a fix).
 */
export interface FsInputSchema {
  /** The Standard Schema properties. */
  readonly "~standard": {
    /** The Standard Schema version. */
    readonly version: 1;
    /** Always `toolfs`. */
    readonly vendor: string;
    /** Accepts any value as it is; toolfs checks the arguments itself. */
    readonly validate: (value: unknown) => { value: Record<string, unknown> };
    /** The tool's JSON Schema (a fresh copy on each call), for input and output alike. */
    readonly jsonSchema: {
      /** The JSON Schema of the arguments. */
      readonly input: (options?: unknown) => Record<string, unknown>;
      /** The same JSON Schema. */
      readonly output: (options?: unknown) => Record<string, unknown>;
    };
  };
}

/** The definition's input schema as an {@linkcode FsInputSchema}. */
export function unvalidated(definition: FsToolDefinition): FsInputSchema {
  const schema = () =>
    structuredClone(definition.inputSchema) as unknown as Record<string, unknown>;
  return {
    "~standard": {
      version: 1,
      vendor: "toolfs",
      validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
      jsonSchema: { input: schema, output: schema },
    },
  };
}
