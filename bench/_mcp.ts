// Real stdio MCP clients for the comparison: toolfs's server (`mcp.ts`, under Deno) and the
// reference `@modelcontextprotocol/server-filesystem` (under Node). Private to bench/.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** Generous: the reference server's `edit_file` of a big file takes a while. */
const CALL_TIMEOUT_MS = 300_000;

/** A connected MCP client and what it takes to call one tool. */
export interface McpPeer {
  /** Calls a tool; rejects when the server reports an error result. */
  call(name: string, args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

async function connect(command: string, args: string[], cwd?: string): Promise<McpPeer> {
  const transport = new StdioClientTransport({ command, args, cwd, stderr: "inherit" });
  const client = new Client({ name: "toolfs-bench", version: "0.1.0" });
  await client.connect(transport);
  return {
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        timeout: CALL_TIMEOUT_MS,
      });
      const content = result.content as Array<{ type: string; text?: string }>;
      const text = content.map((part) => part.text ?? "").join("");
      if (result.isError) throw new Error(`${name} failed: ${text.slice(0, 300)}`);
      return text;
    },
    close: () => client.close(),
  };
}

/** toolfs's MCP server on `root`, run by this Deno with read and write limited to the root. */
export function connectToolfs(repo: string, root: string): Promise<McpPeer> {
  return connect(Deno.execPath(), [
    "run",
    `--allow-read=${root},${repo}`,
    `--allow-write=${root}`,
    "--allow-env",
    `${repo}/mcp.ts`,
    root,
  ], repo);
}

/** The reference server, installed under `prefix`, run by Node on `root`. */
export function connectReference(prefix: string, root: string): Promise<McpPeer> {
  const entry = `${prefix}/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`;
  return connect("node", [entry, root]);
}

/**
 * Installs the reference server with npm into `prefix` (a temporary directory), pinned so runs
 * compare against the same code.
 */
export async function installReference(prefix: string, version: string): Promise<void> {
  const output = await new Deno.Command("npm", {
    args: [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      "--prefix",
      prefix,
      `@modelcontextprotocol/server-filesystem@${version}`,
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(`npm install failed: ${new TextDecoder().decode(output.stderr)}`);
  }
}
