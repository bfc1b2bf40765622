/**
 * The usage text of `toolfs` (the CLI), at most 80 columns a line. Pure: no I/O.
 *
 * @module
 */

import type { FsToolDefinition } from "../types.ts";

/** The width `--help` fits in (issue 34 item 8): every line is at most this many columns. */
export const USAGE_WIDTH = 80;

/** Where a tool's description starts in the usage's tool list. */
const DESCRIPTION_COLUMN = 32;

/** Options of {@linkcode cliUsage}. */
export interface CliUsageOptions {
  /** Tools listed that are offered only when `--tools` names them (marked so). */
  optIn?: readonly string[];
}

/**
 * The usage text of the CLI (printed by `--help` and after a usage error), every line at most
 * {@linkcode USAGE_WIDTH} columns.
 *
 * @param definitions The tools to list, in order.
 * @param options Which of them are offered only on request.
 * @returns The text, without a final line break.
 */
export function cliUsage(
  definitions: readonly FsToolDefinition[],
  options: CliUsageOptions = {},
): string {
  const tools = definitions.map((d) => {
    const props = Object.keys(d.inputSchema.properties).map((p) =>
      d.inputSchema.required.includes(p) ? `<${p}>` : `[${p}]`
    );
    const description = options.optIn?.includes(d.name)
      ? `${d.description} Offered only when --tools names it.`
      : d.description;
    return toolEntry([d.name, ...props], description);
  }).join("\n");
  return `usage: toolfs [--root DIR]... [--read-only DIR]... [--config JSON]
              [--session FILE] [--tools NAMES] [--no-policy] [--json] [--tokens]
              [--] <tool> [JSON | ARG... | --name value...] [--] [ARG...]

Runs one toolfs tool and prints exactly the text the model would see.

tools (positional arguments fill the properties in this order):
${tools}

options (before the tool name):
  -r, --root DIR        a readable and writable root (repeatable); default: the
                        current directory (read-only when Deno cannot write it)
  -R, --read-only DIR   a root that is never written (repeatable)
  -c, --config JSON     caps and switches, e.g. '{"readLimit":200}'
  -s, --session FILE    keep read observations in FILE between runs, so a later
                        write or edit of a file read earlier is allowed
      --tools NAMES     the tools to offer, comma-separated; default: every tool
                        but patch
      --no-policy       writes and edits need no earlier read
  -j, --json            print the whole result (content, isError, value or
                        error) as JSON
  -t, --tokens          print the text's token counts (DeepSeek V3, o200k) on
                        stderr
  -h, --help            this text
  -V, --version         the version

tool arguments: one JSON object ('{"file_path":"a.ts","limit":20}'), '-' to read
that object from stdin, or --name value flags (--replace_all alone means true);
a flag value '-' is read from stdin. After the tool name, -j, -t and -h work as
above, -i sets ignore_case (grep) and -r recursive (delete). After '--' every
argument is a value, even one starting with '-' (e.g. '---' or '-x').

exit status: 0 the tool succeeded; 1 a grep or glob found nothing (as with rg);
2 the tool failed (its Error: text is printed on stdout) or did not run (usage,
options, roots, session file: the reason is on stderr).`;
}

/**
 * One tool of the usage's list: the call's words wrapped at {@linkcode USAGE_WIDTH}, and the
 * description from {@linkcode DESCRIPTION_COLUMN}, beside the call when it fits, else below.
 */
function toolEntry(words: readonly string[], description: string): string {
  const call = wrapWords(words, USAGE_WIDTH - 2, USAGE_WIDTH - 6).map((line, i) =>
    `${i === 0 ? "  " : "      "}${line}`
  );
  const text = wrapWords(description.split(" "), USAGE_WIDTH - DESCRIPTION_COLUMN);
  const indent = " ".repeat(DESCRIPTION_COLUMN);
  const last = call[call.length - 1];
  if (call.length === 1 && last.length < DESCRIPTION_COLUMN - 1) {
    call[0] = `${last.padEnd(DESCRIPTION_COLUMN)}${text.shift()}`;
  }
  return [...call, ...text.map((line) => `${indent}${line}`)].join("\n");
}

/** Words into lines of at most `first` columns, then `rest` (a longer word has its own line). */
function wrapWords(words: readonly string[], first: number, rest = first): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const width = lines.length === 0 ? first : rest;
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}
