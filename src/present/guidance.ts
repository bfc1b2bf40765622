/**
 * The system-prompt sections of the tools. Model-facing and fixed for a config, so a prompt
 * built from them is byte-stable (cache-friendly).
 *
 * @module
 */

import type { FsToolName } from "../types.ts";

/** The guidance section of each tool. */
export const GUIDANCE: Readonly<Record<FsToolName, string>> = Object.freeze({
  list:
    "Use list, not ls, to see what a directory holds. The footer counts every entry, even when the view is capped. Use glob or grep once you know the path pattern or the text.",
  read:
    "Use read, not cat, head or tail, for text files. Lines come numbered; when the footer says more remain, continue with the offset it gives, or use offset and limit to jump within a large file.",
  write:
    "Use write, not shell redirection, to create a file (parent directories too) or replace all of it. Read an existing file first; prefer edit for partial changes.",
  edit:
    "Use edit, not sed, for targeted changes: old_string must match exactly once (copy it from read output, without the line-number prefix) unless replace_all is set. Read the file first; your own writes and edits count as reads.",
  glob:
    "Use glob, not find, to find files by path: *.ts matches at any depth. Hidden and gitignored files are skipped.",
  grep:
    "Use grep, not shell grep or rg, to find where something is defined or used. Narrow with path or glob; files_with_matches or count for an overview. Line numbers work as read offsets.",
});
