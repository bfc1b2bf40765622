/**
 * The `edit` tool, declared once (C4.4): texts, schema, annotations, output schema, ACP.
 *
 * @module
 */

import {
  changing,
  clip,
  inputObject,
  outputObject,
  PATH_ARGUMENT,
  presentFile,
  TEXT,
  type ToolSpec,
} from "./spec.ts";

/** `edit`: replace exact text in a file. */
export const EDIT_SPEC: ToolSpec = {
  description: "Replace exact text in a file.",
  guidance:
    "Use edit, not sed, for targeted changes: old_string must match exactly once (copy it from read output without line numbers) unless replace_all is set. First read its current version: any read window (one line is enough), a grep content view or your own write or edit counts.",
  inputSchema: () =>
    inputObject({
      file_path: { ...PATH_ARGUMENT },
      old_string: { type: "string" },
      new_string: { type: "string" },
      replace_all: { type: "boolean" },
    }, ["file_path", "old_string", "new_string"]),
  annotations: changing({ destructive: true, idempotent: false }),
  outputSchema: outputObject({ path: TEXT, before: TEXT, after: TEXT }, ["path"]),
  present: (a, cwd) =>
    presentFile("Edit", a.file_path, cwd, {
      kind: "edit",
      rawInput: {
        old_string: clip(typeof a.old_string === "string" ? a.old_string : ""),
        new_string: clip(typeof a.new_string === "string" ? a.new_string : ""),
      },
    }),
};
