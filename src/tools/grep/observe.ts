// C9.6: a grep `content` view is a read observation of each file whose lines it renders.
// Used only by grep (src/tools/grep/).
//
// The search reads files through the provider's fast path, which carries no version, so each
// rendered file is read once more, through the provider's versioned read, right after the
// search: the observation is recorded at that version only when every line the view rendered
// is, at that version, exactly what the search saw. A change before that read that touches a
// rendered line records nothing (the session must read the file); a change after it makes the
// observation stale, as for `read`.

import type { FsTarget } from "../../provider/fs_provider.ts";
import { bytesToText, type ToolEnv } from "../_context.ts";

/** A file the view rendered lines of, with those lines (1-based number, text as searched). */
export interface RenderedFile {
  /** The file. */
  target: FsTarget;
  /** The rendered lines. */
  lines: readonly { number: number; text: string }[];
}

/** Records a read observation of each file, at a version whose lines are those rendered. */
export async function observeRendered(env: ToolEnv, files: readonly RenderedFile[]): Promise<void> {
  for (const file of files) {
    env.signal?.throwIfAborted();
    const seen = await currentLines(env, file.target, file.lines).catch((error) => {
      if (env.signal?.aborted) throw error;
      return null; // gone or unreadable now: nothing observed
    });
    if (seen) env.emit("read", file.target, seen);
  }
}

/** The file's version when each wanted line has the wanted text in it, else `null`. */
async function currentLines(
  env: ToolEnv,
  target: FsTarget,
  wanted: readonly { number: number; text: string }[],
): Promise<string | null> {
  const { signal } = env;
  const want = new Map(wanted.map((line) => [line.number, line.text]));
  const last = Math.max(...want.keys());
  const stat = await env.fs.stat(target, { signal });
  if (!stat || stat.type !== "file") return null;
  if (stat.size !== null && stat.size < env.config.readStreamMinSize) {
    const { bytes, version } = await env.fs.readText(target, { signal });
    return matches(splitLines(bytesToText(bytes)), want, last) ? version : null;
  }
  const handle = await env.fs.streamText(target, { signal });
  try {
    const decoder = new TextDecoder("utf-8", { ignoreBOM: false });
    const lines: string[] = [];
    let pending = "";
    for await (const chunk of handle.chunks(0)) {
      const parts = (pending + decoder.decode(chunk, { stream: true })).split("\n");
      pending = parts.pop()!;
      lines.push(...parts.map(withoutCr));
      if (lines.length >= last) break;
    }
    if (lines.length < last) lines.push(withoutCr(pending + decoder.decode()));
    return matches(lines, want, last) ? handle.version : null;
  } finally {
    handle.close();
  }
}

function withoutCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** A text's lines (the BOM already gone), each without its `\r`. */
function splitLines(text: string): string[] {
  return text.split("\n").map(withoutCr);
}

function matches(lines: readonly string[], want: Map<number, string>, last: number): boolean {
  if (lines.length < last) return false;
  for (const [number, text] of want) if (lines[number - 1] !== text) return false;
  return true;
}
