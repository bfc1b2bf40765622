/**
 * An MCP server for the toolfs tools, over stdio or Streamable HTTP.
 *
 * Run it with the roots it may touch (or none, to take the client's roots); the first root in
 * force is the session's working directory. Narrow Deno permissions to those roots:
 *
 * ```sh
 * deno run --no-prompt --allow-read=/abs/project --allow-write=/abs/project \
 *   jsr:@toolfs/fs@^0.2/mcp /abs/project
 * ```
 *
 * - `--read-only <dir>` adds a root the tools may list and read but never change.
 * - When the client declares the MCP `roots` capability, its roots are used: all of them when
 *   no directory is on the command line, else those inside the command-line roots (C13.2).
 * - A `tools/call` result is one text item that is exactly what the model should see, and
 *   `isError`; `--structured` adds `structuredContent` and `outputSchema` (C13.1).
 * - `--http [host:]port` serves Streamable HTTP at `/mcp` with a bearer token (C13.3).
 * - One MCP session is one session for the read-before-write policy.
 *
 * @example Serve a directory over stdio from your own process
 * ```ts ignore
 * import { serveStdio } from "@toolfs/fs/mcp";
 *
 * const serving = await serveStdio(["./workspace"]);
 * await serving.finished;
 * ```
 *
 * @module
 */

import { resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  type ListToolsResult,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "npm:@modelcontextprotocol/server@2.4.0";
import {
  createFsTools,
  type FsToolName,
  type FsTools,
  type FsToolsConfig,
  LocalFileSystem,
  ReadBeforeWritePolicy,
  type RootSpec,
  systemPrompt,
} from "./mod.ts";
import { toMcpCallResult, toMcpTools } from "./formats.ts";
import { LineTransport } from "./src/mcp/line_transport.ts";
import { toolDefinitions } from "./src/tools/tools.ts";
import { SERVED_TOOLS } from "./src/present/specs/mod.ts";
import type { RootAccess } from "./src/types.ts";
import {
  clientRootPaths,
  directoryIdentity,
  rootsInForce,
  type RootsSource,
} from "./src/mcp/roots.ts";
import { generateToken, guardRequest, isLoopback, parseListen } from "./src/mcp/http_guard.ts";
import { serveBounded } from "./src/mcp/bounded_serve.ts";
import { outputSchemaFor } from "./src/mcp/output_schemas.ts";
import { withProgress } from "./src/mcp/progress.ts";
import {
  MCP_MAX_MESSAGE_BYTES,
  NO_ROOTS_MESSAGE,
  rootsInForceLine,
} from "./src/render/mcp_render.ts";

export type { FsToolName, FsToolsConfig, RootSpec } from "./mod.ts";

/** The server's name in the MCP `initialize` handshake. */
export const MCP_SERVER_NAME = "toolfs";

/** The server's version in the MCP `initialize` handshake. */
export const MCP_SERVER_VERSION = "0.3.0";

/** Options shared by {@linkcode serveStdio} and {@linkcode serveHttp}. */
export interface McpServerOptions {
  /**
   * The server name sent in the handshake.
   * @default {"toolfs"}
   */
  name?: string;
  /**
   * Put the tools' guidance and the workspace (the roots in force, C13.5) in the handshake's
   * `instructions` (clients that honour them add it to the system prompt).
   * @default {true}
   */
  instructions?: boolean;
  /**
   * Send each result's structured value as `structuredContent`, and `outputSchema` in
   * `tools/list`. Off by default: several clients then show the model the JSON instead of the
   * text (C13.1).
   * @default {false}
   */
  structured?: boolean;
  /**
   * The session directory while the command-line roots are in force; relative resolves against
   * the first root.
   * @default {the first root in force}
   */
  cwd?: string;
  /**
   * The read-before-write policy.
   * @default {true}
   */
  policy?: boolean;
  /** Overrides of the caps (C2). */
  config?: Partial<FsToolsConfig>;
  /**
   * The tools to serve (C15.1).
   * @default {every tool but patch}
   */
  tools?: readonly FsToolName[];
  /**
   * Where the server reports the roots in force and other events, one line each.
   * @default {console.error}
   */
  log?: (line: string) => void;
  /**
   * When a `tools/call` carries `_meta.progressToken`, milliseconds before the first
   * `notifications/progress` and between two, while the call (a long `grep` or `glob` walk)
   * runs.
   * @default {1000}
   */
  progressIntervalMs?: number;
}

/** Options of {@linkcode serveStdio}. */
export interface ServeStdioOptions extends McpServerOptions {
  /**
   * Where messages come from.
   * @default {Deno.stdin.readable}
   */
  input?: ReadableStream<Uint8Array>;
  /**
   * Where messages go.
   * @default {Deno.stdout.writable}
   */
  output?: WritableStream<Uint8Array>;
}

/** Options of {@linkcode serveHttp}. */
export interface ServeHttpOptions extends McpServerOptions {
  /**
   * The interface to listen on.
   * @default {"127.0.0.1"}
   */
  hostname?: string;
  /**
   * The TCP port; 0 picks a free one.
   * @default {0}
   */
  port?: number;
  /**
   * The bearer token every request must carry; `null` for none, allowed only on a loopback
   * host.
   * @default {a fresh random token}
   */
  token?: string | null;
  /** Host names clients may use besides the bound host and loopback (`Host`, `Origin`). */
  allowedHosts?: string[];
  /**
   * Milliseconds after its last request that a session is closed (a client that went away
   * without `DELETE` leaves one behind); its client then gets 404 and starts a new session.
   * @default {3600000}
   */
  sessionIdleMs?: number;
  /**
   * Sessions kept at most; a new one beyond it closes the least recently used (its client
   * gets 404 and starts a new session).
   * @default {256}
   */
  maxSessions?: number;
  /**
   * Open connections at most; one more is closed at once.
   * @default {256}
   */
  maxConnections?: number;
  /**
   * Milliseconds a connection may take to send a request's head before it is closed.
   * @default {10000}
   */
  headerTimeoutMs?: number;
}

/** A running server. */
export interface McpServing {
  /** Resolves when the server has stopped. */
  finished: Promise<void>;
  /** Stops the server: ends every session and, for HTTP, stops listening. */
  close(): Promise<void>;
}

/** A running HTTP server. */
export interface McpHttpServing extends McpServing {
  /** The endpoint, e.g. `http://127.0.0.1:8080/mcp`. */
  url: string;
  /** The bearer token requests need, or `null` with no authentication. */
  token: string | null;
}

/**
 * Serves the tools over MCP on this process's stdin and stdout (or the given streams).
 *
 * @param roots The command-line roots; may be empty when the client provides roots.
 * @param options Structured results, session directory, policy, caps, streams.
 * @returns The running server; it stops when its input ends.
 * @throws {Error} When a root is missing, not a directory or lacks a Deno permission.
 *
 * @example
 * ```ts ignore
 * import { serveStdio } from "@toolfs/fs/mcp";
 *
 * await (await serveStdio(["./workspace", { path: "/usr/share/doc", write: false }])).finished;
 * ```
 */
export async function serveStdio(
  roots: readonly RootSpec[],
  options: ServeStdioOptions = {},
): Promise<McpServing> {
  const workspace = new Workspace(roots, options);
  const transport = new LineTransport({
    input: options.input ?? Deno.stdin.readable,
    output: options.output ?? Deno.stdout.writable,
    maxMessageBytes: MCP_MAX_MESSAGE_BYTES,
  });
  const server = sessionServer(workspace, true);
  const { promise: finished, resolve: done } = Promise.withResolvers<void>();
  server.onclose = () => done();
  await server.connect(transport);
  return {
    finished,
    async close() {
      await server.close();
      await finished;
    },
  };
}

/**
 * Serves the tools over MCP Streamable HTTP at `/mcp`. Every request needs the bearer token
 * (unless `token: null` on loopback); a `Host` or `Origin` naming another host gets 403. Each
 * MCP session (`Mcp-Session-Id`) is its own read-before-write session.
 *
 * @param roots The command-line roots; may be empty when clients provide roots.
 * @param options Address, token, structured results, session directory, policy, caps.
 * @returns The running server, its URL and token.
 * @throws {Error} When a root is unusable, or `token: null` is asked for on a non-loopback host.
 *
 * @example
 * ```ts ignore
 * import { serveHttp } from "@toolfs/fs/mcp";
 *
 * const serving = await serveHttp(["./workspace"], { port: 8080 });
 * console.log(serving.url, serving.token);
 * ```
 */
export async function serveHttp(
  roots: readonly RootSpec[],
  options: ServeHttpOptions = {},
): Promise<McpHttpServing> {
  const hostname = options.hostname ?? "127.0.0.1";
  const token = options.token === undefined ? generateToken() : options.token;
  if (token === null && !isLoopback(hostname)) {
    throw new Error(`--no-auth is allowed only on a loopback host, not ${hostname}`);
  }
  const workspace = new Workspace(roots, options);
  const sessions = new Map<string, { server: Server; seen: number }>();
  const idleMs = options.sessionIdleMs ?? 3_600_000;
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      if (now - session.seen > idleMs) {
        sessions.delete(id);
        session.server.close().catch(() => {});
      }
    }
  }, Math.max(10, Math.min(idleMs / 2, 60_000)));
  Deno.unrefTimer(sweeper);
  const maxSessions = Math.max(1, options.maxSessions ?? 256);
  const hostnames = [hostname, ...(options.allowedHosts ?? [])];
  let port = 0;

  async function handle(request: Request): Promise<Response> {
    const refused = guardRequest(request, { hostnames, token, port });
    if (refused) return refused;
    if (new URL(request.url).pathname !== "/mcp") {
      return new Response("not found: the MCP endpoint is /mcp\n", { status: 404 });
    }
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = sessions.get(id);
      if (!session) return jsonRpcError(404, -32001, "session not found: initialize again");
      session.seen = Date.now();
      // Most recently used last: the first entry is the one a new session evicts.
      sessions.delete(id);
      sessions.set(id, session);
      return await (session.server.transport as WebStandardStreamableHTTPServerTransport)
        .handleRequest(request);
    }
    const server = sessionServer(workspace, false);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId) => {
        while (sessions.size >= maxSessions) {
          const [oldest, evicted] = sessions.entries().next().value!;
          sessions.delete(oldest);
          evicted.server.close().catch(() => {});
        }
        sessions.set(sessionId, { server, seen: Date.now() });
      },
      maxRequestBodySize: MCP_MAX_MESSAGE_BYTES,
    });
    server.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (transport.sessionId === undefined) await server.close();
    return response;
  }

  const http = await serveBounded({
    hostname,
    port: options.port ?? 0,
    maxConnections: options.maxConnections,
    headerTimeoutMs: options.headerTimeoutMs,
    onError: (error) => {
      workspace.log(`toolfs mcp: ${message(error)}`);
      return jsonRpcError(500, -32603, "internal error");
    },
    log: (line) => workspace.log(`toolfs mcp: ${line}`),
  }, handle);
  const addr = http.addr;
  port = addr.port;
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${addr.port}/mcp`,
    token,
    finished: http.finished,
    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        await Promise.allSettled([...sessions.values()].map(({ server }) => server.close()));
        sessions.clear();
        await http.shutdown();
      })();
      return closing;
    },
  };
}

/** Tools and the roots their provider holds (what the log reports as in force). */
interface ToolsInForce {
  tools: FsTools | null;
  roots: RootAccess[];
}

/** The roots, tools and policy all sessions of one server share. */
class Workspace {
  readonly cli: RootAccess[];
  readonly options: McpServerOptions;
  readonly log: (line: string) => void;
  readonly policy: ReadBeforeWritePolicy | false;
  /** The definitions, which depend on the config only. */
  readonly definitions: FsTools["definitions"];
  #tools = new Map<string, ToolsInForce>();

  constructor(roots: readonly RootSpec[], options: McpServerOptions) {
    this.options = options;
    this.log = options.log ?? ((line) => console.error(line));
    this.policy = options.policy === false ? false : new ReadBeforeWritePolicy();
    if (roots.length > 0) {
      const fs = new LocalFileSystem({ roots });
      this.cli = fs.roots.map((r) => ({ path: r.path, write: r.writable }));
      const k = JSON.stringify(this.cli.map((r) => [r.path, r.write, directoryIdentity(r.path)]));
      this.#tools.set(k, { tools: this.#create(fs, true), roots: this.cli });
    } else {
      this.cli = [];
    }
    this.definitions = toolDefinitions({
      config: options.config,
      tools: options.tools ?? SERVED_TOOLS,
    });
  }

  /**
   * The tools on the given roots (`null` when none of them can be used) and the roots they
   * hold. A root is handed to the provider as the real path that was checked, and the provider
   * is kept only when the roots it resolved are those very paths, holding the directories of
   * `ids` (the identities they were checked with): a directory swapped for a link between the
   * check and the provider is refused, never resolved to somewhere else (issue 19). Cached by
   * path, access and identity (device and inode), so a later session never inherits a root
   * that changed since.
   */
  toolsFor(
    roots: readonly RootAccess[],
    fromCli: boolean,
    ids: ReadonlyMap<string, string> = new Map(),
  ): ToolsInForce {
    const idOf = (path: string) => ids.get(path) ?? directoryIdentity(path);
    const k = JSON.stringify(roots.map((root) => [root.path, root.write, idOf(root.path)]));
    const cached = this.#tools.get(k);
    if (cached) return cached;
    let fs: LocalFileSystem | null = null;
    let complete = false;
    if (roots.length > 0) {
      try {
        fs = this.#checked(roots, idOf);
        complete = true;
      } catch {
        const usable = roots.filter((root) => {
          try {
            this.#checked([root], idOf);
            return true;
          } catch (error) {
            this.log(`toolfs mcp: root ${root.path} left out: ${message(error)}`);
            return false;
          }
        });
        if (usable.length > 0) {
          try {
            fs = this.#checked(usable, idOf);
          } catch (error) {
            this.log(`toolfs mcp: roots left out: ${message(error)}`);
          }
        }
      }
    }
    const inForce: ToolsInForce = fs
      ? {
        tools: this.#create(fs, fromCli),
        roots: fs.roots.map((root) => ({ path: root.path, write: root.writable })),
      }
      : { tools: null, roots: [] };
    // A root left out may be usable next time (it was being swapped, say): not cached.
    if (complete || roots.length === 0) this.#tools.set(k, inForce);
    return inForce;
  }

  /** A provider on `roots`, refused unless it holds exactly the checked directories. */
  #checked(
    roots: readonly RootAccess[],
    idOf: (path: string) => string | null,
  ): LocalFileSystem {
    const expected = roots.map((root) => idOf(root.path));
    const fs = new LocalFileSystem({ roots });
    fs.roots.forEach((held, i) => {
      const want = roots[i].path;
      if (held.path !== want || expected[i] === null || directoryIdentity(want) !== expected[i]) {
        throw new Error(`${JSON.stringify(want)} changed while it was checked: refused`);
      }
    });
    return fs;
  }

  #create(fs: LocalFileSystem, fromCli: boolean): FsTools {
    return createFsTools({
      fs,
      cwd: fromCli ? this.options.cwd : undefined,
      policy: this.policy,
      config: this.options.config,
      tools: this.options.tools ?? SERVED_TOOLS,
    });
  }
}

/** How long the server waits for the client's `roots/list` answer. */
const ROOTS_TIMEOUT_MS = 10_000;

/** One MCP session: its own policy session, roots in force and tools. */
function sessionServer(workspace: Workspace, eagerRoots: boolean): Server {
  const { options } = workspace;
  const server = new Server(
    { name: options.name ?? MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: options.instructions === false ? undefined : instructionsOf(workspace),
    },
  );
  const list = toMcpTools(workspace.definitions).map((tool) =>
    options.structured ? { ...tool, outputSchema: outputSchemaFor(tool.name) } : tool
  );
  let session = {};
  let tools: FsTools | null = workspace.toolsFor(workspace.cli, true).tools;
  let pending: Promise<void> | null = null;
  /** The client has roots the server has not fetched yet. */
  let stale = false;
  let logged = "";
  let current: { roots: readonly RootAccess[]; source: RootsSource } = {
    roots: workspace.cli,
    source: "command line",
  };
  const report = (roots: readonly RootAccess[], source: RootsSource) => {
    current = { roots, source };
    const line = rootsInForceLine(roots, source);
    if (line !== logged) workspace.log(line);
    logged = line;
  };

  /**
   * Asks the client for its roots. Over HTTP the request travels on the stream of the tool call
   * that needs them (`relatedRequestId`), which exists even when the client opened no GET stream.
   */
  function refreshRoots(relatedRequestId?: string | number): void {
    stale = false;
    const previous = pending;
    pending = (async () => {
      await previous;
      try {
        const answer = await server.listRoots(undefined, {
          relatedRequestId,
          timeout: ROOTS_TIMEOUT_MS,
        });
        const { paths, ids, skipped } = await clientRootPaths(
          answer.roots.map((root) => root.uri),
        );
        for (const note of skipped) workspace.log(`toolfs mcp: client root ${note}: left out`);
        const chosen = rootsInForce(workspace.cli, paths);
        const inForce = workspace.toolsFor(chosen.roots, chosen.source === "command line", ids);
        tools = inForce.tools;
        // The roots the provider holds, not the ones asked for (issue 19).
        report(inForce.roots, chosen.source);
      } catch (error) {
        workspace.log(
          `toolfs mcp: roots/list failed, keeping the roots in force: ${message(error)}`,
        );
        report(current.roots, current.source);
      }
    })();
  }

  const clientHasRoots = () => server.getClientCapabilities()?.roots !== undefined;
  server.oninitialized = () => {
    session = {};
    if (!clientHasRoots()) report(workspace.cli, "command line");
    else if (eagerRoots) refreshRoots();
    else stale = true;
  };
  server.setNotificationHandler("notifications/roots/list_changed", () => {
    if (!clientHasRoots()) return;
    if (eagerRoots) refreshRoots();
    else stale = true;
  });
  server.setRequestHandler("tools/list", () => ({
    // Our schemas are JSON Schema objects; the SDK's type wants its own JSON value type.
    tools: structuredClone(list) as unknown as ListToolsResult["tools"],
  }));
  server.setRequestHandler("tools/call", async (request, ctx) => {
    if (stale) refreshRoots(ctx.mcpReq.id);
    await pending;
    if (!tools) return { content: [{ type: "text", text: NO_ROOTS_MESSAGE }], isError: true };
    const { name, arguments: args } = request.params;
    const run = tools;
    const result = await withProgress(
      () => run.execute(name, args ?? {}, { session, signal: ctx.mcpReq.signal }),
      {
        token: ctx.mcpReq._meta?.progressToken,
        send: (params) =>
          ctx.mcpReq.notify({ method: "notifications/progress", params: { ...params } }),
        tool: name,
        intervalMs: options.progressIntervalMs,
      },
    );
    // Without --structured the value is never looked at: a lazy before/after is never decoded.
    if (options.structured) return toMcpCallResult(result);
    const { content, isError } = toMcpCallResult({ ...result, value: undefined });
    return { content, isError };
  });
  return server;
}

/**
 * The `initialize` result's instructions (C13.5): the tools' guidance and the workspace section
 * for the roots in force then (the command line's; none before a client's roots are known).
 */
function instructionsOf(workspace: Workspace): string {
  const roots = workspace.cli.map((root) => ({ path: root.path, writable: root.write }));
  const cwd = workspace.toolsFor(workspace.cli, true).tools?.cwd;
  return systemPrompt(workspace.definitions, { roots, cwd });
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function jsonRpcError(status: number, code: number, text: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message: text } }, { status });
}

const USAGE = `usage: deno run --no-prompt --allow-read=<roots> --allow-write=<roots> \\
         jsr:@toolfs/fs@^0.2/mcp [options] [<root>...]

Serves the toolfs tools over MCP, on stdio unless --http is given. Every <root> is readable and
writable; the first is the session's working directory. With no <root>, the client's roots are
used (MCP roots capability); with some, only client roots inside them.

options:
  --read-only <dir>      add a root that is listed and read, never written
  --structured           also send structuredContent and outputSchema
  --tools <names>        the tools to serve, comma-separated (default: every tool but patch)
  --http [host:]port     serve Streamable HTTP at http://host:port/mcp (host 127.0.0.1 by default;
                         needs --allow-net=host:port); the bearer token is TOOLFS_MCP_TOKEN
                         (--allow-env=TOOLFS_MCP_TOKEN) or a fresh one printed to stderr
  --no-auth              no token (loopback hosts only)
  --allow-host <name>    a host name clients may use besides the bound host and loopback
  -h, --help             this text`;

/** Command-line options, or the usage problem. */
interface Cli {
  roots: RootSpec[];
  structured: boolean;
  tools?: FsToolName[];
  http?: string;
  noAuth: boolean;
  allowHosts: string[];
}

function parseCli(args: string[], base: string | undefined): Cli | { problem: string } | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        "read-only": { type: "string", multiple: true },
        structured: { type: "boolean" },
        tools: { type: "string" },
        http: { type: "string" },
        "no-auth": { type: "boolean" },
        "allow-host": { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    return { problem: message(error) };
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
  if (parsed.values["no-auth"] && parsed.values.http === undefined) {
    return { problem: "--no-auth applies only with --http" };
  }
  const tools = parsed.values.tools?.split(",").map((name) => name.trim()) as FsToolName[];
  if (tools) {
    try {
      toolDefinitions({ tools });
    } catch (error) {
      return { problem: `--tools: ${message(error)}` };
    }
  }
  return {
    roots,
    tools,
    structured: parsed.values.structured === true,
    http: parsed.values.http,
    noAuth: parsed.values["no-auth"] === true,
    allowHosts: parsed.values["allow-host"] ?? [],
  };
}

/** An environment variable when Deno may read it, without prompting. */
function env(name: string): string | undefined {
  const permission = Deno.permissions.querySync({ name: "env", variable: name });
  return permission.state === "granted" ? Deno.env.get(name) || undefined : undefined;
}

async function main(args: string[]): Promise<void> {
  // `deno task` runs in the config's directory and keeps the caller's in INIT_CWD.
  const parsed = parseCli(args, env("INIT_CWD"));
  if (parsed === "help") {
    console.error(USAGE);
    return;
  }
  if ("problem" in parsed) {
    console.error(`toolfs mcp: ${parsed.problem}\n${USAGE}`);
    Deno.exit(2);
  }
  let serving: McpServing;
  try {
    if (parsed.http !== undefined) {
      const address = parseListen(parsed.http);
      if ("problem" in address) {
        console.error(`toolfs mcp: ${address.problem}\n${USAGE}`);
        Deno.exit(2);
      }
      if (parsed.noAuth && !isLoopback(address.hostname)) {
        console.error(
          `toolfs mcp: --no-auth is allowed only on a loopback host, not ${address.hostname}`,
        );
        Deno.exit(2);
      }
      const given = env("TOOLFS_MCP_TOKEN");
      const token = parsed.noAuth ? null : given ?? generateToken();
      const http = await serveHttp(parsed.roots, {
        ...address,
        token,
        structured: parsed.structured,
        allowedHosts: parsed.allowHosts,
      });
      console.error(
        `toolfs mcp: serving ${http.url}` +
          (token === null
            ? " without authentication (--no-auth)"
            : given === token
            ? " (token from TOOLFS_MCP_TOKEN)"
            : `; send Authorization: Bearer ${token}`),
      );
      serving = http;
    } else {
      serving = await serveStdio(parsed.roots, {
        structured: parsed.structured,
        tools: parsed.tools,
      });
    }
  } catch (error) {
    console.error(`toolfs mcp: ${message(error)}`);
    Deno.exit(1);
  }
  const stop = () => {
    console.error("toolfs mcp: stopping");
    const timer = setTimeout(() => Deno.exit(0), 3000);
    serving.close().finally(() => {
      clearTimeout(timer);
      Deno.exit(0);
    });
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    try {
      Deno.addSignalListener(signal, stop);
    } catch {
      // Not available on this platform (Windows has no SIGTERM): the default applies.
    }
  }
  await serving.finished;
  Deno.exit(0);
}

if (import.meta.main) await main(Deno.args);
