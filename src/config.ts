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
   * Lines of context echoed around a successful `edit`; 0 keeps the plain success text (C12.8).
   * @default {0}
   */
  editSnippet: number;
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
  editSnippet: 0,
});

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
    const min = ZERO_ALLOWED.has(key) ? 0 : 1;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
      throw new TypeError(
        `config "${key}" must be a whole number of at least ${min}: got ${JSON.stringify(value)}`,
      );
    }
    config[key as keyof FsToolsConfig] = value;
  }
  return Object.freeze(config);
}
