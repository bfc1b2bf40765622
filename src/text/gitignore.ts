/**
 * `.gitignore` semantics for the search tools (CONTRACT C9.2), over the `ignore` package (the
 * one eslint uses): negation, anchoring, directory patterns, and nested files where the deepest
 * file with a matching rule decides. Pure: no I/O.
 *
 * @module
 */

import ignore from "npm:ignore@7.0.17";

type Ignore = ReturnType<typeof ignore>;

/** One `.gitignore` file's rules, for the directory that holds it. */
export interface IgnoreFile {
  /**
   * The directory holding the file, relative to the base of the stack (`""` for the base or a
   * directory above it).
   */
  base: string;
  /** For a file in a directory above the base: the base relative to that directory, plus `/`. */
  prefix?: string;
  /** The compiled rules. */
  rules: Ignore;
}

/**
 * Compiles a `.gitignore` file.
 *
 * @param text The file's text.
 * @returns The rules, or `null` when the file holds none.
 */
export function parseGitignore(text: string): Ignore | null {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (!lines.some((line) => line.trim() !== "" && !line.startsWith("#"))) return null;
  try {
    return ignore({ allowRelativePaths: true }).add(lines);
  } catch {
    return null;
  }
}

/**
 * A stack of `.gitignore` files from the outermost directory to the current one. Immutable:
 * `push` returns a new stack, so a walker keeps one per directory for free.
 */
export class IgnoreStack {
  readonly #files: readonly IgnoreFile[];

  /**
   * @param files The files, outermost first.
   */
  constructor(files: readonly IgnoreFile[] = []) {
    this.#files = files;
  }

  /** Whether the stack holds any rule. */
  get empty(): boolean {
    return this.#files.length === 0;
  }

  /**
   * A stack with one more (deeper) file.
   *
   * @param file The file.
   * @returns The new stack.
   */
  push(file: IgnoreFile): IgnoreStack {
    return new IgnoreStack([...this.#files, file]);
  }

  /**
   * Whether a path is ignored (the deepest file with a matching rule decides).
   *
   * @param path The path relative to the stack's base, `/` separators.
   * @param directory Whether the path is a directory (directory patterns then apply).
   * @returns `true` when ignored.
   */
  ignores(path: string, directory: boolean): boolean {
    for (let i = this.#files.length - 1; i >= 0; i--) {
      const file = this.#files[i];
      let rel: string;
      if (file.base === "") rel = path;
      else if (path.startsWith(file.base + "/")) rel = path.slice(file.base.length + 1);
      else continue;
      if (file.prefix) rel = file.prefix + rel;
      const result = directory ? file.rules.test(rel + "/") : testFile(file.rules, rel);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }
}

/** What `ignore`'s `test` does inside, as `testFile` calls it (version pinned in the import). */
interface IgnoreInternals {
  _t?: (path: string, cache: Record<string, unknown>) => TestResult;
  _testCache?: Record<string, unknown>;
  _rules?: { test(path: string, mode: string): TestResult };
}
type TestResult = ReturnType<Ignore["test"]>;

/**
 * `rules.test(path)` for a file's path (no `//`, no leading `/`), without adding the path to the
 * package's per-path cache: its directory's result comes from the cache (one entry per
 * directory), the file's own from the rules. The cache grew by one entry per file and rules
 * file, most of a tree walk's time in the package and much of its memory.
 */
function testFile(rules: Ignore, path: string): TestResult {
  const inner = rules as unknown as IgnoreInternals;
  if (!inner._t || !inner._testCache || !inner._rules) return rules.test(path);
  const cut = path.lastIndexOf("/");
  if (cut > 0) {
    const parent = inner._t.call(rules, path.slice(0, cut + 1), inner._testCache);
    if (parent.ignored) return parent;
  }
  return inner._rules.test(path, "regex");
}
