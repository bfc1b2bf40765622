/**
 * The `edit` tool, declared once (C4.4): texts, schema, annotations, output schema, ACP.
 *
 * @module
 */

import {
  clip,
  given,
  locate,
  PATH_ARGUMENT,
  TEXT,
  titled,
  type ToolSpec,
  withLocations,
} from "./spec.ts";

/** `edit`: replace exact text in a file. */
export const EDIT_SPEC: ToolSpec = {
  description: "Replace exact text in a file.",
  guidance:
    "Use edit, not sed, for targeted changes: old_string must match exactly once (copy it from read output, without the line-number prefix) unless replace_all is set. First read its current version: any read window (one line is enough), a grep content view or your own write or edit counts.",
  inputSchema: () => ({
    type: "object",
    properties: {
      file_path: { ...PATH_ARGUMENT },
      old_string: { type: "string", description: "Exact text to replace." },
      new_string: { type: "string" },
      replace_all: { type: "boolean", description: "Replace every match.", default: false },
    },
    required: ["file_path", "old_string", "new_string"],
    additionalProperties: false,
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  outputSchema: {
    type: "object",
    properties: { path: TEXT, before: TEXT, after: TEXT },
    required: ["path"],
  },
  present(a, cwd) {
    const filePath = given(a.file_path) ? a.file_path : "";
    return withLocations({
      title: titled("Edit", filePath),
      kind: "edit",
      rawInput: {
        old_string: clip(typeof a.old_string === "string" ? a.old_string : ""),
        new_string: clip(typeof a.new_string === "string" ? a.new_string : ""),
      },
    }, locate(cwd, { path: filePath }));
  },
};
