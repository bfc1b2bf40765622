/**
 * The `mcp.ts` command line: its usage text and parser.
 *
 * @module
 */

import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { FsToolName } from "../types.ts";
import { type FsToolsConfig, resolveConfig } from "../config.ts";
import type { RootSpec } from "../provider/local/local_fs.ts";
import { toolDefinitions } from "../tools/tools.ts";
import { message } from "./workspace.ts";

/** The `mcp.ts` command line's usage text. */
export const USAGE = `usage: deno run --no-prompt --allow-read=<roots> --allow-write=<roots> \\
         jsr:@toolfs/fs@^0.4/mcp [options] [<root>...]

Serves the toolfs tools over MCP, on stdio unless --http is given. Every <root> is readable and
writable; the first is the session's working directory. With no <root>, the client's roots are
used (MCP roots capability); with some, only client roots inside them.

options:
  --read-only <dir>      add a root that is listed and read, never written
  --structured           also send structuredContent and outputSchema
  --tools <names>        the tools to serve, comma-separated (default: every tool but patch)
  --config <json>        caps and switches, e.g. '{"readLimit":200,"detailedFooters":true}'
  --http [host:]port     serve Streamable HTTP at http://host:port/mcp (host 127.0.0.1 by default;
                         needs --allow-net=host:port); the bearer token is TOOLFS_MCP_TOKEN
                         (--allow-env=TOOLFS_MCP_TOKEN) or a fresh one printed to stderr
  --no-auth              no token (loopback hosts only)
  --allow-host <name>    a host name clients may use besides the bound host and loopback
  -h, --help             this text`;

/** Command-line options, or the usage problem. */
export interface Cli {
  /** The roots, in command-line order, resolved against the caller's directory. */
  roots: RootSpec[];
  /** `--structured`. */
  structured: boolean;
  /** `--tools`, split on commas. */
  tools?: FsToolName[];
  /** `--config`, parsed and checked (C2, C4.2a). */
  config?: Partial<FsToolsConfig>;
  /** `--http`'s address, unparsed. */
  http?: string;
  /** `--no-auth`. */
  noAuth: boolean;
  /** `--allow-host`, every one given. */
  allowHosts: string[];
}

/**
 * Parses the `mcp.ts` command line.
 *
 * @param args The arguments after the script.
 * @param base The directory relative roots resolve against (`deno task`'s `INIT_CWD`).
 * @returns The options, `"help"`, or the usage problem.
 */
export function parseCli(
  args: string[],
  base: string | undefined,
): Cli | { problem: string } | "help" {
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
        config: { type: "string" },
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
  let config: Partial<FsToolsConfig> | undefined;
  if (parsed.values.config !== undefined) {
    try {
      config = JSON.parse(parsed.values.config);
      if (typeof config !== "object" || config === null || Array.isArray(config)) {
        return { problem: `--config: expected a JSON object: got ${parsed.values.config}` };
      }
      resolveConfig(config);
    } catch (error) {
      return { problem: `--config: ${message(error)}` };
    }
  }
  return {
    roots,
    tools,
    config,
    structured: parsed.values.structured === true,
    http: parsed.values.http,
    noAuth: parsed.values["no-auth"] === true,
    allowHosts: parsed.values["allow-host"] ?? [],
  };
}

/** An environment variable when Deno may read it, without prompting. */
export function env(name: string): string | undefined {
  const permission = Deno.permissions.querySync({ name: "env", variable: name });
  return permission.state === "granted" ? Deno.env.get(name) || undefined : undefined;
}
