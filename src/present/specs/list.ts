/**
 * The `list` tool, declared once (C4.1): texts, schema, annotations, output schema, ACP.
 *
 * @module
 */

import {
  COUNT,
  DIRECTORY_ARGUMENT,
  given,
  inputObject,
  locate,
  outputObject,
  READ_ONLY,
  TEXT,
  type ToolSpec,
  withLocations,
} from "./spec.ts";

/** `list`: the files and subdirectories of a directory. */
export const LIST_SPEC: ToolSpec = {
  description: "List a directory's files and subdirectories.",
  guidance:
    "Use list, not ls, to see what a directory holds; glob or grep once you know the path pattern or the text. Make independent calls in parallel.",
  inputSchema: () => inputObject({ path: { ...DIRECTORY_ARGUMENT } }, []),
  annotations: READ_ONLY,
  outputSchema: outputObject({
    path: TEXT,
    entries: {
      type: "array",
      items: outputObject({ name: TEXT, type: { enum: ["file", "directory", "other"] } }, [
        "name",
        "type",
      ]),
    },
    total: {
      type: "object",
      properties: { entries: COUNT, directories: COUNT, files: COUNT, other: COUNT },
    },
  }, ["path", "entries"]),
  present(a, cwd) {
    const path = given(a.path) ? a.path : ".";
    return withLocations({ title: `List ${path}`, kind: "search" }, locate(cwd, { path }));
  },
};
