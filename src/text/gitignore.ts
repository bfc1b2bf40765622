/**
 * `.gitignore` semantics for the search tools (CONTRACT C9.2): negation, anchoring, directory
 * patterns, and nested files where the deepest file with a matching rule decides. The `ignore`
 * package (the one eslint uses) parses each rule into a regular expression as it always did;
 * that expression runs on RE2 (`re2js`), linear in path × rule, instead of V8's backtracking
 * engine, where `**` rules cost seconds a directory. Pure: no I/O.
 *
 * @module
 */

import ignore from "npm:ignore@7.0.17";
import { RE2JS } from "npm:re2js@1.3.3";

/** What a rule set answers for a path: ignored, re-included by a `!` rule, or neither. */
export interface IgnoreResult {
  /** A rule ignores the path. */
  ignored: boolean;
  /** A `!` rule re-includes it. */
  unignored: boolean;
}

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
  rules: IgnoreRules;
}

/** One compiled rule. */
interface Rule {
  negative: boolean;
  /** The rule has no `/` but a trailing one: it can be tested on the last component. */
  basenameOnly: boolean;
  program: { test(path: string): boolean };
}

/** The parts of `ignore`'s rules read here (version pinned in the import). */
interface IgnoreRuleInternals {
  negative: boolean;
  body: string;
  regexPrefix: string;
  regex: RegExp;
}

const NONE: IgnoreResult = { ignored: false, unignored: false };
const CACHE_LIMIT = 4096;

/** A `.gitignore` file's rules, tested as `ignore`'s `test` does (parent directories first). */
export class IgnoreRules {
  readonly #rules: readonly Rule[];
  readonly #shortcut: boolean;
  /** Directory results (`a/b/`), as `ignore` caches them; cleared when it grows large. */
  #cache = new Map<string, IgnoreResult>();

  /** @param rules The rules, in file order. */
  constructor(rules: readonly Rule[]) {
    this.#rules = rules;
    const basenameCount = rules.filter((r) => r.basenameOnly).length;
    this.#shortcut = basenameCount * 2 >= rules.length;
  }

  /**
   * Whether the rules ignore or re-include a path (a directory's ends with `/`): a parent
   * directory's verdict of "ignored" stands; otherwise the last rule matching the path decides.
   *
   * @param path The path relative to the file's directory, `/` separators.
   * @returns The verdict.
   */
  test(path: string): IgnoreResult {
    const end = path.endsWith("/") ? path.length - 1 : path.length;
    const cut = path.lastIndexOf("/", end - 1);
    if (cut > 0) {
      const parent = this.#directory(path.slice(0, cut + 1));
      if (parent.ignored) return parent;
    }
    return this.#match(path);
  }

  #directory(path: string): IgnoreResult {
    const cached = this.#cache.get(path);
    if (cached) return cached;
    const result = this.test(path);
    if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
    this.#cache.set(path, result);
    return result;
  }

  #match(path: string): IgnoreResult {
    let base: string | undefined;
    for (let i = this.#rules.length - 1; i >= 0; i--) {
      const rule = this.#rules[i];
      let subject = path;
      if (this.#shortcut && rule.basenameOnly) {
        base ??= basenameOf(path);
        subject = base;
      }
      if (rule.program.test(subject)) {
        return { ignored: !rule.negative, unignored: rule.negative };
      }
    }
    return NONE;
  }
}

/**
 * Compiles a `.gitignore` file.
 *
 * @param text The file's text.
 * @returns The rules, or `null` when the file holds none.
 */
export function parseGitignore(text: string): IgnoreRules | null {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (!lines.some((line) => line.trim() !== "" && !line.startsWith("#"))) return null;
  let parsed: IgnoreRuleInternals[];
  try {
    const ig = ignore({ allowRelativePaths: true }).add(lines) as unknown as {
      _rules: { _rules: IgnoreRuleInternals[] };
    };
    parsed = ig._rules._rules;
  } catch {
    return null;
  }
  const rules: Rule[] = [];
  for (const rule of parsed) {
    let program: Rule["program"];
    try {
      // One unbounded repetition at most cannot backtrack beyond name × rule: V8 runs it
      // (faster per call); `**` and several `*` go to RE2.
      const js = rule.regex;
      program = repetitions(js.source) <= 1
        ? js
        : RE2JS.compile(toRe2(rule.regexPrefix), RE2JS.CASE_INSENSITIVE);
    } catch {
      continue; // not expressible: the rule is dropped, as `ignore` drops a malformed one
    }
    rules.push({ negative: rule.negative, basenameOnly: basenameOnly(rule.body), program });
  }
  return rules.length === 0 ? null : new IgnoreRules(rules);
}

/** The unbounded repetitions (`*`, `+`, `{n,}`) of a regular expression's source. */
function repetitions(source: string): number {
  let count = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") {
      for (i++; i < source.length && source[i] !== "]"; i++) if (source[i] === "\\") i++;
    } else if (c === "*" || c === "+" || (c === "{" && /^\{\d*,\}/.test(source.slice(i)))) {
      count++;
    } else if (c === "(" && source[i + 1] === "?" && source[i + 2] === "!") count += 2;
  }
  return count;
}

/** `ignore`'s test for a rule that may be tried on the last component alone. */
function basenameOnly(body: string): boolean {
  const index = body.indexOf("/");
  return index < 0 || index === body.length - 1;
}

function basenameOf(path: string): string {
  const end = path.length - 1;
  const cut = path.lastIndexOf("/", path[end] === "/" ? end - 1 : end);
  return cut < 0 ? path : path.slice(cut + 1);
}

/**
 * The RE2 form of the JavaScript source `ignore` builds for a rule (its `regex`, without the
 * wildcard pinning, which changes how a match is found, not whether there is one): the final
 * lookahead `(?=$|\/$)` consumes instead (nothing follows it); a class is rewritten member by
 * member, `/` taken out where `ignore` guarded it with `(?!\/)`; an empty class never matches.
 */
function toRe2(prefix: string): string {
  const source = prefix
    .replace(/(^|\\\/)?\uE000$/, (_, p1) => `${p1 ? `${p1}[^/]+` : "[^/]*"}(?=$|\\/$)`)
    .replace(/\uE001$/, "(?s:.)");
  let out = "";
  for (let i = 0; i < source.length;) {
    const c = source[i];
    if (source.startsWith("(?=", i)) {
      out += "(?:";
      i += 3;
    } else if (source.startsWith("(?!\\/)[", i)) {
      const [cls, next] = readClass(source, i + 6, true);
      out += cls;
      i = next;
    } else if (c === "[") {
      const [cls, next] = readClass(source, i, false);
      out += cls;
      i = next;
    } else if (c === "\\") {
      out += source.slice(i, i + 2);
      i += 2;
    } else if (c === "]" || c === "}") {
      out += "\\" + c;
      i++;
    } else if (source.startsWith("(?s:.)", i)) {
      out += "(?s:.)";
      i += 6;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const NEVER = "[^\\x{0}-\\x{10FFFF}]";

/** A JavaScript class at `at` as RE2 code points, `/` removed when `noSlash`. */
function readClass(source: string, at: number, noSlash: boolean): [string, number] {
  let i = at + 1;
  let negated = false;
  if (source[i] === "^") {
    negated = true;
    i++;
  }
  const ranges: [number, number][] = [];
  const member = (): number => {
    const c = source[i];
    if (c !== "\\") {
      const code = source.codePointAt(i)!;
      i += code > 0xffff ? 2 : 1;
      return code;
    }
    const e = source[i + 1];
    i += 2;
    if (e === "x") {
      const code = parseInt(source.slice(i, i + 2), 16);
      i += 2;
      return code;
    }
    if (e === "t") return 9;
    if (e === "n") return 10;
    if (e === "r") return 13;
    const code = source.codePointAt(i - 1)!;
    if (code > 0xffff) i++;
    return code;
  };
  while (i < source.length && source[i] !== "]") {
    const lo = member();
    if (source[i] === "-" && source[i + 1] !== "]" && i + 1 < source.length) {
      i++;
      const hi = member();
      ranges.push([lo, hi]);
    } else ranges.push([lo, lo]);
  }
  const next = i + 1;
  const parts: string[] = [];
  for (const [lo, hi] of ranges) {
    if (!noSlash || hi < 0x2f || lo > 0x2f) parts.push(range(lo, hi));
    else {
      if (lo < 0x2f) parts.push(range(lo, 0x2e));
      if (hi > 0x2f) parts.push(range(0x30, hi));
    }
  }
  if (negated) return [`[^${parts.join("")}]`, next];
  return [parts.length === 0 ? NEVER : `[${parts.join("")}]`, next];
}

function range(lo: number, hi: number): string {
  const hex = (n: number) => `\\x{${n.toString(16)}}`;
  return lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`;
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
      const result = file.rules.test(directory ? rel + "/" : rel);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }
}
