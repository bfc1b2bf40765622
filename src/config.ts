/**
 * The caps that shape what a model sees (CONTRACT C2).
 *
 * @module
 */

/** Caps on what one call renders. Every key is optional when passed to `createFsTools`. */
export interface FsToolsConfig {
  /**
   * Entries one `list` renders; the footer still counts the whole directory.
   * @default {200}
   */
  listMaxEntries: number;
  /**
   * Default and maximum number of lines one `read` returns.
   * @default {2000}
   */
  readLimit: number;
  /**
   * Characters (code points) kept per line; a longer line is truncated with a marker.
   * @default {2000}
   */
  readMaxLineLength: number;
  /**
   * Cap on the UTF-8 bytes of one `read`'s rendered lines.
   * @default {51200}
   */
  readMaxBytes: number;
  /**
   * Files of this many bytes or more (or of unknown size) are streamed instead of loaded whole.
   * @default {10485760}
   */
  readStreamMinSize: number;
  /**
   * Paths one `glob` renders, and one `grep` in the `files_with_matches` and `count` modes.
   * @default {200}
   */
  globMaxFiles: number;
  /**
   * Matching lines one `grep` renders in the `content` mode.
   * @default {100}
   */
  grepMaxMatches: number;
  /**
   * Milliseconds one file's search by `grep` may take (issue 19): a file whose search takes
   * longer is given up, and the result names it after the footer (`Skipped … whose search took
   * longer than <ms> ms: …`); a file named as `path` gives an error instead.
   * @default {10000}
   */
  grepFileTimeMs: number;
  /**
   * Lines of context echoed around a successful `edit`; 0 keeps the plain success text (C12.8).
   * @default {0}
   */
  editSnippet: number;
  /**
   * Whether `read` gives PNG, JPEG, GIF and WebP files as images (C17.1); `false` keeps them
   * `binary file`, for hosts whose model takes text only.
   * @default {true}
   */
  readImages: boolean;
  /**
   * The largest image `read` returns, in bytes (C17.1); a larger one is refused before it is read.
   * @default {5242880}
   */
  readMaxImageBytes: number;
  /**
   * The largest PDF `read` extracts text from, in bytes (C17.2); a larger one is refused before it
   * is read, and no more than this (and one byte) is read of a file that grows meanwhile
   * (C17.2a). Extraction runs in a worker thread whose growth is bounded (+256 MiB).
   * @default {20971520}
   */
  readMaxDocumentBytes: number;
  /**
   * Milliseconds one `read` of a PDF may spend extracting text (C17.2a): a read that takes longer
   * fails (`…; read a smaller part with offset and limit`), or, when only the count of the pages
   * after its window remains, gives its window without the total. Parsing runs in a worker
   * thread, so the caller's thread never waits on it; an abort ends it at once.
   * @default {10000}
   */
  readDocumentTimeMs: number;
  /**
   * Whether `read` and `edit` give details beyond the design notes' texts (C4.2a): the byte cap
   * and total in a capped footer, `1 line`, `; no newline at end of file`, and the count of a
   * `replace_all` edit. Turn it on for hosts whose model rebuilds files exactly or reasons about
   * the cap; `false` keeps the notes' texts byte for byte.
   * @default {false}
   */
  detailedFooters: boolean;
}

/** The defaults of {@linkcode FsToolsConfig}. */
export const DEFAULT_CONFIG: Readonly<FsToolsConfig> = Object.freeze({
  listMaxEntries: 200,
  readLimit: 2000,
  readMaxLineLength: 2000,
  readMaxBytes: 51200,
  readStreamMinSize: 10 * 1024 * 1024,
  globMaxFiles: 200,
  grepMaxMatches: 100,
  grepFileTimeMs: 10_000,
  editSnippet: 0,
  readImages: true,
  readMaxImageBytes: 5 * 1024 * 1024,
  readMaxDocumentBytes: 20 * 1024 * 1024,
  readDocumentTimeMs: 10_000,
  detailedFooters: false,
});

/** Keys whose value is a boolean; every other key is a whole number. */
const BOOLEAN_KEYS: ReadonlySet<string> = new Set(["readImages", "detailedFooters"]);

/** Keys whose value may be 0; every other key is at least 1. */
const ZERO_ALLOWED: ReadonlySet<string> = new Set(["readStreamMinSize", "editSnippet"]);

/**
 * Merges partial overrides over the defaults and checks every value.
 *
 * @param overrides Keys to change; `undefined` and `null` values keep the default.
 * @returns A complete, frozen config.
 * @throws {TypeError} When a key is unknown or a value is not a whole number in range.
 *
 * @example
 * ```ts
 * import { DEFAULT_CONFIG, resolveConfig } from "./config.ts";
 * import assert from "node:assert/strict";
 *
 * const config = resolveConfig({ readLimit: 500 });
 * assert.equal(config.readLimit, 500);
 * assert.equal(config.listMaxEntries, DEFAULT_CONFIG.listMaxEntries);
 * ```
 */
export function resolveConfig(overrides: Partial<FsToolsConfig> = {}): Readonly<FsToolsConfig> {
  const config: FsToolsConfig = { ...DEFAULT_CONFIG };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (!(key in DEFAULT_CONFIG)) {
      throw new TypeError(
        `unknown config key "${key}": expected one of ${Object.keys(DEFAULT_CONFIG).join(", ")}`,
      );
    }
    if (value === undefined || value === null) continue;
    if (BOOLEAN_KEYS.has(key)) {
      if (typeof value !== "boolean") {
        throw new TypeError(`config "${key}" must be a boolean: got ${JSON.stringify(value)}`);
      }
      (config as unknown as Record<string, unknown>)[key] = value;
      continue;
    }
    const min = ZERO_ALLOWED.has(key) ? 0 : 1;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
      throw new TypeError(
        `config "${key}" must be a whole number of at least ${min}: got ${JSON.stringify(value)}`,
      );
    }
    (config as unknown as Record<string, unknown>)[key] = value;
  }
  return Object.freeze(config);
}
