// Real stdio MCP clients for the comparison: toolfs's server (`mcp.ts`, under Deno) and the
// reference `@modelcontextprotocol/server-filesystem` (under Node). Private to bench/.

// The SDK's `./*` export maps `client/stdio.js` to the types `client/stdio.js.d.ts`, which does not
// exist; each import names its types by the extension-less subpath, which resolves to the right
// `.d.ts` with or without a node_modules/ directory (deno.json has `"nodeModulesDir": "none"`).
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** Generous: the reference server's `edit_file` of a big file takes a while. */
const CALL_TIMEOUT_MS = 300_000;

/** A connected MCP client and what it takes to call one tool. */
export interface McpPeer {
  /** Calls a tool; rejects when the server reports an error result. */
  call(name: string, args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

async function connect(command: string, args: string[], cwd?: string): Promise<McpPeer> {
  return await connectOver(new StdioClientTransport({ command, args, cwd, stderr: "inherit" }));
}

async function connectOver(transport: Transport, stop?: () => Promise<void>): Promise<McpPeer> {
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
    async close() {
      await client.close();
      await stop?.();
    },
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

/**
 * toolfs's MCP server on `root` over Streamable HTTP on a free loopback port (no token: the
 * bench measures the transport, not the check).
 */
export async function connectToolfsHttp(repo: string, root: string): Promise<McpPeer> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      `--allow-read=${root},${repo}`,
      `--allow-write=${root}`,
      "--allow-env",
      "--allow-net=127.0.0.1",
      `${repo}/mcp.ts`,
      root,
      "--http",
      "127.0.0.1:0",
      "--no-auth",
    ],
    cwd: repo,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let url: string | undefined;
  while (url === undefined) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`toolfs over HTTP did not start: ${seen}`);
    seen += value;
    url = /serving (http:\/\/\S+\/mcp)/.exec(seen)?.[1];
  }
  // Keep draining stderr so the server never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done) { /* drained */ }
  })().catch(() => {});
  return await connectOver(new StreamableHTTPClientTransport(new URL(url)), async () => {
    child.kill("SIGTERM");
    await child.status;
  });
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
