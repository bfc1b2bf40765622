/**
 * The `delete` tool, declared once (C15.3): texts, schema, annotations, output schema, ACP.
 *
 * @module
 */

import {
  COUNT,
  given,
  locate,
  PATH_ARGUMENT,
  TEXT,
  titled,
  type ToolSpec,
  withLocations,
} from "./spec.ts";

/** `delete`: a file, a link, an empty directory, or a tree with `recursive`. */
export const DELETE_SPEC: ToolSpec = {
  description: "Delete a file, or a directory with recursive.",
  guidance:
    "Use delete, not rm. Read a file before deleting it; a non-empty directory needs recursive: true, and every file in it read first. Deleting cannot be undone.",
  inputSchema: () => ({
    type: "object",
    properties: {
      path: { ...PATH_ARGUMENT },
      recursive: { type: "boolean", description: "Delete a non-empty directory.", default: false },
    },
    required: ["path"],
    additionalProperties: false,
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      path: TEXT,
      type: { enum: ["file", "directory", "other"] },
      files: COUNT,
      directories: COUNT,
    },
    required: ["path", "type", "files", "directories"],
  },
  present(a, cwd) {
    const path = given(a.path) ? a.path : "";
    const rawInput = a.recursive === true ? { recursive: true } : undefined;
    return withLocations(
      { title: titled("Delete", path), kind: "delete", ...(rawInput ? { rawInput } : {}) },
      locate(cwd, { path }),
    );
  },
};
