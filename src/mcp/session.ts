/**
 * One MCP session: the `initialize` handshake and its instructions (C13.5), the client's roots
 * (C13.2), `tools/list` and `tools/call` (C13.1) with progress notifications.
 *
 * @module
 */

import { type ListToolsResult, Server } from "npm:@modelcontextprotocol/server@2.4.0";
import type { FsTools } from "../tools/tools.ts";
import { systemPrompt, toMcpCallResult, toMcpTools } from "../present/formats.ts";
import type { RootAccess } from "../types.ts";
import { clientRootPaths, rootsInForce, type RootsSource } from "./roots.ts";
import { outputSchemaFor } from "./output_schemas.ts";
import { withProgress } from "./progress.ts";
import {
  clientRootsLeftOutMessage,
  NO_ROOTS_MESSAGE,
  rootsInForceLine,
} from "../render/mcp_render.ts";
import { message, type Workspace } from "./workspace.ts";

/** The server's name in the MCP `initialize` handshake. */
export const MCP_SERVER_NAME = "toolfs";

/** The server's version in the MCP `initialize` handshake. */
export const MCP_SERVER_VERSION = "0.4.0";

/** How long the server waits for the client's `roots/list` answer. */
const ROOTS_TIMEOUT_MS = 10_000;

/**
 * One MCP session: its own policy session, roots in force and tools.
 *
 * @param workspace What all sessions of the server share.
 * @param eagerRoots Ask for the client's roots as soon as it is initialized (stdio), rather
 * than on the first tool call after they are known to have changed (HTTP).
 * @returns The session's server, not yet connected to a transport.
 */
export function sessionServer(workspace: Workspace, eagerRoots: boolean): Server {
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
  /** Why the client's roots were left out, when none of them is in force. */
  let leftOut: string[] = [];
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
        leftOut = chosen.source === "command line" ? [] : [...skipped, ...inForce.leftOut];
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
    if (!tools) {
      const text = leftOut.length > 0 ? clientRootsLeftOutMessage(leftOut) : NO_ROOTS_MESSAGE;
      return { content: [{ type: "text", text }], isError: true };
    }
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
