/**
 * The MCP server over Streamable HTTP: sessions by `Mcp-Session-Id`, each its own
 * read-before-write session, behind the bearer-token and host guard (C13.3).
 *
 * @module
 */

import { WebStandardStreamableHTTPServerTransport } from "npm:@modelcontextprotocol/server@2.4.0";
import type { Server } from "npm:@modelcontextprotocol/server@2.4.0";
import type { RootSpec } from "../provider/local/local_fs.ts";
import { MCP_MAX_MESSAGE_BYTES } from "../render/mcp_render.ts";
import { generateToken, guardRequest, headCarriesToken, isLoopback } from "../http/http_guard.ts";
import { serveBounded } from "../http/bounded_serve.ts";
import type { McpHttpServing, ServeHttpOptions } from "./options.ts";
import { sessionServer } from "./session.ts";
import { message, Workspace } from "./workspace.ts";

/**
 * Serves the MCP sessions over Streamable HTTP at `/mcp`: the guard (token, `Host`, `Origin`),
 * one server per `Mcp-Session-Id`, idle sessions swept and the least recently used evicted
 * beyond `maxSessions` (C13.3). What `serveHttp` in `mcp.ts` runs.
 *
 * @param roots The command-line roots; may be empty when clients provide roots.
 * @param options Address, token, structured results, session directory, policy, caps.
 * @returns The running server, its URL and token.
 * @throws {Error} When a root is unusable, or `token: null` is asked for on a non-loopback host.
 */
export async function serveHttpSessions(
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
    mayWait: (head) => headCarriesToken(head, token),
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

/** A JSON-RPC error response with no id. */
function jsonRpcError(status: number, code: number, text: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message: text } }, { status });
}
