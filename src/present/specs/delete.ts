/**
 * The `delete` tool, declared once (C15.3): texts, schema, annotations, output schema, ACP.
 *
 * @module
 */

import {
  changing,
  COUNT,
  inputObject,
  outputObject,
  PATH_ARGUMENT,
  presentFile,
  TEXT,
  type ToolSpec,
} from "./spec.ts";

/** `delete`: a file, a link, an empty directory, or a tree with `recursive`. */
export const DELETE_SPEC: ToolSpec = {
  description: "Delete a file, or a directory with recursive.",
  guidance:
    "Use delete, not rm. Read a file before deleting it (a grep content view counts); a non-empty directory needs recursive: true, and every file in it read first. Deleting cannot be undone.",
  inputSchema: () =>
    inputObject({
      path: { ...PATH_ARGUMENT },
      recursive: { type: "boolean", description: "Delete a non-empty directory.", default: false },
    }, ["path"]),
  annotations: changing({ destructive: true, idempotent: true }),
  outputSchema: outputObject({
    path: TEXT,
    type: { enum: ["file", "directory", "other"] },
    files: COUNT,
    directories: COUNT,
  }, ["path", "type", "files", "directories"]),
  present: (a, cwd) =>
    presentFile(
      "Delete",
      a.path,
      cwd,
      a.recursive === true ? { kind: "delete", rawInput: { recursive: true } } : { kind: "delete" },
    ),
};
