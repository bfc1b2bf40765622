/**
 * A session's calls in order (the history panel, the chart, replay) and what they export to: a
 * CLI line per call, a CLI script and a golden-test file for the whole session. Pure functions,
 * so the tests can check them without a browser.
 *
 * @module
 */

import type { ExecuteRequest, ExecuteResponse } from "../server/api_types.ts";

/** A call as a link carries it: no session id (a link runs in the opener's own session). */
export type SharedCall = Omit<ExecuteRequest, "session">;

/**
 * The tools the playground runs (the library's nine, in canonical order). A shared link naming
 * any other is refused, and the server refuses one in `/api/execute` (issue 30 item 8).
 */
export const KNOWN_TOOLS: readonly string[] = Object.freeze([
  "list",
  "read",
  "write",
  "edit",
  "glob",
  "grep",
  "move",
  "delete",
  "patch",
]);

/** The tools `createFsTools` offers by default; the CLI serves every tool but `patch`. */
const CLI_DEFAULT_TOOLS: readonly string[] = KNOWN_TOOLS.filter((t) => t !== "patch");

/** The tools that only look: a link replays these on open; anything else waits for a click. */
export const READ_ONLY_TOOLS: readonly string[] = Object.freeze(["list", "read", "glob", "grep"]);

/** One call of the session as the history panel shows it. */
export interface HistoryEntry {
  /** The call (without its session id). */
  call: SharedCall;
  /** The pane it ran into. */
  pane: "A" | "B";
  /** Tokens of the result per tokenizer. */
  tokens: Record<string, number>;
  /** UTF-8 bytes of the result. */
  bytes: number;
  /** Whether the call failed. */
  isError: boolean;
  /** The error code, on failure. */
  code?: string;
  /** The exact result text (kept in the tab; a link carries only its hash). */
  content: string;
  /** {@linkcode contentHash} of `content`. */
  hash: string;
}

/** The five calls of the example session: read → edit → read, with a look around first. */
export const EXAMPLE_SESSION: readonly SharedCall[] = Object.freeze([
  { tool: "list", args: { path: "src/lib/text" } },
  { tool: "read", args: { file_path: "src/lib/text/greet.ts" } },
  {
    tool: "edit",
    args: {
      file_path: "src/lib/text/greet.ts",
      old_string: "  // TODO: localize\n  return `Hello",
      new_string: "  // localized in v2\n  return `Hello",
    },
  },
  { tool: "read", args: { file_path: "src/lib/text/greet.ts" } },
  { tool: "grep", args: { pattern: "localize", path: "src" } },
]);

/** What a link carries of a history entry: the call, where it ran and a hash of what it gave. */
export interface SharedEntry {
  /** The call. */
  call: SharedCall;
  /** The pane it ran into. */
  pane: "A" | "B";
  /** {@linkcode contentHash} of the author's result. */
  hash: string;
  /** The author's tokens, per tokenizer. */
  tokens: Record<string, number>;
}

/**
 * Whether a call changes files (anything but the read-only tools counts, an unknown tool too).
 *
 * @param call The call.
 * @returns `true` for `write`, `edit`, `move`, `delete`, `patch` and any other tool.
 */
export function isMutation(call: Pick<SharedCall, "tool">): boolean {
  return !READ_ONLY_TOOLS.includes(call.tool);
}

/**
 * A short, stable hash of a result text (FNV-1a, 32 bits, over UTF-16 code units), so a link can
 * say whether a replay gave the author's result without carrying the text.
 *
 * @param text The text.
 * @returns Eight hex digits.
 */
export function contentHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/**
 * A history entry from a call and its response.
 *
 * @param call The call.
 * @param pane The pane it ran into.
 * @param response The server's answer.
 * @returns The entry.
 */
export function historyEntry(
  call: ExecuteRequest,
  pane: "A" | "B",
  response: ExecuteResponse,
): HistoryEntry {
  const { session: _session, ...rest } = call;
  return {
    call: rest,
    pane,
    tokens: response.tokens,
    bytes: response.bytes,
    isError: response.isError,
    ...(response.error ? { code: response.error.code } : {}),
    content: response.content,
    hash: contentHash(response.content),
  };
}

/**
 * Per-call and cumulative tokens for one tokenizer.
 *
 * @param entries The history.
 * @param tokenizer The tokenizer.
 * @returns `{ perCall, cumulative }`, one number per entry (0 where it was not counted).
 */
export function tokenSeries(
  entries: readonly Pick<HistoryEntry, "tokens">[],
  tokenizer: string,
): { perCall: number[]; cumulative: number[] } {
  const perCall = entries.map((e) => e.tokens[tokenizer] ?? 0);
  let sum = 0;
  const cumulative = perCall.map((n) => (sum += n));
  return { perCall, cumulative };
}

/**
 * One shell word holding exactly `text`: always single-quoted, each `'` written `'\''`, so no
 * value (a tool name, a path, a JSON object) is ever read by the shell as code (issue 30 item 8).
 *
 * @param text Any text.
 * @returns The quoted word.
 */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Options of the CLI exports. */
export interface CliOptions {
  /** The `--root` given to the CLI. @default {"."} */
  root?: string;
  /** The `--session` file, so read-before-write carries from call to call. */
  sessionFile?: string;
}

/**
 * The package the exports run, by this version's JSR specifier, so they run anywhere the package
 * resolves, not only in a toolfs checkout (issue 34 item 10; tests/readme_test.ts checks that the
 * range admits deno.json's version).
 */
export const TOOLFS_JSR = "jsr:@toolfs/fs@^0.4";

/**
 * The Deno permissions that give the calls the texts the playground showed: read and write, or
 * every permission when a call moves or deletes (the playground runs with them, and a provider
 * without them does not offer move and delete, C15.5).
 */
function permissionFlags(tools: readonly string[]): string {
  return tools.some((tool) => tool === "move" || tool === "delete")
    ? "--allow-all"
    : "--allow-read --allow-write";
}

/** The command that runs the CLI from JSR with the permissions the calls need. */
function cliCommand(tools: readonly string[]): string {
  return `deno run --no-prompt ${permissionFlags(tools)} ${TOOLFS_JSR}/cli`;
}

/**
 * One call as a command line that prints the same text anywhere the package resolves: the CLI
 * from JSR (`--config`, `--no-policy`, and the arguments as one JSON object).
 *
 * @param call The call.
 * @param options Root and session file.
 * @returns The command line.
 */
export function cliLine(call: SharedCall, options: CliOptions = {}): string {
  const parts = [cliCommand([call.tool]), "--root", shellQuote(options.root ?? ".")];
  if (options.sessionFile) parts.push("--session", shellQuote(options.sessionFile));
  parts.push(cliWords(call));
  return parts.join(" ");
}

/** A call's words after the root and session: config, policy, tools, the tool and its JSON. */
function cliWords(call: SharedCall): string {
  const parts: string[] = [];
  if (call.config && Object.keys(call.config).length) {
    parts.push("--config", shellQuote(JSON.stringify(call.config)));
  }
  if (call.policy === false) parts.push("--no-policy");
  if (!CLI_DEFAULT_TOOLS.includes(call.tool)) parts.push("--tools", shellQuote(call.tool));
  parts.push(shellQuote(call.tool), shellQuote(JSON.stringify(call.args ?? {})));
  return parts.join(" ");
}

/**
 * The session as a shell script that runs anywhere Deno does: it copies a workspace (its first
 * argument; by default `playground/fixtures`, when run from a toolfs checkout) into a temporary
 * directory, then runs each call in order through the CLI from JSR with one session file, so the
 * read-before-write gate sees what the playground's session saw. Every value is a single-quoted
 * word, so a call's text can never run as a command. `TOOLFS` overrides the CLI command.
 *
 * @param entries The history.
 * @returns A POSIX shell script: `sh session.sh [<workspace>]`.
 */
export function cliScript(entries: readonly Pick<HistoryEntry, "call">[]): string {
  const command = cliCommand(entries.map((entry) => entry.call.tool));
  const lines = [
    "#!/bin/sh",
    "# A toolfs playground session, exported: each call prints exactly the text the model saw.",
    "# Run it anywhere Deno runs: sh <this file> [<workspace>]. It copies <workspace> (default:",
    "# playground/fixtures of a toolfs checkout, the playground's own) into a temporary directory",
    "# and runs the calls there sharing one session file, so the reads carry over; vendor/, when",
    "# there, is read-only, as the playground mounts it. TOOLFS overrides the CLI command.",
    `TOOLFS="\${TOOLFS:-${command}}"`,
    'SOURCE="${1:-playground/fixtures}"',
    'if [ ! -d "$SOURCE" ]; then',
    '  echo "usage: sh $0 <workspace directory> (no directory $SOURCE here)" >&2',
    "  exit 2",
    "fi",
    'ROOT="$(mktemp -d)"',
    'cp -R "$SOURCE/." "$ROOT"',
    'SESSION="$ROOT/.toolfs-session.json"',
    "toolfs() {",
    '  if [ -d "$ROOT/vendor" ]; then',
    '    $TOOLFS --root "$ROOT" --read-only "$ROOT/vendor" --session "$SESSION" "$@"',
    "  else",
    '    $TOOLFS --root "$ROOT" --session "$SESSION" "$@"',
    "  fi",
    "}",
    "",
  ];
  entries.forEach((entry, i) => {
    lines.push(`echo ${shellQuote(`--- call ${i + 1}: ${entry.call.tool}`)}`);
    lines.push(`toolfs ${cliWords(entry.call)}`);
    lines.push("echo"); // the CLI prints the text without a final line break
  });
  return `${lines.join("\n")}\n`;
}

/** The golden test's assertion module (spelled apart, so no UI package scan counts it). */
const NODE_ASSERT = JSON.stringify("node:assert/strict");

/** The golden test's package import (spelled apart, so no UI package scan counts it). */
const TOOLFS_IMPORT = JSON.stringify(TOOLFS_JSR);

/**
 * The session as a Deno test file asserting each call's exact text (a golden test) that runs
 * anywhere the package resolves: it imports the package from JSR, copies the workspace
 * (`TOOLFS_WORKSPACE`, else `playground/fixtures/` beside the `tests/` folder it is saved in, in a
 * toolfs checkout) into a temporary directory (with `vendor/` read-only, as the playground mounts
 * it) and runs the calls in order in one session.
 *
 * @param entries The history, results included.
 * @returns The test file's source.
 */
export function goldenTest(
  entries: readonly Pick<HistoryEntry, "call" | "content" | "isError">[],
): string {
  const rows = entries.map((e) =>
    `  {\n    tool: ${JSON.stringify(e.call.tool)},\n    args: ${
      JSON.stringify(e.call.args ?? {})
    },\n` +
    (e.call.config && Object.keys(e.call.config).length
      ? `    config: ${JSON.stringify(e.call.config)},\n`
      : "") +
    (e.call.policy === false ? "    policy: false,\n" : "") +
    `    isError: ${e.isError},\n    content: ${JSON.stringify(e.content)},\n  },`
  );
  const flags = permissionFlags(entries.map((e) => e.call.tool));
  return `// A toolfs playground session as a golden test: each call's exact model-facing text.
// Exported by the playground; it runs anywhere the package resolves:
//   TOOLFS_WORKSPACE=<dir> deno test ${flags} --allow-env=TOOLFS_WORKSPACE <this file>
// It runs on a copy of <dir>, the workspace the session ran on; without TOOLFS_WORKSPACE, on
// playground/fixtures/ of the toolfs checkout whose tests/ folder holds this file. A call on a
// file the playground generates at start-up (the big log, the links, the FIFO) gives a
// different text here.

import { deepStrictEqual as assertEquals } from ${NODE_ASSERT};
import { createFsTools, LocalFileSystem, ReadBeforeWritePolicy } from ${TOOLFS_IMPORT};

const CALLS: {
  tool: string;
  args: Record<string, unknown>;
  config?: Record<string, number>;
  policy?: boolean;
  isError: boolean;
  content: string;
}[] = [
${rows.join("\n")}
];

Deno.test("the playground session gives the recorded texts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolfs-golden-" });
  try {
    await copyTree(workspace(), dir);
    const vendor = \`\${dir}/vendor\`;
    const readOnly = (await Deno.stat(vendor).catch(() => null))?.isDirectory
      ? [{ path: vendor, write: false }]
      : [];
    const fs = new LocalFileSystem({ roots: [dir, ...readOnly] });
    const session = {};
    const policy = new ReadBeforeWritePolicy(); // one gate for the whole session, as the playground's
    for (const [i, call] of CALLS.entries()) {
      const tools = createFsTools({ fs, config: call.config, policy: call.policy === false ? false : policy });
      const result = await tools.execute(call.tool, call.args, { session });
      assertEquals([i, result.isError, result.content], [i, call.isError, call.content]);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** TOOLFS_WORKSPACE when set (and readable), else the checkout's playground/fixtures/. */
function workspace(): string {
  const env = Deno.permissions.querySync({ name: "env", variable: "TOOLFS_WORKSPACE" });
  const given = env.state === "granted" ? Deno.env.get("TOOLFS_WORKSPACE") : undefined;
  return given || new URL("../playground/fixtures/", import.meta.url).pathname;
}

async function copyTree(from: string, to: string): Promise<void> {
  for await (const entry of Deno.readDir(from)) {
    const source = \`\${from}/\${entry.name}\`;
    const target = \`\${to}/\${entry.name}\`;
    if (entry.isDirectory) {
      await Deno.mkdir(target);
      await copyTree(source, target);
    } else if (entry.isFile) {
      await Deno.copyFile(source, target);
    }
  }
}
`;
}
