/**
 * The `write` tool, declared once (C4.3): texts, schema, annotations, output schema, ACP.
 *
 * @module
 */

import {
  given,
  locate,
  PATH_ARGUMENT,
  TEXT,
  titled,
  type ToolSpec,
  withLocations,
} from "./spec.ts";

/** `write`: create a file or replace its whole content. */
export const WRITE_SPEC: ToolSpec = {
  description: "Create a file or replace its whole content.",
  guidance:
    "Use write, not shell redirection, to create a file (parent directories too) or replace all of it. Read an existing file first; prefer edit for partial changes.",
  inputSchema: () => ({
    type: "object",
    properties: { file_path: { ...PATH_ARGUMENT }, content: { type: "string" } },
    required: ["file_path", "content"],
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
      operation: { enum: ["create", "update"] },
      before: { type: ["string", "null"] },
      after: TEXT,
    },
    required: ["path", "operation"],
  },
  present(a, cwd) {
    const filePath = given(a.file_path) ? a.file_path : "";
    return withLocations(
      { title: titled("Write", filePath), kind: "edit" },
      locate(cwd, { path: filePath }),
    );
  },
};
