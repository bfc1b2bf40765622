/**
 * The MCP client side of the MCP server tests (tests/mcp_stdio_test.ts, mcp_roots_test.ts,
 * mcp_http_test.ts): the official MCP SDK client driving `mcp.ts` as a child process over stdio
 * or Streamable HTTP, the way a real MCP host would. Needs --allow-run, --allow-env and
 * --allow-net besides read and write (CI runs `deno test -A`); without them every test is
 * skipped, with the reason printed.
 */

import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client";
import { sandbox } from "./_sandbox.ts";

export const PROJECT = dirname(dirname(fileURLToPath(import.meta.url)));
export const MISSING = (["run", "env", "net"] as const).filter((name) =>
  Deno.permissions.querySync({ name }).state !== "granted"
);
export const ignore = MISSING.length > 0;
if (ignore) {
  console.warn(
    `tests/mcp_*_test.ts: skipped, they start the MCP server and needs ${
      MISSING.map((n) => `--allow-${n}`).join(" ")
    } (run deno test -A)`,
  );
}

/** The conformance suite CI runs, pinned. */
export const CONFORMANCE = "npm:@modelcontextprotocol/conformance@0.1.16";
/** The scenarios that apply to a server with tools only (README, "MCP server"). */
export const CONFORMANCE_SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "dns-rebinding-protection",
  "server-sse-multiple-streams",
];

/** A tools/call result as the client returns it. */
export interface CallResult {
  content: { type: string; text: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** A connected client and what the server wrote to stderr. */
export interface Connection {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  /** Replaces the client's roots and notifies the server. */
  setRoots(paths: string[]): Promise<void>;
  stderr(): string;
  close(): Promise<void>;
}

/** Client options: `roots` declares the roots capability with these directories. */
export interface ClientOptions {
  roots?: string[];
}

export async function newClient(options: ClientOptions): Promise<{
  client: Client;
  setRoots(paths: string[]): Promise<void>;
}> {
  const { Client } = await import("@modelcontextprotocol/sdk/client");
  const { ListRootsRequestSchema } = await import(
    // @ts-types="@modelcontextprotocol/sdk/types"
    "@modelcontextprotocol/sdk/types.js"
  );
  let roots = options.roots;
  const client = new Client(
    { name: "toolfs-test", version: "0.0.0" },
    roots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: (roots ?? []).map((path) => ({ uri: pathToFileURL(path).href, name: path })),
    }));
  }
  return {
    client,
    async setRoots(paths) {
      roots = paths;
      await client.sendRootsListChanged();
    },
  };
}

export function wrap(
  client: Client,
  setRoots: (paths: string[]) => Promise<void>,
  stderr: () => string,
): Connection {
  return {
    client,
    call: async (name, args) =>
      await client.callTool({ name, arguments: args }, undefined, {
        timeout: 30_000,
      }) as unknown as CallResult,
    setRoots,
    stderr,
    close: () => client.close(),
  };
}

/** Runs `deno <args>` (by default `deno task mcp …`) and connects the SDK client over stdio. */
export async function connectStdio(
  args: string[],
  options: ClientOptions = {},
): Promise<Connection> {
  // Imported here: the stdio transport reads the environment as it loads.
  const { StdioClientTransport } = await import(
    // @ts-types="@modelcontextprotocol/sdk/client/stdio"
    "@modelcontextprotocol/sdk/client/stdio.js"
  );
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args,
    cwd: PROJECT,
    env: Deno.env.toObject(),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const { client, setRoots } = await newClient(options);
  await client.connect(transport);
  return wrap(client, setRoots, () => stderr);
}

/** A server started with `--http`, its URL and token as it printed them. */
export interface HttpServer {
  url: string;
  token: string | null;
  stderr(): string;
  /** Sends a signal and waits for the exit code. */
  stop(signal?: Deno.Signal): Promise<number>;
}

export async function startHttp(
  args: string[],
  env: Record<string, string> = {},
): Promise<HttpServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(PROJECT, "mcp.ts"), ...args],
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let match: RegExpExecArray | null = null;
  const pump = (async () => {
    while (true) {
      const { value, done } = await lines.read();
      if (done) return;
      stderr += value;
    }
  })();
  for (let i = 0; i < 600 && !match; i++) {
    match = /serving (http:\/\/\S+\/mcp)(?:; send Authorization: Bearer (\S+))?/.exec(stderr);
    if (!match) await delay(50);
  }
  if (!match) {
    child.kill();
    await child.status;
    throw new Error(`the HTTP server did not start:\n${stderr}`);
  }
  const token = match[2] ?? env.TOOLFS_MCP_TOKEN ?? null;
  return {
    url: match[1],
    token,
    stderr: () => stderr,
    async stop(signal = "SIGTERM") {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
      const { code } = await child.status;
      await pump;
      return code;
    },
  };
}

export async function connectHttp(
  server: HttpServer,
  options: ClientOptions = {},
): Promise<Connection> {
  const { StreamableHTTPClientTransport } = await import(
    // @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  );
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: server.token ? { headers: { authorization: `Bearer ${server.token}` } } : {},
  });
  const { client, setRoots } = await newClient(options);
  await client.connect(transport);
  return wrap(client, setRoots, server.stderr);
}

/**
 * A local {@linkcode sandbox} holding `files`, with a `connect(...args)` that starts
 * `deno task mcp <root> ...args`; every connection is closed afterwards.
 */
export async function withServer(
  files: Record<string, string>,
  fn: (connect: (...extra: string[]) => Promise<Connection>, root: string) => Promise<void>,
): Promise<void> {
  await using box = await sandbox("local", files);
  const open: Connection[] = [];
  try {
    await fn(async (...extra) => {
      const connection = await connectStdio(["task", "--quiet", "mcp", box.root, ...extra]);
      open.push(connection);
      return connection;
    }, box.root);
  } finally {
    for (const connection of open) await connection.close();
  }
}

/** Starts `mcp.ts <args> --http 127.0.0.1:0` with a known token and stops it afterwards. */
export async function withHttp(
  args: string[],
  fn: (server: HttpServer) => Promise<void>,
  env: Record<string, string> = { TOOLFS_MCP_TOKEN: "test-token-0123456789" },
): Promise<void> {
  const server = await startHttp([...args, "--http", "127.0.0.1:0"], env);
  try {
    await fn(server);
  } finally {
    await server.stop();
  }
}

export const test = (name: string, fn: () => Promise<void>): void =>
  Deno.test({ name, ignore, fn, sanitizeResources: false, sanitizeOps: false });

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until(
  what: string,
  check: () => boolean,
  stderr: () => string,
): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await delay(25);
  }
  throw new Error(`timed out waiting for ${what}; stderr:\n${stderr()}`);
}

/** A JSON-RPC `initialize` request (id 1) as a raw client sends it, serialized. */
export const RAW_INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  },
});

/** Status of a POST ping to `url` sent with the given `Host` header over a raw socket. */
export async function rawStatus(url: URL, host: string, token: string): Promise<number> {
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  const body = RAW_INITIALIZE;
  const request = `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\n` +
    "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n" +
    `Content-Length: ${new TextEncoder().encode(body).length}\r\nConnection: close\r\n\r\n${body}`;
  await conn.write(new TextEncoder().encode(request));
  const buffer = new Uint8Array(64);
  const n = await conn.read(buffer);
  conn.close();
  const status = /^HTTP\/1\.1 (\d{3})/.exec(new TextDecoder().decode(buffer.subarray(0, n ?? 0)));
  return status ? Number(status[1]) : -1;
}

export async function runMcp(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "mcp", ...args],
    cwd: PROJECT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
