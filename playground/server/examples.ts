/**
 * The arguments the call form starts with, per tool, naming entries that exist in the workspace
 * (issue 34 item 9): the fixture paths for the fixture workspace; for `--root`, a text file found
 * there, and for the tools that change files, a new note of the playground's own (so an example
 * `move` or `delete` never touches the user's files).
 *
 * @module
 */

import { extname, join } from "node:path";
import { FIXTURE_EXAMPLES } from "./fixture_examples.ts";
import type { PlaygroundWorkspace } from "./workspace.ts";

/** Example arguments per tool name. */
export type ToolExamples = Record<string, Record<string, unknown>>;

export { FIXTURE_EXAMPLES };

/** Extensions of files worth showing first in a `read` example. */
const TEXT_EXTENSIONS = new Set([
  ".md",
  ".txt",
  ".ts",
  ".tsx",
  ".js",
  ".mjs",
  ".json",
  ".py",
  ".rs",
  ".go",
  ".toml",
  ".yaml",
  ".yml",
  ".css",
  ".html",
  ".sh",
]);
/** Directories never walked for an example. */
const SKIPPED = new Set(["node_modules", "target", "dist", "build", "vendor"]);
/** Entries looked at, at most: the lookup stays quick in a large tree. */
const MAX_ENTRIES = 2000;
/** Files larger than this are not used for the `edit` example's first line. */
const MAX_SAMPLE_BYTES = 256 * 1024;

/**
 * The examples for a workspace: {@linkcode FIXTURE_EXAMPLES} for the fixtures, else paths that
 * exist in the directory (or, for the tools that create files, that do not yet).
 *
 * @param workspace The workspace.
 * @returns The examples per tool.
 */
export async function workspaceExamples(workspace: PlaygroundWorkspace): Promise<ToolExamples> {
  if (workspace.kind === "fixtures") return FIXTURE_EXAMPLES;
  const root = workspace.root;
  const sample = await findTextFile(root);
  const note = await freshName(root, "toolfs-playground-note", ".md");
  const moved = await freshName(root, "toolfs-playground-note-moved", ".md");
  const patched = await freshName(root, "toolfs-playground-patch", ".md");
  const examples: ToolExamples = {
    list: {},
    write: { file_path: note, content: "# A note\n\nWritten from the toolfs playground.\n" },
    glob: { pattern: sample ? `**/*${extname(sample) || "*"}` : "**/*" },
    grep: { pattern: "TODO" },
    move: { source_path: note, destination_path: moved },
    delete: { path: note },
    patch: {
      patch: `*** Begin Patch\n*** Add File: ${patched}\n+Added by a patch.\n*** End Patch`,
    },
  };
  if (sample) {
    examples.read = { file_path: sample };
    const line = await firstLine(join(root, sample));
    examples.edit = line
      ? { file_path: sample, old_string: line, new_string: `${line} (edited)` }
      : { file_path: sample, old_string: "", new_string: "" };
  } else {
    examples.read = { file_path: note };
    examples.edit = { file_path: note, old_string: "A note", new_string: "An edited note" };
  }
  return examples;
}

/**
 * A text file in the directory, workspace-relative: `README.md` when there is one, else the
 * first file with a text extension, breadth first (hidden and build directories skipped).
 */
async function findTextFile(root: string): Promise<string | undefined> {
  let seen = 0;
  let fallback: string | undefined;
  const queue: string[] = [""];
  while (queue.length && seen < MAX_ENTRIES) {
    const dir = queue.shift()!;
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(join(root, dir)));
    } catch {
      continue;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) break;
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.name.startsWith(".")) continue;
      if (entry.isDirectory) {
        if (!SKIPPED.has(entry.name)) queue.push(path);
      } else if (entry.isFile) {
        if (/^readme\.md$/i.test(entry.name) && dir === "") return path;
        if (TEXT_EXTENSIONS.has(extname(entry.name).toLowerCase())) fallback ??= path;
      }
    }
    if (fallback) break; // the shallowest directory that has one
  }
  return fallback;
}

/** The file's first non-blank line, trimmed of its line break, if it is small and text. */
async function firstLine(path: string): Promise<string | undefined> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > MAX_SAMPLE_BYTES) return undefined;
    const text = new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(path));
    return text.split(/\r?\n/).find((line) => line.trim() !== "")?.slice(0, 200);
  } catch {
    return undefined;
  }
}

/** `<stem><ext>`, or `<stem>-2<ext>`, … : a name that does not exist in the directory yet. */
async function freshName(root: string, stem: string, ext: string): Promise<string> {
  for (let i = 1;; i++) {
    const name = i === 1 ? `${stem}${ext}` : `${stem}-${i}${ext}`;
    try {
      await Deno.lstat(join(root, name));
    } catch {
      return name;
    }
  }
}
