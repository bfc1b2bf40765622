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
import { toRe2 } from "./_gitignore_re2.ts";

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
  /**
   * Text every path the rule matches holds, ASCII lower case (`requiredLiteral`), or `null`:
   * a path without it is not tested (most rules fail most paths; `includes` is far cheaper).
   */
  literal: string | null;
}

/** The parts of `ignore`'s rules read here (version pinned in the import). */
interface IgnoreRuleInternals {
  negative: boolean;
  body: string;
  regexPrefix: string;
  regex: RegExp;
}

const NONE: IgnoreResult = { ignored: false, unignored: false };
// deno-lint-ignore no-control-regex
const ASCII = /^[\x00-\x7f]*$/;
const CACHE_LIMIT = 4096;

/** A `.gitignore` file's rules, tested as `ignore`'s `test` does (parent directories first). */
export class IgnoreRules {
  readonly #rules: readonly Rule[];
  readonly #shortcut: boolean;
  /**
   * Every rule's literal in one alternation (case-insensitive), when every rule has one: an
   * ASCII path in which it finds none matches no rule, told in one native call (most paths; 35
   * `includes` cost 14 times as much on denoland/deno's root `.gitignore`).
   */
  readonly #anyLiteral: RegExp | null;
  /** Directory results (`a/b/`), as `ignore` caches them; cleared when it grows large. */
  #cache = new Map<string, IgnoreResult>();

  /** @param rules The rules, in file order. */
  constructor(rules: readonly Rule[]) {
    this.#rules = rules;
    const basenameCount = rules.filter((r) => r.basenameOnly).length;
    this.#shortcut = basenameCount * 2 >= rules.length;
    const literals = rules.map((rule) => rule.literal);
    this.#anyLiteral = literals.every((literal) => literal !== null)
      ? new RegExp(literals.map((literal) => escapeRegExp(literal!)).join("|"), "i")
      : null;
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

  /**
   * What {@linkcode IgnoreRules.test} answers for `dir + name` (with `/` after a directory's
   * name), for a directory's entries that share `dir`: `dir`'s verdict (a parent's "ignored"
   * stands) is worked out once for them all and passed in as `parent`.
   *
   * @param parent `verdictOf(dir)`.
   * @param dir The entries' directory (`""`, or ending with `/`).
   * @param name The entry's name, plus `/` for a directory.
   * @returns The verdict.
   */
  testEntry(parent: IgnoreResult, dir: string, name: string): IgnoreResult {
    return parent.ignored ? parent : this.#match(dir + name, name);
  }

  /**
   * A directory's verdict as its entries' parent (the `parent` of
   * {@linkcode IgnoreRules.testEntry}).
   *
   * @param dir The directory (`""` for the rules' own, or ending with `/`).
   * @returns The verdict.
   */
  verdictOf(dir: string): IgnoreResult {
    return dir === "" ? NONE : this.#directory(dir);
  }

  #directory(path: string): IgnoreResult {
    const cached = this.#cache.get(path);
    if (cached) return cached;
    const result = this.test(path);
    if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
    this.#cache.set(path, result);
    return result;
  }

  #match(path: string, base?: string): IgnoreResult {
    // The path in ASCII lower case for the rules' literals; `null` when not ASCII (a non-ASCII
    // character may fold to an ASCII one under RE2's case folding: every rule is tested then).
    const ascii = ASCII.test(path);
    if (ascii && this.#anyLiteral !== null && !this.#anyLiteral.test(path)) return NONE;
    const lower = ascii ? path.toLowerCase() : null;
    for (let i = this.#rules.length - 1; i >= 0; i--) {
      const rule = this.#rules[i];
      let subject = path;
      if (this.#shortcut && rule.basenameOnly) {
        base ??= basenameOf(path);
        subject = base;
      }
      // The basename is the path's end: a literal missing from the path is missing from it too.
      if (rule.literal !== null && lower !== null && !lower.includes(rule.literal)) continue;
      if (rule.program.test(subject)) {
        return { ignored: !rule.negative, unignored: rule.negative };
      }
    }
    return NONE;
  }
}

/** Compiled files by text: a tree repeats a few `.gitignore` files in many directories. */
const compiled = new Map<string, IgnoreRules | null>();
const COMPILED_LIMIT = 64;
const COMPILED_MAX_TEXT = 16 * 1024;

/**
 * Compiles a `.gitignore` file. A text compiled recently gives the same rules again (rules are
 * immutable: their directory cache holds verdicts that depend on the text alone).
 *
 * @param text The file's text.
 * @returns The rules, or `null` when the file holds none.
 */
export function parseGitignore(text: string): IgnoreRules | null {
  const known = compiled.get(text);
  if (known !== undefined) return known;
  const rules = compileGitignore(text);
  if (text.length <= COMPILED_MAX_TEXT) {
    if (compiled.size >= COMPILED_LIMIT) compiled.delete(compiled.keys().next().value!);
    compiled.set(text, rules);
  }
  return rules;
}

function compileGitignore(text: string): IgnoreRules | null {
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
    rules.push({
      negative: rule.negative,
      basenameOnly: basenameOnly(rule.body),
      program,
      // From the source the program runs (RE2's is built from the prefix; its markers end runs).
      literal: requiredLiteral(
        program === rule.regex
          ? rule.regex.source
          : rule.regexPrefix.replace(/[\uE000\uE001]/g, "."),
      ),
    });
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

/**
 * The longest run of literal characters that every match of a regular expression (JavaScript
 * syntax, no `u` flag) holds, in ASCII lower case; `null` when there is none, when it is not
 * ASCII, or when the expression has an alternative at its top level. Conservative: a character
 * followed by a quantifier, anything in a group or a class, and any escape of a letter or digit
 * end a run.
 *
 * @param source The expression's source.
 * @returns The literal, or `null`.
 */
export function requiredLiteral(source: string): string | null {
  let best = "";
  let run = "";
  const end = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  const quantified = (at: number) => "*+?{".includes(source[at] ?? "\0");
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === "\\") {
      const escaped = source[i + 1];
      i += 2;
      if (escaped === undefined || /[A-Za-z0-9]/.test(escaped) || quantified(i)) end();
      else run += escaped;
    } else if (c === "(" || c === "[") {
      end();
      i = skipGroup(source, i);
      if (i < 0) return null;
    } else if (c === "|") {
      return null;
    } else if (".^$*+?{}])".includes(c)) {
      end();
      i++;
    } else {
      i++;
      if (quantified(i)) end();
      else run += c;
    }
  }
  end();
  return best !== "" && ASCII.test(best) ? best.toLowerCase() : null;
}

/** The index after the group or class opening at `start`, or -1 when it does not close. */
function skipGroup(source: string, start: number): number {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") {
      for (i++; i < source.length && source[i] !== "]"; i++) if (source[i] === "\\") i++;
      if (depth === 0) return i + 1;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i + 1;
  }
  return -1;
}

/** `text` as a regular expression that matches it literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
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
   * The stack as it applies to one directory's entries: each file's part of their path and its
   * verdict on the directory worked out once, so {@linkcode IgnoreEntries.ignores} answers
   * `ignores(directory + "/" + name, …)` for an entry without redoing them.
   *
   * @param directory The directory relative to the stack's base (`""` for the base).
   * @returns The entries' view of the stack.
   */
  entriesOf(directory: string): IgnoreEntries {
    const scopes: IgnoreScope[] = [];
    for (let i = this.#files.length - 1; i >= 0; i--) {
      const file = this.#files[i];
      let dir: string;
      if (file.base === "") dir = directory === "" ? "" : directory + "/";
      else if (directory === file.base) dir = "";
      else if (directory.startsWith(file.base + "/")) {
        dir = directory.slice(file.base.length + 1) + "/";
      } else continue;
      if (file.prefix) dir = file.prefix + dir;
      scopes.push({ rules: file.rules, dir, parent: file.rules.verdictOf(dir) });
    }
    return new IgnoreEntries(scopes);
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

/** One `.gitignore` file as it applies to a directory's entries. */
interface IgnoreScope {
  rules: IgnoreRules;
  /** The directory relative to the file's own (`""`, or ending with `/`). */
  dir: string;
  /** The file's verdict on that directory. */
  parent: IgnoreResult;
}

/**
 * An {@linkcode IgnoreStack} as it applies to one directory's entries (`entriesOf`), carried
 * down a walk: {@linkcode IgnoreEntries.child} gives a subdirectory's from its parent's (the
 * subdirectory's own verdicts are the ones its parent's entries got), so no directory's
 * verdict is looked up or cached by path.
 */
export class IgnoreEntries {
  readonly #scopes: readonly IgnoreScope[];

  /** @param scopes The files that apply, deepest first. */
  constructor(scopes: readonly IgnoreScope[] = []) {
    this.#scopes = scopes;
  }

  /** Whether no rule applies. */
  get empty(): boolean {
    return this.#scopes.length === 0;
  }

  /**
   * Whether `other` applies the same rules to its entries: the same compiled files (rules are
   * immutable, one object per text) at the same directories, so the same verdicts.
   *
   * @param other Another view.
   * @returns `true` when every verdict is the same.
   */
  sameAs(other: IgnoreEntries): boolean {
    if (other === this) return true;
    const mine = this.#scopes;
    const theirs = other.#scopes;
    if (mine.length !== theirs.length) return false;
    for (let i = 0; i < mine.length; i++) {
      if (mine[i].rules !== theirs[i].rules || mine[i].dir !== theirs[i].dir) return false;
    }
    return true;
  }

  /**
   * The entries of this directory with one more (deeper) file: the directory's own
   * `.gitignore`.
   *
   * @param rules The file's rules.
   * @returns The new view.
   */
  withRules(rules: IgnoreRules): IgnoreEntries {
    return new IgnoreEntries([{ rules, dir: "", parent: NONE }, ...this.#scopes]);
  }

  /**
   * The view for the entries of the subdirectory `name` (one `ignores(name, true)` left
   * unignored).
   *
   * @param name The subdirectory's name.
   * @returns Its view.
   */
  child(name: string): IgnoreEntries {
    if (this.#scopes.length === 0) return this;
    const entry = name + "/";
    return new IgnoreEntries(this.#scopes.map(({ rules, dir, parent }) => ({
      rules,
      dir: dir + entry,
      parent: rules.testEntry(parent, dir, entry),
    })));
  }

  /**
   * Whether an entry of the directory is ignored: `ignores(directory + "/" + name, isDirectory)`
   * of the stack.
   *
   * @param name The entry's name.
   * @param isDirectory Whether the entry is a directory.
   * @returns `true` when ignored.
   */
  ignores(name: string, isDirectory: boolean): boolean {
    const entry = isDirectory ? name + "/" : name;
    for (const scope of this.#scopes) {
      const result = scope.rules.testEntry(scope.parent, scope.dir, entry);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }
}
