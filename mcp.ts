/**
 * An MCP server for the four toolfs tools, over stdio.
 *
 * Run it with the roots it may touch; the first root is the session's working directory.
 * Narrow Deno permissions to those roots:
 *
 * ```sh
 * deno run --allow-read=/abs/project --allow-write=/abs/project jsr:@toolfs/fs/mcp /abs/project
 * ```
 *
 * `--read-only <dir>` adds a root the tools may list and read but never change (it then needs
 * only `--allow-read`). The server's `instructions` carry the tools' guidance; `tools/list`
 * returns their schemas with annotations; a `tools/call` result's text is exactly what the
 * model should see, `isError` mirrors the tool, and `structuredContent` carries the value.
 * One MCP connection is one session for the read-before-write policy.
 *
 * @example Embed the server in your own process
 * ```ts ignore
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import { createMcpServer } from "@toolfs/fs/mcp";
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 *
 * const tools = createFsTools({ fs: new LocalFileSystem({ roots: ["./workspace"] }) });
 * await createMcpServer(tools).connect(new StdioServerTransport());
 * ```
 *
 * @module
 */

import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { Server } from "@modelcontextprotocol/sdk/server";
// The SDK's `*.js` subpaths have no types under Deno's resolution; point at their `.d.ts`.
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  createFsTools,
  type FsTools,
  type FsToolsConfig,
  LocalFileSystem,
  type RootSpec,
  systemPrompt,
} from "./mod.ts";
import { toMcpCallResult, toMcpTools } from "./formats.ts";

/** The server's name in the MCP `initialize` handshake. */
export const MCP_SERVER_NAME = "toolfs";

/** The server's version in the MCP `initialize` handshake. */
export const MCP_SERVER_VERSION = "0.1.0";

/** Options of {@linkcode createMcpServer}. */
export interface McpServerOptions {
  /**
   * The server name sent in the handshake.
   * @default {"toolfs"}
   */
  name?: string;
  /**
   * Put the tools' guidance in the handshake's `instructions` (clients that honour them add
   * it to the system prompt).
   * @default {true}
   */
  instructions?: boolean;
}

/** Options of {@linkcode serveStdio}. */
export interface ServeStdioOptions extends McpServerOptions {
  /** The session directory; relative resolves against the first root. @default {the first root} */
  cwd?: string;
  /**
   * The read-before-write policy.
   * @default {true}
   */
  policy?: boolean;
  /** Overrides of the caps (C2). */
  config?: Partial<FsToolsConfig>;
}

/**
 * Creates an MCP server (the SDK's low-level `Server`) that serves the given tools with exactly
 * their JSON Schemas. Each connection (each `initialize`) starts a fresh session, so reads made
 * over one connection never allow writes over another.
 *
 * @param tools The tools, from `createFsTools`.
 * @param options Name and instructions.
 * @returns The server, not yet connected.
 *
 * @example
 * ```ts ignore
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import { createMcpServer } from "@toolfs/fs/mcp";
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 *
 * const tools = createFsTools({ fs: new LocalFileSystem({ roots: ["."] }) });
 * await createMcpServer(tools).connect(new StdioServerTransport());
 * ```
 */
export function createMcpServer(tools: FsTools, options: McpServerOptions = {}): Server {
  const instructions = options.instructions === false ? undefined : systemPrompt(tools.definitions);
  const server = new Server(
    { name: options.name ?? MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions },
  );
  const list = toMcpTools(tools.definitions);
  let session = {};
  server.oninitialized = () => {
    session = {};
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: structuredClone(list) }));
  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra) => {
      const { name, arguments: args } = request.params;
      const result = await tools.execute(name, args ?? {}, { session, signal: extra.signal });
      return toMcpCallResult(result);
    },
  );
  return server;
}

/**
 * Serves the tools on the given roots over this process's stdin and stdout.
 *
 * @param roots The roots (at least one); the first is the session directory.
 * @param options Session directory, policy, caps, name and instructions.
 * @returns The connected server; it runs until stdin closes.
 * @throws {Error} When a root is missing, not a directory or lacks a Deno permission.
 *
 * @example
 * ```ts ignore
 * import { serveStdio } from "@toolfs/fs/mcp";
 *
 * await serveStdio(["./workspace", { path: "/usr/share/doc", write: false }]);
 * ```
 */
export async function serveStdio(
  roots: readonly RootSpec[],
  options: ServeStdioOptions = {},
): Promise<Server> {
  const fs = new LocalFileSystem({ roots });
  const tools = createFsTools({
    fs,
    cwd: options.cwd,
    policy: options.policy,
    config: options.config,
  });
  const server = createMcpServer(tools, options);
  await server.connect(new StdioServerTransport());
  return server;
}

const USAGE = `usage: deno run --allow-read=<roots> --allow-write=<roots> jsr:@toolfs/fs/mcp \\
         [--read-only <dir>]... <root>...

Serves the toolfs list, read, write and edit tools over MCP on stdio. Every <root> is readable
and writable; --read-only adds a root that is never written. The first root given is the
session's working directory.`;

/** Roots from the command line, in the order given, or the usage problem. */
function parseRoots(
  args: string[],
  base: string | undefined,
): { roots: RootSpec[] } | { problem: string } | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        "read-only": { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
  if (parsed.values.help) return "help";
  const at = (path: string): string => base && path !== "" ? resolve(base, path) : path;
  const roots: RootSpec[] = [];
  for (const token of parsed.tokens) {
    if (token.kind === "positional") roots.push(at(token.value));
    if (token.kind === "option" && token.name === "read-only" && token.value !== undefined) {
      roots.push({ path: at(token.value), write: false });
    }
  }
  return roots.length === 0 ? { problem: "no roots given" } : { roots };
}

/**
 * The directory relative roots resolve against: `deno task` runs in the config's directory and
 * keeps the caller's in `INIT_CWD`, read only when that variable is permitted.
 */
function callerDirectory(): string | undefined {
  const permission = Deno.permissions.querySync({ name: "env", variable: "INIT_CWD" });
  return permission.state === "granted" ? Deno.env.get("INIT_CWD") || undefined : undefined;
}

async function main(args: string[]): Promise<void> {
  const parsed = parseRoots(args, callerDirectory());
  if (parsed === "help") {
    console.error(USAGE);
    return;
  }
  if ("problem" in parsed) {
    console.error(`toolfs mcp: ${parsed.problem}\n${USAGE}`);
    Deno.exit(2);
  }
  try {
    await serveStdio(parsed.roots);
  } catch (error) {
    console.error(`toolfs mcp: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}

if (import.meta.main) await main(Deno.args);
