/**
 * An MCP server for the toolfs tools, over stdio or Streamable HTTP.
 *
 * Run it with the roots it may touch (or none, to take the client's roots); the first root in
 * force is the session's working directory. Narrow Deno permissions to those roots:
 *
 * ```sh
 * deno run --no-prompt --allow-read=/abs/project --allow-write=/abs/project \
 *   jsr:@toolfs/fs@^0.4/mcp /abs/project
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

import type { RootSpec } from "./mod.ts";
import { LineTransport } from "./src/mcp/line_transport.ts";
import { generateToken, isLoopback, parseListen } from "./src/http/http_guard.ts";
import { MCP_MAX_MESSAGE_BYTES } from "./src/render/mcp_render.ts";
import type {
  McpHttpServing,
  McpServing,
  ServeHttpOptions,
  ServeStdioOptions,
} from "./src/mcp/options.ts";
import { sessionServer } from "./src/mcp/session.ts";
import { message, Workspace } from "./src/mcp/workspace.ts";
import { serveHttpSessions } from "./src/mcp/http_server.ts";
import { env, parseCli, USAGE } from "./src/mcp/cli_args.ts";

export type { FsToolName, FsToolsConfig, RootSpec } from "./mod.ts";
export type {
  McpHttpServing,
  McpServerOptions,
  McpServing,
  ServeHttpOptions,
  ServeStdioOptions,
} from "./src/mcp/options.ts";
export { MCP_SERVER_NAME, MCP_SERVER_VERSION } from "./src/mcp/session.ts";

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
  return await serveHttpSessions(roots, options);
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
        tools: parsed.tools,
        config: parsed.config,
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
        config: parsed.config,
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
