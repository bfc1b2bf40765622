/**
 * The shared leaf types: operations, directory entries, tool names and schemas, structured
 * values (CONTRACT C6), results and definitions. Types only; every other folder imports them from
 * here, so none of them has to import a sibling for a type.
 *
 * @module
 */

import type { FsErrorCode } from "./fs_error.ts";

/** The tool operations, as they appear in messages. */
export type FsOp = FsToolName;

/** A root a path was found inside, as a provider reports its roots (`fs.roots`). */
export interface FsRootInfo {
  /** The root's real path. */
  path: string;
  /** Whether the root allows `write` and `edit`. */
  writable: boolean;
}

/** A root with its access decided: from a command line, or in force for an MCP session. */
export interface RootAccess {
  /** The directory. */
  path: string;
  /** Whether the tools may write under it (`false` for `--read-only`). */
  write: boolean;
}

/** The type of one directory entry as `list` reports it (a symlink is `other`). */
export type FsEntryType = "file" | "directory" | "other";

/** One directory entry. */
export interface FsDirEntry {
  /** The entry's name. */
  name: string;
  /** Its own type; a symlink is never followed. */
  type: FsEntryType;
}

/** Counts of a complete directory. */
export interface ListTotals {
  /** All entries. */
  entries: number;
  /** Directories. */
  directories: number;
  /** Regular files. */
  files: number;
  /** Everything else (symlinks, FIFOs, sockets, devices). */
  other: number;
}

/** One rendered line. */
export interface ReadLine {
  /** The 1-based line number. */
  number: number;
  /** The text as rendered, truncation marker included. */
  text: string;
}

/**
 * The name of one of the tools (C9.1: glob and grep after edit; C15.1: move, delete and patch
 * after them, opt-in).
 */
export type FsToolName =
  | "list"
  | "read"
  | "write"
  | "edit"
  | "glob"
  | "grep"
  | "move"
  | "delete"
  | "patch";

/** A JSON Schema object for a tool's input. */
export interface ToolInputSchema {
  /** Always `object`. */
  type: "object";
  /** The arguments, snake_case. */
  properties: Record<string, Record<string, unknown>>;
  /** The required arguments. */
  required: string[];
  /** Always `false`. */
  additionalProperties: false;
}

/** A tool definition for a model (C1.3). */
export interface FsToolDefinition {
  /** The tool name. */
  name: FsToolName;
  /** One line for the model. */
  description: string;
  /** JSON Schema of the arguments. */
  inputSchema: ToolInputSchema;
  /** The tool's system-prompt section. */
  guidance: string;
}

/** The structured value of a `list` (C6). */
export interface ListValue {
  /** The directory's absolute lexical path. */
  path: string;
  /** The rendered entries, in order. */
  entries: FsDirEntry[];
  /** Counts of the complete directory. */
  total: ListTotals;
}

/** The structured value of a `read` (C6). */
export interface ReadValue {
  /** The file's absolute lexical path. */
  path: string;
  /** The first line of the window. */
  offset: number;
  /** The rendered lines. */
  lines: ReadLine[];
  /** The file's total lines; absent when the byte cap ended the window early. */
  totalLines?: number;
  /** For an image (C17.1): what its header says; `lines` is then empty. */
  image?: ReadImageInfo;
  /** For a PDF (C17.2): its page count; `lines` are the extracted lines, page markers included. */
  document?: { pages: number };
}

/** What a `read` of an image reports in its value (C17.1). */
export interface ReadImageInfo {
  /** The MIME type from the file's signature. */
  mimeType: string;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** The file's size in bytes. */
  size: number;
}

/** The structured value of a `write` (C6). */
export interface WriteValue {
  /** The file's absolute lexical path. */
  path: string;
  /** Whether the file was created or replaced. */
  operation: "create" | "update";
  /** The old text without a BOM; `null` for a new file. */
  before: string | null;
  /** The new text without a BOM. */
  after: string;
}

/** The structured value of an `edit` (C6). */
export interface EditValue {
  /** The file's absolute lexical path. */
  path: string;
  /** The text before, without a BOM. */
  before: string;
  /** The text after, without a BOM. */
  after: string;
}

/** The structured value of a `glob` (C10). */
export interface GlobValue {
  /** The search directory's absolute lexical path. */
  path: string;
  /** The pattern as given: one glob or several (C9.3). */
  pattern: string | string[];
  /** The rendered files, absolute paths. */
  files: string[];
  /** How many files match in all. */
  total: number;
}

/** The structured value of a `grep` (C11). */
export interface GrepValue {
  /** The search path's absolute lexical path. */
  path: string;
  /** The pattern. */
  pattern: string;
  /** The rendered matching lines (one entry per rendered file in the files and count modes). */
  matches: { path: string; line: number; text: string }[];
  /** Matching lines in all. */
  totalMatches: number;
  /** Files with a match in all. */
  totalFiles: number;
}

/** The structured value of a `move` (C15.2). */
export interface MoveValue {
  /** The source's absolute lexical path. */
  from: string;
  /** The destination's absolute lexical path. */
  to: string;
  /** What was moved (a symbolic link is `other`). */
  type: FsEntryType;
}

/** The structured value of a `delete` (C15.3). */
export interface DeleteValue {
  /** The absolute lexical path. */
  path: string;
  /** What was deleted (a symbolic link is `other`). */
  type: FsEntryType;
  /** Files removed (symbolic links and other entries count as files). */
  files: number;
  /** Directories removed, the named one included. */
  directories: number;
}

/** One operation a `patch` applied (C16). */
export interface PatchOperationValue {
  /** `add`, `update` (a move is an update with `movedTo`) or `delete`. */
  kind: "add" | "update" | "delete";
  /** The file's absolute lexical path. */
  path: string;
  /** Where an update moved the file, absolute and lexical. */
  movedTo?: string;
}

/** The structured value of a `patch` (C16): its operations in patch order. */
export interface PatchValue {
  /** What each operation did. */
  operations: PatchOperationValue[];
}

/** Any tool's structured value. */
export type FsToolValue =
  | ListValue
  | ReadValue
  | WriteValue
  | EditValue
  | GlobValue
  | GrepValue
  | MoveValue
  | DeleteValue
  | PatchValue;

/** An image a `read` result carries besides its text (C17.1). */
export interface FsImageAttachment {
  /** Always `image`. */
  type: "image";
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`, from the file's signature. */
  mimeType: string;
  /** The file's bytes, base64. */
  data: string;
}

/** Anything a result carries besides its text; every surface sends it after the text (C17.3). */
export type FsAttachment = FsImageAttachment;

/** What `execute` resolves to. Never a thrown error for a tool-level failure. */
export interface FsToolResult<V = FsToolValue> {
  /** The exact model-facing text. */
  content: string;
  /**
   * Media for the model besides the text: present only on a successful `read` of an image
   * (C17.1), whose `content` is then a short envelope naming the type, dimensions and size.
   */
  attachments?: FsAttachment[];
  /** Whether the call failed. */
  isError: boolean;
  /** The structured value, on success. */
  value?: V;
  /** The error, on failure. */
  error?: { name: "FsError"; code: FsErrorCode };
}

/** Options every provider call takes. */
export interface FsCallOptions {
  /** Cancels the call; the provider throws `FsError("FS_ABORTED")` promptly. */
  signal?: AbortSignal;
}

/** A path checked against the roots. */
export interface FsTarget {
  /** The absolute lexical path (symlinks not followed), as the tools display it. */
  path: string;
  /**
   * The real path: symlinks resolved; for a path that does not exist yet, the real path of its
   * nearest existing ancestor joined with the rest.
   */
  realPath: string;
  /** The most specific root containing `realPath`. */
  root: FsRootInfo;
}
