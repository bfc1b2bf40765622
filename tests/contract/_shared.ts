// Helpers shared by more than one contract test file.

import { encoder } from "../_helpers.ts";

export const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

/** The keys of `args` that `op`'s schema has: C12.1 refuses any other. */
export function argsOf(op: string, args: Record<string, unknown>): Record<string, unknown> {
  const keys: Record<string, string[]> = {
    read: ["file_path", "offset", "limit"],
    write: ["file_path", "content"],
    edit: ["file_path", "old_string", "new_string", "replace_all"],
  };
  return Object.fromEntries(Object.entries(args).filter(([key]) => keys[op].includes(key)));
}

export function concat(...parts: (Uint8Array | string)[]): Uint8Array {
  const chunks = parts.map((part) => typeof part === "string" ? encoder.encode(part) : part);
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

export const FILE_PATH = { type: "string", description: "Absolute or workspace-relative." };

/**
 * A glob argument (C9.3): a string or a list of strings, as `anyOf` branches of one `type` each
 * (issue 34 item 4: a `type` array is less portable).
 */
export const GLOBS = {
  anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
};

export const SCHEMAS = {
  list: {
    type: "object",
    properties: { path: { type: "string", description: "Directory; default: workspace." } },
    required: [],
    additionalProperties: false,
  },
  read: {
    type: "object",
    properties: {
      file_path: FILE_PATH,
      offset: { type: "integer", minimum: 1, description: "First line, 1-based." },
      limit: { type: "integer", minimum: 1, maximum: 2000, default: 2000 },
    },
    required: ["file_path"],
    additionalProperties: false,
  },
  write: {
    type: "object",
    properties: { file_path: FILE_PATH, content: { type: "string" } },
    required: ["file_path", "content"],
    additionalProperties: false,
  },
  edit: {
    type: "object",
    properties: {
      file_path: FILE_PATH,
      old_string: { type: "string" },
      new_string: { type: "string" },
      replace_all: { type: "boolean" },
    },
    required: ["file_path", "old_string", "new_string"],
    additionalProperties: false,
  },
  glob: {
    type: "object",
    properties: {
      pattern: { ...GLOBS, description: "e.g. [*.ts, !*.test.ts]" },
      path: { type: "string", description: "Directory; default: workspace." },
      sort: { type: "string", enum: ["path", "size", "modified"] },
      offset: { type: "integer", minimum: 1 },
      limit: { type: "integer", minimum: 1 },
    },
    required: ["pattern"],
    additionalProperties: false,
  },
  grep: {
    type: "object",
    properties: {
      pattern: { type: "string" },
      path: { type: "string", description: "File or directory." },
      glob: { ...GLOBS, description: "e.g. [*.ts, !*.test.ts]" },
      ignore_case: { type: "boolean" },
      output_mode: {
        type: "string",
        enum: ["content", "files_with_matches", "count"],
        default: "content",
      },
      context: { type: "integer", minimum: 0, maximum: 10 },
      offset: { type: "integer", minimum: 1 },
      limit: { type: "integer", minimum: 1 },
    },
    required: ["pattern"],
    additionalProperties: false,
  },
};

export const DESCRIPTIONS = {
  list: "List a directory's files and subdirectories.",
  read: "Read a text file as numbered lines.",
  write: "Create a file or replace its whole content.",
  edit: "Replace exact text in a file.",
  glob: "Find files by path pattern.",
  grep: "Search file contents with a regular expression (RE2).",
};

export const NAMES = ["list", "read", "write", "edit", "glob", "grep"] as const;
