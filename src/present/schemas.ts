/**
 * The tools' JSON Schemas and descriptions (CONTRACT C1.3). Model-facing: every word costs
 * tokens on every request, so each one earns its place.
 *
 * @module
 */

import type { FsToolName, ToolInputSchema } from "../types.ts";

/** The tool names in definition order (C9.1). */
export const TOOL_NAMES: readonly FsToolName[] = Object.freeze([
  "list",
  "read",
  "write",
  "edit",
  "glob",
  "grep",
]);

/** One-line descriptions, per tool. */
export const DESCRIPTIONS: Readonly<Record<FsToolName, string>> = Object.freeze({
  list: "List the files and subdirectories of a directory.",
  read: "Read a text file as numbered lines.",
  write: "Create a file or replace its whole content.",
  edit: "Replace exact text in a file.",
  glob: "Find files by path pattern.",
  grep: "Search file contents with a regular expression (RE2).",
});

/**
 * The input schema of a tool.
 *
 * @param name The tool.
 * @param readLimit The configured `readLimit`, advertised as `read.limit`'s default and maximum.
 * @returns A fresh schema object.
 */
export function inputSchema(name: FsToolName, readLimit: number): ToolInputSchema {
  const path = { type: "string", description: "Absolute or workspace-relative." };
  switch (name) {
    case "list":
      return {
        type: "object",
        properties: { path: { type: "string", description: "Directory; default: workspace." } },
        required: [],
        additionalProperties: false,
      };
    case "read":
      return {
        type: "object",
        properties: {
          file_path: path,
          offset: { type: "integer", minimum: 1, description: "First line, 1-based." },
          limit: { type: "integer", minimum: 1, maximum: readLimit, default: readLimit },
        },
        required: ["file_path"],
        additionalProperties: false,
      };
    case "write":
      return {
        type: "object",
        properties: { file_path: path, content: { type: "string" } },
        required: ["file_path", "content"],
        additionalProperties: false,
      };
    case "edit":
      return {
        type: "object",
        properties: {
          file_path: path,
          old_string: { type: "string", description: "Exact text to replace." },
          new_string: { type: "string" },
          replace_all: { type: "boolean", description: "Replace every match.", default: false },
        },
        required: ["file_path", "old_string", "new_string"],
        additionalProperties: false,
      };
    case "glob":
      return {
        type: "object",
        properties: {
          pattern: { type: "string", description: 'e.g. "src/**/*.ts"' },
          path: { type: "string", description: "Directory; default: workspace." },
        },
        required: ["pattern"],
        additionalProperties: false,
      };
    case "grep":
      return {
        type: "object",
        properties: {
          pattern: { type: "string" },
          path: { type: "string", description: "File or directory; default: workspace." },
          glob: { type: "string", description: 'File filter, e.g. "*.ts"' },
          ignore_case: { type: "boolean", default: false },
          output_mode: {
            type: "string",
            enum: ["content", "files_with_matches", "count"],
            default: "content",
          },
          context: { type: "integer", minimum: 0, maximum: 10, default: 0 },
        },
        required: ["pattern"],
        additionalProperties: false,
      };
  }
}
