/**
 * The `read` tool, declared once (C4.2): texts, schema, annotations, output schema, ACP.
 *
 * @module
 */

import {
  COUNT,
  given,
  inputObject,
  locate,
  outputObject,
  PATH_ARGUMENT,
  READ_ONLY,
  TEXT,
  titled,
  type ToolSpec,
  withLocations,
} from "./spec.ts";

/** `read`: a text file as numbered lines. */
export const READ_SPEC: ToolSpec = {
  description: "Read a text file as numbered lines.",
  guidance:
    "Use read, not cat, head or tail. Lines come numbered; continue with the offset the footer gives, or use offset and limit to jump within a large file.",
  inputSchema: (config) =>
    inputObject({
      file_path: { ...PATH_ARGUMENT },
      offset: { type: "integer", minimum: 1, description: "First line, 1-based." },
      limit: { type: "integer", minimum: 1, maximum: config.readLimit, default: config.readLimit },
    }, ["file_path"]),
  annotations: READ_ONLY,
  outputSchema: outputObject({
    path: TEXT,
    offset: { type: "integer", minimum: 1 },
    lines: {
      type: "array",
      items: outputObject({ number: { type: "integer", minimum: 1 }, text: TEXT }, [
        "number",
        "text",
      ]),
    },
    totalLines: COUNT,
    image: {
      type: "object",
      properties: { mimeType: TEXT, width: COUNT, height: COUNT, size: COUNT },
    },
    document: { type: "object", properties: { pages: COUNT } },
  }, ["path", "offset", "lines"]),
  present(a, cwd) {
    const filePath = given(a.file_path) ? a.file_path : "";
    const rawInput: Record<string, unknown> = {};
    if (a.offset !== undefined && a.offset !== null) rawInput.offset = a.offset;
    if (a.limit !== undefined && a.limit !== null) rawInput.limit = a.limit;
    const line = Number.isSafeInteger(a.offset) && (a.offset as number) >= 1
      ? a.offset as number
      : 1;
    return withLocations(
      { title: titled("Read", filePath), kind: "read", rawInput },
      locate(cwd, { path: filePath, line }),
    );
  },
};
