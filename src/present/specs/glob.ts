/**
 * The `glob` tool, declared once (C10): texts, schema, annotations, output schema, ACP.
 *
 * @module
 */

import {
  COUNT,
  DIRECTORY_ARGUMENT,
  GLOBS,
  inputObject,
  OFFSET,
  outputObject,
  presentSearch,
  READ_ONLY,
  TEXT,
  type ToolSpec,
} from "./spec.ts";

/** The orders `glob` can list files in, the default first. */
export const GLOB_SORTS = Object.freeze(["path", "size", "modified"] as const);

/** `glob`: files by path pattern. */
export const GLOB_SPEC: ToolSpec = {
  description: "Find files by path pattern.",
  guidance:
    "Use glob, not find, to find files by path: *.ts matches at any depth. Hidden and gitignored files are skipped.",
  inputSchema: () =>
    inputObject({
      pattern: { ...GLOBS, description: "e.g. src/**/*.ts or [*.ts, !*.test.ts]" },
      path: { ...DIRECTORY_ARGUMENT },
      sort: { type: "string", enum: [...GLOB_SORTS] },
      offset: { ...OFFSET },
    }, ["pattern"]),
  annotations: READ_ONLY,
  outputSchema: outputObject({
    path: TEXT,
    pattern: { type: ["string", "array"] },
    files: { type: "array", items: TEXT },
    total: COUNT,
  }, ["path", "files", "total"]),
  present: (a, cwd) => presentSearch("Glob", a, cwd),
};
