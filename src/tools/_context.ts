// What a tool executor gets for one call. Private to src/tools.

import type { FsToolsConfig } from "../config.ts";
import type { FsPolicy } from "../policy/read_before_write.ts";
import type { FsProvider, FsTarget } from "../provider/fs_provider.ts";
import { FsError } from "../fs_error.ts";
import { tooLargeDetail } from "../render/errors.ts";
import type { LineIndex } from "../text/read_window.ts";
import type { FsAttachment, FsOp, FsToolValue } from "../types.ts";

export interface ToolEnv {
  fs: FsProvider;
  config: Readonly<FsToolsConfig>;
  policy: FsPolicy;
  session: object;
  /** The absolute lexical session directory. */
  cwd: string;
  signal?: AbortSignal;
  /** Line indexes of streamed files, by version key. */
  lineIndexes: LineIndexCache;
  /**
   * Records a successful read, write, edit, move (`target` the destination, `from` the source)
   * or delete with the policy and tells listeners.
   */
  emit(
    op: "read" | "write" | "edit" | "move" | "delete",
    target: FsTarget,
    version: string,
    from?: FsTarget,
  ): void;
  /**
   * Runs the policy check, the mutation and its `emit` for one real file one at a time, so a
   * session's queued edits each see the version the previous one produced (C5.5).
   */
  serialize<T>(realPath: string, task: () => Promise<T>): Promise<T>;
}

/** What an executor returns on success. */
export interface ToolSuccess<V> {
  content: string;
  value: V;
  /** Media after the text (C17.1). */
  attachments?: FsAttachment[];
}

/**
 * One tool: `parse` checks the arguments object in the contract's order and returns them
 * validated, or throws `FsError("FS_INVALID_ARGUMENT")` with the contract's message; `run` is the
 * executor (resolve, provider, render). Methods, so a registry can hold every tool as
 * `Tool<unknown>`.
 */
export interface Tool<A, V extends FsToolValue = FsToolValue> {
  parse(args: Record<string, unknown>, config: Readonly<FsToolsConfig>): A;
  run(args: A, env: ToolEnv): Promise<ToolSuccess<V>>;
}

/** Resolves a path for `op` in the session. */
export function resolveIn(env: ToolEnv, path: string, op: FsOp): Promise<FsTarget> {
  return env.fs.resolve(path, { cwd: env.cwd, op, signal: env.signal });
}

/** A small LRU of line indexes (each bounded), so paging a big file stays cheap. */
export class LineIndexCache {
  #entries = new Map<string, LineIndex>();
  #max: number;

  constructor(max = 16) {
    this.#max = max;
  }

  get(key: string): LineIndex | undefined {
    const index = this.#entries.get(key);
    if (index) {
      this.#entries.delete(key);
      this.#entries.set(key, index);
    }
    return index;
  }

  set(key: string, index: LineIndex): void {
    this.#entries.delete(key);
    this.#entries.set(key, index);
    while (this.#entries.size > this.#max) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }
}

const textDecoder = new TextDecoder("utf-8", { ignoreBOM: false });

/** A file's bytes as text without a BOM; invalid UTF-8 becomes U+FFFD (C6). */
export function bytesToText(bytes: Uint8Array): string {
  return textDecoder.decode(bytes);
}

/**
 * Defines `before` and `after` on a value as enumerable properties decoded on first access, so a
 * host that never looks at them (most agent loops) does not pay for decoding a large file. They
 * read like plain properties, `JSON.stringify` and spreading included.
 */
export function withTexts<T extends object, B extends string | null>(
  value: T,
  decode: () => { before: B; after: string },
): T & { before: B; after: string } {
  let texts: { before: B; after: string } | undefined;
  const get = () => texts ??= decode();
  return Object.defineProperties(value, {
    before: { get: () => get().before, enumerable: true },
    after: { get: () => get().after, enumerable: true },
  }) as T & { before: B; after: string };
}

/**
 * The largest file `write` and `edit` handle: the value carries the old and new text as strings
 * (C6), and V8 strings (so Deno's `TextDecoder`) stop at 2^29 - 24 code units. A larger file is
 * refused before anything is read or written, never after the commit.
 */
export const MAX_TEXT_BYTES: number = 2 ** 29 - 24;

/** The `FS_IO_ERROR` for a file larger than {@linkcode MAX_TEXT_BYTES}. */
export function tooLarge(size: number): FsError {
  return new FsError("FS_IO_ERROR", { detail: tooLargeDetail(size, MAX_TEXT_BYTES) });
}

export { looksBinary } from "../text/binary_sniff.ts";
