/**
 * The `write` tool, declared once (C4.3): texts, schema, annotations, output schema, ACP.
 *
 * @module
 */

import {
  changing,
  inputObject,
  outputObject,
  PATH_ARGUMENT,
  presentFile,
  TEXT,
  type ToolSpec,
} from "./spec.ts";

/** `write`: create a file or replace its whole content. */
export const WRITE_SPEC: ToolSpec = {
  description: "Create a file or replace its whole content.",
  guidance:
    "Use write, not shell redirection, to create a file (parent directories too) or replace all of it. Read an existing file first; prefer edit for partial changes.",
  inputSchema: () =>
    inputObject({ file_path: { ...PATH_ARGUMENT }, content: { type: "string" } }, [
      "file_path",
      "content",
    ]),
  annotations: changing({ destructive: true, idempotent: true }),
  outputSchema: outputObject({
    path: TEXT,
    operation: { enum: ["create", "update"] },
    before: { anyOf: [TEXT, { type: "null" }] },
    after: TEXT,
  }, ["path", "operation"]),
  present: (a, cwd) => presentFile("Write", a.file_path, cwd, { kind: "edit" }),
};
