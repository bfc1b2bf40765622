/**
 * The `grep` tool, declared once (C11): texts, schema, annotations, output schema, ACP, and the
 * output modes and context bound that its `parse` and its schema share.
 *
 * @module
 */

import {
  COUNT,
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

/** The output modes of `grep`, the default first. */
export const GREP_OUTPUT_MODES = Object.freeze(["content", "files_with_matches", "count"] as const);

/** An output mode of `grep`. */
export type GrepOutputMode = typeof GREP_OUTPUT_MODES[number];

/** The most context lines `grep` shows around a match. */
export const GREP_MAX_CONTEXT = 10;

/** `grep`: file contents searched with a regular expression. */
export const GREP_SPEC: ToolSpec = {
  description: "Search file contents with a regular expression (RE2).",
  guidance:
    "Use grep, not shell grep or rg, to find where something is defined or used. Narrow with path or glob; files_with_matches or count for an overview. Gitignored files are skipped, hidden ones unless glob names them (.github/**, .*). Line numbers work as read offsets.",
  inputSchema: () =>
    inputObject({
      pattern: { type: "string" },
      path: { type: "string", description: "File or directory." },
      glob: { ...GLOBS, description: "e.g. [*.ts, !*.test.ts]" },
      ignore_case: { type: "boolean" },
      output_mode: { type: "string", enum: [...GREP_OUTPUT_MODES], default: GREP_OUTPUT_MODES[0] },
      context: { type: "integer", minimum: 0, maximum: GREP_MAX_CONTEXT },
      offset: { ...OFFSET },
      limit: { ...LIMIT },
    }, ["pattern"]),
  annotations: READ_ONLY,
  outputSchema: outputObject({
    path: TEXT,
    pattern: TEXT,
    matches: {
      type: "array",
      items: outputObject({ path: TEXT, line: COUNT, text: TEXT }, ["path", "line", "text"]),
    },
    totalMatches: COUNT,
    totalFiles: COUNT,
  }, ["path", "pattern", "matches", "totalMatches", "totalFiles"]),
  present: (a, cwd) => presentSearch("Grep", a, cwd),
};
