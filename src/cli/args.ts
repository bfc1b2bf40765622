/**
 * The command line of `toolfs` (the CLI): global options before the tool name, the tool's
 * arguments after it, as one JSON object, as `--name value` flags or as positionals that fill
 * the tool's schema properties in order. Pure: no I/O.
 *
 * @module
 */

import type { FsToolDefinition, RootAccess } from "../types.ts";

/** A parsed command line that runs a tool. */
export interface CliRun {
  /** Always `run`. */
  kind: "run";
  /** The roots in the order given; empty when none was given. */
  roots: RootAccess[];
  /** The `--config` JSON, parsed. */
  config: Record<string, unknown>;
  /** `--json`: print the whole result. */
  json: boolean;
  /** `--tokens`: token counts on stderr. */
  tokens: boolean;
  /** `--session FILE`. */
  session?: string;
  /** `--no-policy`: writes and edits are unconditional. */
  policy: boolean;
  /** `--tools NAMES`: the tools to offer, when given (C15.1). */
  tools?: string[];
  /** The tool name. */
  tool: string;
  /** The tokens after the tool name: its arguments, for {@linkcode parseToolArgs}. */
  rest: string[];
}

/** A tool's arguments from the command line. */
export interface CliToolArgs {
  /** The arguments; a value {@linkcode STDIN} is to be replaced by standard input. */
  args: Record<string, unknown>;
  /** The argument read from standard input (`-`), if any: `""` for the JSON object itself. */
  stdinKey?: string;
  /** Flag options given after the tool name (`json`, `tokens`, `no-policy`, `help`). */
  flags: string[];
}

/** What a command line asks for. */
export type CliCommand =
  | CliRun
  | { kind: "help"; tools?: string[] }
  | { kind: "version" }
  | { kind: "usage"; problem: string };

/** The options before the tool name that take a value, by long name. */
const VALUE_OPTIONS = new Set(["root", "read-only", "config", "session", "tools"]);
/** The options before the tool name that take none. */
const FLAG_OPTIONS = new Set(["json", "tokens", "no-policy", "help", "version"]);
/**
 * The flags also accepted after the tool name: only those that change how the result is
 * shown, so a value a script passes there can never turn the policy off (issue 19).
 */
const TRAILING_FLAGS = new Set(["json", "tokens", "help"]);
/** Short options: `-r DIR`, `-R DIR`, `-c JSON`, `-s FILE`, `-j`, `-t`, `-h`, `-V`. */
const SHORT: Record<string, string> = {
  r: "root",
  R: "read-only",
  c: "config",
  s: "session",
  j: "json",
  t: "tokens",
  h: "help",
  V: "version",
};
/**
 * Short options after the tool name that set one of its boolean properties, as rg spells them:
 * `grep -i` (ignore case), `delete -r` (recursive).
 */
const TOOL_SHORT: Record<string, string> = { i: "ignore_case", r: "recursive" };
/** What reads as a cluster of short options after the tool name: `-i`, `-ij`; `-5` is a value. */
const SHORT_OPTIONS = /^-[A-Za-z]+$/;
/** What reads as an option: `--name` or `--name=value`; `---` or `--5` is a value. */
const LONG_OPTION = /^--[A-Za-z][\w-]*(?:=|$)/;

/**
 * Parses the options before the tool name. `--` ends them (the next token is the tool).
 *
 * @param argv The arguments after the program name.
 * @returns What to do; for a run, the tokens after the tool name are left in `rest`.
 */
export function parseCli(argv: readonly string[]): CliCommand {
  const run: CliRun = {
    kind: "run",
    roots: [],
    config: {},
    json: false,
    tokens: false,
    policy: true,
    tool: "",
    rest: [],
  };
  const tokens = expandShort(argv);
  if (typeof tokens === "string") return { kind: "usage", problem: tokens };
  // `--help` wins over any problem, and lists the tools `--tools` names, before or after it.
  let help = false;
  const fail = (problem: string): CliCommand =>
    help
      ? { kind: "help", ...(run.tools ? { tools: run.tools } : {}) }
      : { kind: "usage", problem };
  let i = 0;
  for (; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === "--") {
      i++;
      break;
    }
    if (!LONG_OPTION.test(token)) break;
    const eq = token.indexOf("=");
    const name = token.slice(2, eq === -1 ? undefined : eq);
    if (FLAG_OPTIONS.has(name)) {
      if (eq !== -1) return fail(`option --${name} takes no value`);
      if (name === "help") {
        help = true;
        continue;
      }
      if (name === "version") return { kind: "version" };
      if (name === "json") run.json = true;
      if (name === "tokens") run.tokens = true;
      if (name === "no-policy") run.policy = false;
      continue;
    }
    if (!VALUE_OPTIONS.has(name)) {
      return fail(`unknown option ${JSON.stringify(token)}`);
    }
    let value: string;
    if (eq !== -1) value = token.slice(eq + 1);
    else if (i + 1 < tokens.length) value = tokens[++i];
    else return fail(`option --${name} needs a value`);
    if (name === "root" || name === "read-only") {
      if (value === "") return fail(`option --${name} needs a directory`);
      run.roots.push({ path: value, write: name === "root" });
    } else if (name === "tools") {
      run.tools = value.split(",").map((tool) => tool.trim());
    } else if (name === "session") {
      if (value === "") return fail("option --session needs a file");
      run.session = value;
    } else {
      const config = parseObject(value);
      if (typeof config === "string") return fail(`--config: ${config}`);
      run.config = config;
    }
  }
  if (help) return fail("");
  if (i >= tokens.length) return fail("no tool given");
  run.tool = tokens[i++];
  run.rest = tokens.slice(i);
  return run;
}

/**
 * The options before the tool name with each short option spelled long: `-j` is `--json`,
 * `-jt` is `--json --tokens`, `-r DIR` and `-rDIR` are `--root DIR`. Stops at `--` or at the
 * first token that is not an option (the tool name), which it leaves as it is, like the rest.
 */
function expandShort(argv: readonly string[]): string[] | string {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === "--" || !token.startsWith("-") || token === "-") {
      out.push(...argv.slice(i));
      return out;
    }
    if (token.startsWith("--")) {
      out.push(token);
      if (!token.includes("=") && VALUE_OPTIONS.has(token.slice(2)) && i + 1 < argv.length) {
        out.push(argv[++i]); // a value that looks like an option is still the value
      }
      continue;
    }
    for (let j = 1; j < token.length; j++) {
      const name = SHORT[token[j]];
      if (name === undefined) return `unknown option ${JSON.stringify(`-${token[j]}`)}`;
      out.push(`--${name}`);
      if (!VALUE_OPTIONS.has(name)) continue;
      if (j + 1 < token.length) out.push(token.slice(j + 1));
      else if (i + 1 < argv.length) out.push(argv[++i]);
      break;
    }
  }
  return out;
}

/** The value that marks an argument to be read from standard input. */
export const STDIN: unique symbol = Symbol("stdin");

/**
 * Parses a tool's arguments: a JSON object (or `-`, that object from stdin) first, then
 * `--name value` flags and positionals, which fill the schema's properties in order; after
 * `--` every token is a positional, so a value such as `---` or `--no-policy` is never taken
 * for an option. Short options after the tool name are flags, never paths: `-i` sets
 * `ignore_case` (grep), `-r` `recursive` (delete), `-j`, `-t`, `-h` are `--json`, `--tokens`,
 * `--help`; any other letter is a usage problem. A flag or positional value is converted to the
 * property's type when it reads as one (`--limit 5` is the number 5); anything else is passed as
 * text, for the tool to judge.
 *
 * @param tokens The tokens after the tool name.
 * @param definition The tool's definition, from `tools.definitions`.
 * @returns The arguments, or the usage problem.
 *
 * @example
 * ```ts ignore
 * parseToolArgs(["README.md", "--limit", "5"], readDefinition);
 * // { args: { file_path: "README.md", limit: 5 } }
 * ```
 */
export function parseToolArgs(
  tokens: readonly string[],
  definition: FsToolDefinition,
): CliToolArgs | string {
  const properties = definition.inputSchema.properties;
  const names = Object.keys(properties);
  let args: Record<string, unknown> = {};
  const flags: Record<string, unknown> = {};
  let stdinKey: string | undefined;
  const fromStdin = (key: string): typeof STDIN | string => {
    if (stdinKey !== undefined) return "only one argument can be read from stdin ('-')";
    stdinKey = key;
    return STDIN;
  };
  let positional = 0;
  let optionsEnded = false;
  const globals: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === "--" && !optionsEnded) {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && LONG_OPTION.test(token)) {
      const eq = token.indexOf("=");
      const raw = token.slice(2, eq === -1 ? undefined : eq);
      const snake = raw.replaceAll("-", "_");
      const key = raw in properties || !(snake in properties) ? raw : snake;
      if (!(key in properties) && eq === -1 && TRAILING_FLAGS.has(raw)) {
        globals.push(raw);
        continue;
      }
      if (!(key in properties) && (FLAG_OPTIONS.has(raw) || VALUE_OPTIONS.has(raw))) {
        return `option --${raw} goes before the tool name (after it, use -- before a value that starts with --)`;
      }
      const type = properties[key]?.type;
      let value: unknown;
      if (eq !== -1) value = token.slice(eq + 1);
      else if (type === "boolean" || i + 1 >= tokens.length) value = true;
      else value = tokens[++i];
      if (value === "-") {
        const marker = fromStdin(key);
        if (typeof marker === "string") return marker;
        value = marker;
      } else if (typeof value === "string") value = typed(value, type);
      flags[key] = value;
      continue;
    }
    if (!optionsEnded && SHORT_OPTIONS.test(token)) {
      for (const letter of token.slice(1)) {
        const property = TOOL_SHORT[letter];
        if (property !== undefined && properties[property]?.type === "boolean") {
          flags[property] = true;
          continue;
        }
        const global = SHORT[letter];
        if (global !== undefined && TRAILING_FLAGS.has(global)) {
          globals.push(global);
          continue;
        }
        if (global !== undefined) {
          return `option -${letter} (--${global}) goes before the tool name (after it, use -- before a value that starts with -)`;
        }
        return `unknown option "-${letter}" for ${definition.name} (use -- before a value that starts with -)`;
      }
      continue;
    }
    if (i === 0 && (token === "-" || token.trimStart().startsWith("{"))) {
      if (token === "-") {
        fromStdin("");
        continue;
      }
      const object = parseObject(token);
      if (typeof object === "string") return `${definition.name} arguments: ${object}`;
      args = object;
      continue;
    }
    while (positional < names.length && (names[positional] in flags || names[positional] in args)) {
      positional++;
    }
    if (positional >= names.length) {
      return `too many arguments for ${definition.name}: ${JSON.stringify(token)} (it takes ${
        names.join(", ")
      })`;
    }
    const key = names[positional++];
    if (token === "-") {
      const marker = fromStdin(key);
      if (typeof marker === "string") return marker;
      flags[key] = marker;
    } else flags[key] = typed(token, properties[key]?.type);
  }
  return { args: { ...args, ...flags }, stdinKey, flags: globals };
}

/** A flag's text as the property's JSON type, when it reads as one; else the text itself. */
function typed(text: string, type: unknown): unknown {
  if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(text)) {
    return Number(text);
  }
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

/** A JSON object, or the reason the text is not one. */
function parseObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `expected a JSON object: got ${JSON.stringify(text)}`;
  }
  return value as Record<string, unknown>;
}
