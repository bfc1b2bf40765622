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
import { concatBytes } from "../../text/bytes.ts";
import { skipNewlines } from "../../text/newlines.ts";
import type { ToolEnv } from "../_context.ts";

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
  const check = new LineCheck(wanted);
  const stat = await env.fs.stat(target, { signal });
  if (!stat || stat.type !== "file") return null;
  if (stat.size !== null && stat.size < env.config.readStreamMinSize) {
    const { bytes, version } = await env.fs.readText(target, { signal });
    return check.feed(bytes) !== false && check.end() ? version : null;
  }
  const handle = await env.fs.streamText(target, { signal });
  try {
    for await (const chunk of handle.chunks(0)) {
      const verdict = check.feed(chunk);
      if (verdict !== undefined) return verdict ? handle.version : null;
    }
    return check.end() ? handle.version : null;
  } finally {
    handle.close();
  }
}

const LF = 0x0a;
/** Decodes a line; a BOM is kept (only the file's own, at the start of line 1, is not text). */
const lineDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
/** Decodes line 1, dropping the file's BOM as every read does (C4.2). */
const firstLineDecoder = new TextDecoder("utf-8", { ignoreBOM: false });

/**
 * Whether a file's lines (each without its `\r`) hold the wanted texts, told from its bytes
 * chunk by chunk: the lines before a wanted one are only counted (word at a time) and only the
 * wanted lines are decoded, so a view showing line 25,000 of a big file does not decode and split
 * the 24,999 before it. Decoding one line alone gives what decoding the whole file and splitting
 * it gives: a line feed ends any UTF-8 sequence, valid or not.
 */
export class LineCheck {
  #want: readonly { number: number; text: string }[];
  #next = 0;
  /** The number of the line the next byte fed belongs to. */
  #line = 1;
  /** The bytes of a wanted line begun in an earlier chunk. */
  #pending: Uint8Array[] = [];

  /** @param wanted The lines to check, by 1-based number, each with its text (no `\r`). */
  constructor(wanted: readonly { number: number; text: string }[]) {
    this.#want = [...wanted].sort((a, b) => a.number - b.number);
  }

  /** Takes the next bytes: `true` or `false` once the verdict is known, else `undefined`. */
  feed(chunk: Uint8Array): boolean | undefined {
    let i = 0;
    while (this.#next < this.#want.length) {
      const { number, text } = this.#want[this.#next];
      if (this.#line < number) {
        const past = skipNewlines(chunk, number - this.#line, i);
        if (past < 0) {
          this.#line += -1 - past;
          return undefined;
        }
        this.#line = number;
        i = past;
      }
      const end = chunk.indexOf(LF, i);
      if (end < 0) {
        this.#pending.push(chunk.slice(i)); // a chunk's buffer may be reused
        return undefined;
      }
      if (this.#take(chunk.subarray(i, end)) !== text) return false;
      this.#next++;
      this.#line++;
      i = end + 1;
    }
    return true;
  }

  /** The verdict at the end of the file (its last line has no line feed). */
  end(): boolean {
    if (this.#next === this.#want.length) return true;
    const { number, text } = this.#want[this.#next];
    if (number !== this.#line || this.#take(new Uint8Array(0)) !== text) return false;
    return ++this.#next === this.#want.length;
  }

  /** The text of the current line, whose last bytes are `tail`, without its `\r`. */
  #take(tail: Uint8Array): string {
    const bytes = this.#pending.length === 0 ? tail : concatBytes([...this.#pending, tail]);
    this.#pending = [];
    const line = (this.#line === 1 ? firstLineDecoder : lineDecoder).decode(bytes);
    return line.endsWith("\r") ? line.slice(0, -1) : line;
  }
}
