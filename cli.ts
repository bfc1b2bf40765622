/**
 * `toolfs`: run one tool from a terminal or a script and print exactly the text the model would
 * see — to check a tool's output by eye, or to pin it in a golden-file test.
 *
 * ```sh
 * deno run --no-prompt --allow-read=. jsr:@toolfs/fs/cli read README.md --limit 20
 * deno run --no-prompt --allow-read=. --allow-write=. jsr:@toolfs/fs/cli --session .toolfs.json \
 *   edit README.md '{"old_string":"colour","new_string":"color"}'
 * ```
 *
 * The tool's arguments are one JSON object, `--name value` flags, or positionals that fill the
 * tool's properties in schema order (`read <file_path> [offset] [limit]`). Standard output is
 * the tool's content byte for byte (a newline is added only on a terminal); the exit status is,
 * as with `rg`, 0 on success, 1 for a `grep` or `glob` that found nothing, and 2 for an error:
 * the tool failed (its `Error: …` text is still printed, an unknown tool's too) or did not run
 * (usage, options, roots, session file; the reason is on stderr).
 * `--json` prints the whole result, `--tokens` adds token counts on stderr, and
 * `--session FILE` keeps read observations between runs so a script can read, then edit.
 *
 * @example Run a tool in-process
 * ```ts ignore
 * import { runCli } from "@toolfs/fs/cli";
 *
 * const status = await runCli(["read", "README.md", "--limit", "5"]);
 * ```
 *
 * @module
 */

import { resolve } from "node:path";
import {
  createFsTools,
  type FsToolDefinition,
  type FsToolName,
  type FsTools,
  type FsToolsConfig,
  type GlobValue,
  type GrepValue,
  LocalFileSystem,
  type RootSpec,
} from "./mod.ts";
import { type CliRun, parseCli, parseToolArgs } from "./src/cli/args.ts";
import { cliUsage } from "./src/cli/usage.ts";
import { SessionFile } from "./src/cli/session_file.ts";
import { countCliTokens } from "./src/cli/tokens.ts";
import { findRoot } from "./src/provider/roots.ts";
import { toolDefinitions } from "./src/tools/tools.ts";
import { SERVED_TOOLS, TOOL_NAMES } from "./src/present/specs/mod.ts";
import { renderError, unknownToolMessage } from "./src/render/errors.ts";
import packageConfig from "./deno.json" with { type: "json" };

/** Where {@linkcode runCli} writes (`Deno.stdout` and `Deno.stderr` fit). */
export interface CliWriter {
  /** Writes some of the bytes and tells how many. */
  write(bytes: Uint8Array): Promise<number>;
}

/** Options of {@linkcode runCli}. */
export interface RunCliOptions {
  /**
   * The directory relative roots resolve against, and the default root; relative file paths
   * resolve against it too when it lies inside a root (else against the first root).
   * @default {the caller's directory (`INIT_CWD` under `deno task`, else `Deno.cwd()`)}
   */
  cwd?: string;
  /**
   * Standard output: the tool's content, or the JSON of the result.
   * @default {Deno.stdout}
   */
  stdout?: CliWriter;
  /**
   * Standard error: usage, problems and token counts.
   * @default {Deno.stderr}
   */
  stderr?: CliWriter;
  /**
   * Standard input, read for an argument given as `-`.
   * @default {Deno.stdin.readable}
   */
  stdin?: ReadableStream<Uint8Array>;
  /**
   * Whether stdout is a terminal: then a newline follows content that lacks one.
   * @default {Deno.stdout.isTerminal() when stdout is Deno.stdout, else false}
   */
  terminal?: boolean;
}

/** The version `--version` prints: the package's. */
export const CLI_VERSION: string = packageConfig.version;

/** Exit status: the tool succeeded. */
export const EXIT_OK = 0;
/**
 * Exit status: the tool failed, or was unknown; its `Error: …` text was printed. 2, as `rg`
 * exits on an error (issue 34 item 8), so that 1 means only "found nothing".
 */
export const EXIT_TOOL_ERROR = 2;
/** Exit status: a `grep` or `glob` ran and found nothing, as with `rg`. */
export const EXIT_NO_MATCH = 1;
/** Exit status: the tool did not run (usage, options, roots or session file). */
export const EXIT_USAGE = 2;

/**
 * Runs the CLI on a command line and returns its exit status (it never calls `Deno.exit`).
 *
 * @param argv The arguments after the program name.
 * @param options Where to read and write, and the caller's directory.
 * @returns 0 (success), 1 (a `grep`/`glob` that found nothing) or 2 (the tool failed or did
 *   not run).
 *
 * @example
 * ```ts ignore
 * import { runCli } from "@toolfs/fs/cli";
 *
 * Deno.exitCode = await runCli(["list"]);
 * ```
 */
export async function runCli(
  argv: readonly string[],
  options: RunCliOptions = {},
): Promise<number> {
  const stdout = options.stdout ?? Deno.stdout;
  const stderr = options.stderr ?? Deno.stderr;
  const terminal = options.terminal ??
    (options.stdout === undefined && Deno.stdout.isTerminal());
  /** The text as printed: a newline is added only on a terminal. */
  const terminated = (text: string): string =>
    terminal && !text.endsWith("\n") ? `${text}\n` : text;
  const cwd = options.cwd ?? callerDirectory();
  const command = parseCli(argv);
  if (command.kind === "help") {
    let text: string;
    try {
      text = usageOf(command.tools);
    } catch (error) {
      await writeAll(stderr, `toolfs: ${message(error)}\n`);
      return EXIT_USAGE;
    }
    await writeAll(stdout, `${text}\n`);
    return EXIT_OK;
  }
  if (command.kind === "version") {
    await writeAll(stdout, `toolfs ${CLI_VERSION}\n`);
    return EXIT_OK;
  }
  const problem = async (text: string, usage?: string): Promise<number> => {
    await writeAll(stderr, `toolfs: ${text}${usage ? `\n${usage}` : ""}\n`);
    return EXIT_USAGE;
  };
  if (command.kind === "usage") return problem(command.problem, usageOf());

  const config = command.config as Partial<FsToolsConfig>;
  const served = (command.tools ?? SERVED_TOOLS) as readonly FsToolName[];
  let definitions: readonly FsToolDefinition[];
  try {
    definitions = toolDefinitions({ config, tools: served });
  } catch (error) {
    return problem(message(error));
  }
  const definition = definitions.find((d) => d.name === command.tool);
  if (!definition) {
    // What the model would see (C12.2), not the usage; an error, so exit 2 (issue 32 item 6).
    const content = renderError(unknownToolMessage(command.tool, definitions.map((d) => d.name)));
    const result = { content, isError: true, error: { name: "FsError", code: "FS_UNKNOWN_TOOL" } };
    const json = command.json || command.rest.includes("--json") || command.rest.includes("-j");
    await writeAll(stdout, json ? `${JSON.stringify(result, null, 2)}\n` : terminated(content));
    return EXIT_TOOL_ERROR;
  }
  const parsed = parseToolArgs(command.rest, definition);
  if (typeof parsed === "string") return problem(parsed, usageOf(command.tools));
  if (parsed.flags.includes("help")) {
    await writeAll(stdout, `${usageOf(command.tools)}\n`);
    return EXIT_OK;
  }
  const policy = command.policy && !parsed.flags.includes("no-policy");
  let tools: FsTools;
  let session: SessionFile | undefined;
  try {
    session = command.session ? await SessionFile.load(resolve(cwd, command.session)) : undefined;
    const fs = new LocalFileSystem({ roots: rootsOf(command, cwd) });
    tools = createFsTools({
      fs,
      cwd: insideRoots(fs, cwd) ? cwd : undefined,
      policy: policy ? session?.policy ?? true : false,
      config,
      tools: served,
    });
  } catch (error) {
    return problem(message(error));
  }
  const json = command.json || parsed.flags.includes("json");
  const tokens = command.tokens || parsed.flags.includes("tokens");
  let args: Record<string, unknown> = parsed.args;
  if (parsed.stdinKey !== undefined) {
    const input = await new Response(options.stdin ?? Deno.stdin.readable).text();
    if (parsed.stdinKey === "") {
      let object: unknown;
      try {
        object = JSON.parse(input);
      } catch (error) {
        return problem(`${command.tool} arguments from stdin: not valid JSON: ${message(error)}`);
      }
      if (typeof object !== "object" || object === null || Array.isArray(object)) {
        return problem(`${command.tool} arguments from stdin: expected a JSON object`);
      }
      args = { ...object, ...args };
    } else args = { ...args, [parsed.stdinKey]: input };
  }

  const result = await tools.execute(command.tool, args, { session: session?.session });
  if (session && !result.isError) {
    try {
      await session.save();
    } catch (error) {
      await writeAll(stderr, `toolfs: ${message(error)}\n`);
    }
  }
  await writeAll(
    stdout,
    json ? `${JSON.stringify(result, null, 2)}\n` : terminated(result.content),
  );
  if (tokens) {
    const counts = await countCliTokens(result.content);
    await writeAll(stderr, `tokens: ${counts.deepseek_v3} deepseek_v3, ${counts.o200k} o200k\n`);
  }
  if (result.isError) return EXIT_TOOL_ERROR;
  return foundNothing(command.tool, result.value) ? EXIT_NO_MATCH : EXIT_OK;
}

/**
 * The usage text: the tools `--tools` named, or every tool, those not offered by default
 * marked as such (issue 32 item 6: `patch` is listed).
 */
function usageOf(tools?: readonly string[]): string {
  if (tools) return cliUsage(toolDefinitions({ tools: tools as FsToolName[] }));
  const all = toolDefinitions({ tools: TOOL_NAMES });
  const optIn = TOOL_NAMES.filter((name) => !SERVED_TOOLS.includes(name));
  return cliUsage(all, { optIn });
}

/** Whether a `grep` or `glob` found nothing (exit 1, as `rg`, `grep` and `fd` do). */
function foundNothing(tool: string, value: unknown): boolean {
  if (tool === "grep") return (value as GrepValue).totalMatches === 0;
  if (tool === "glob") return (value as GlobValue).total === 0;
  return false;
}

/** Whether a directory lies inside a root (then relative paths resolve against it). */
function insideRoots(fs: LocalFileSystem, dir: string): boolean {
  let real: string;
  try {
    real = Deno.realPathSync(dir);
  } catch {
    return false;
  }
  return findRoot(fs.roots, real) !== undefined;
}

function rootsOf(command: CliRun, cwd: string): RootSpec[] {
  if (command.roots.length > 0) {
    return command.roots.map((r) =>
      r.write ? resolve(cwd, r.path) : { path: resolve(cwd, r.path), write: false }
    );
  }
  const writable = Deno.permissions.querySync({ name: "write", path: cwd }).state === "granted";
  return [writable ? cwd : { path: cwd, write: false }];
}

/**
 * The directory the user ran the command from: `deno task` runs in the config's directory and
 * keeps the caller's in `INIT_CWD`, read only when that variable is permitted.
 */
function callerDirectory(): string {
  const permission = Deno.permissions.querySync({ name: "env", variable: "INIT_CWD" });
  const init = permission.state === "granted" ? Deno.env.get("INIT_CWD") : undefined;
  return init || Deno.cwd();
}

async function writeAll(writer: CliWriter, text: string): Promise<void> {
  let bytes = new TextEncoder().encode(text);
  try {
    while (bytes.length > 0) bytes = bytes.subarray(await writer.write(bytes));
  } catch (error) {
    // A reader that went away (`toolfs read big.log | head -1`) is not an error of ours.
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

if (import.meta.main) Deno.exitCode = await runCli(Deno.args);
