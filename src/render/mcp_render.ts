/**
 * Texts of the MCP server (`mcp.ts`): the tool result when no root is in force, JSON-RPC error
 * messages for messages it cannot take (C13.4), its progress notifications' message and its
 * stderr lines. Pure, no I/O.
 *
 * @module
 */

import type { RootAccess } from "../types.ts";

/**
 * The `message` of a progress notification for a call still running (`notifications/progress`).
 *
 * @param tool The tool called.
 * @param seconds How long it has run.
 * @returns E.g. `grep: still running after 2.0 s`.
 */
export function progressMessage(tool: string, seconds: number): string {
  return `${tool}: still running after ${seconds.toFixed(1)} s`;
}

/** The largest JSON-RPC message the MCP server takes, in bytes (10 MiB, C13.4). */
export const MCP_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** The tool-call text when neither the command line nor the client gave a usable root (C13.2). */
export const NO_ROOTS_MESSAGE =
  "Error: no roots: the server was started without a directory and the client provided no " +
  "usable root; add a root in the client or pass a directory to the server";

/**
 * The tool-call text when the client gave roots and every one was left out: each named with why
 * (`"/w": does not exist`, `"/w" changed while it was checked: refused`).
 */
export function clientRootsLeftOutMessage(notes: readonly string[]): string {
  return `Error: no roots: the server was started without a directory and every root the client ` +
    `provided was left out (${
      notes.join("; ")
    }); add a root in the client or pass a directory to the server`;
}

/** The JSON-RPC error message for a message over {@linkcode MCP_MAX_MESSAGE_BYTES}. */
export function messageTooLargeMessage(bytes: number, max: number = MCP_MAX_MESSAGE_BYTES): string {
  return `message too large: ${bytes} bytes, the limit is ${max} bytes (${
    max / 1024 / 1024
  } MiB); write a large file in parts (write, then edit) or copy it by other means`;
}

/** The JSON-RPC error message for a line that is not JSON. */
export function parseErrorMessage(detail: string): string {
  return `parse error: ${detail}`;
}

/** The JSON-RPC error message for JSON that is not a JSON-RPC 2.0 message. */
export const INVALID_MESSAGE_MESSAGE =
  'invalid request: not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0")';

/** The stderr line naming the roots in force and where they came from (C13.2). */
export function rootsInForceLine(
  roots: readonly RootAccess[],
  source: "command line" | "client",
): string {
  if (roots.length === 0) {
    return "toolfs mcp: no roots in force; tool calls fail until a root is given";
  }
  const list = roots.map((r) => `${r.path} (${r.write ? "read-write" : "read-only"})`).join(", ");
  return `toolfs mcp: roots in force (from the ${source}): ${list}`;
}
