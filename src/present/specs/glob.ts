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
  LIMIT,
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
    "Use glob, not find: *.ts matches at any depth. Gitignored files are skipped, hidden ones unless the pattern names them (.github/**, .*).",
  inputSchema: () =>
    inputObject({
      pattern: { ...GLOBS, description: "e.g. [*.ts, !*.test.ts]" },
      path: { ...DIRECTORY_ARGUMENT },
      sort: { type: "string", enum: [...GLOB_SORTS] },
      offset: { ...OFFSET },
      limit: { ...LIMIT },
    }, ["pattern"]),
  annotations: READ_ONLY,
  outputSchema: outputObject({
    path: TEXT,
    pattern: GLOBS,
    files: { type: "array", items: TEXT },
    total: COUNT,
  }, ["path", "files", "total"]),
  present: (a, cwd) => presentSearch("Glob", a, cwd),
};
