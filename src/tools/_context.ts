// What a tool executor gets for one call. Private to src/tools.

import type { FsToolsConfig } from "../config.ts";
import type { FsPolicy } from "../policy/read_before_write.ts";
import type { FsProvider, FsTarget } from "../provider/fs_provider.ts";
import type { FsOp } from "../render/errors.ts";
import type { LineIndex } from "./_read_window.ts";

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
  /** Records a successful read, write or edit with the policy and tells listeners. */
  emit(op: "read" | "write" | "edit", target: FsTarget, version: string): void;
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

/** Whether the first 8 KiB hold a NUL byte (C4.2). */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, 8192).includes(0);
}
