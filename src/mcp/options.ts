/**
 * The options and handles of the MCP server (`serveStdio` and `serveHttp` in
 * `mcp.ts`), shared by the session, workspace and HTTP files of this folder.
 *
 * @module
 */

import type { FsToolName } from "../types.ts";
import type { FsToolsConfig } from "../config.ts";

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
   * Open connections at most; one more closes the slowest still sending its request (or not
   * taking its response), or waits up to 2 s for room and is then closed.
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
