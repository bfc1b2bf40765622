/**
 * The playground's HTTP app: the JSON API over the tools and the built UI. Runtime-neutral
 * enough to test through `app.request` without a socket.
 *
 * @module
 */

import { Hono } from "hono";
import type { Context } from "hono";
import { extname, join, normalize } from "node:path";
import {
  createFsTools,
  DEFAULT_CONFIG,
  type FsObservation,
  type FsPolicy,
  type FsToolEventDetail,
  type FsTools,
  type FsToolsConfig,
  LocalFileSystem,
  ReadBeforeWritePolicy,
} from "../../mod.ts";
import { resolveConfig } from "../../src/config.ts";
import type {
  DefinitionsResponse,
  ExecuteRequest,
  ExecuteResponse,
  PromptCostResponse,
  ResetResponse,
  SessionFile,
  SessionInfo,
  TokenCounts,
  ToolPromptCost,
  TreeResponse,
} from "./api_types.ts";
import { countTokens, TOKENIZERS } from "./tokens.ts";
import { buildTree } from "./tree.ts";
import { type PlaygroundWorkspace, workspacePath } from "./workspace.ts";

/** Options of {@linkcode createApp}. */
export interface PlaygroundAppOptions {
  /** The workspace the tools run in. */
  workspace: PlaygroundWorkspace;
  /** The built UI (`playground/dist/`); without it, `/` explains how to build it. */
  distDir?: string;
  /**
   * Sessions kept at once; the least recently used is forgotten first.
   * @default {100}
   */
  maxSessions?: number;
}

interface Session {
  id: string;
  object: object;
  files: Map<string, SessionFile>;
}

class BadRequest extends Error {}

const EXECUTE_FIELDS = ["tool", "args", "config", "session", "policy"];
const SESSION_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".map": "application/json",
  ".woff2": "font/woff2",
};

/**
 * Creates the playground app. Routes: `GET /api/definitions`, `POST /api/execute`,
 * `GET /api/prompt-cost`, `GET /api/tree`, `GET /api/sessions/:id`, `POST /api/reset`, and the
 * UI from `distDir`.
 *
 * @param options The workspace and the built UI.
 * @returns A Hono app; serve it with `Deno.serve({ hostname: "127.0.0.1" }, app.fetch)`.
 *
 * @example
 * ```ts ignore
 * import { createApp } from "./app.ts";
 * import { createFixtureWorkspace } from "./workspace.ts";
 *
 * const app = createApp({ workspace: await createFixtureWorkspace() });
 * const response = await app.request("/api/execute", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ tool: "read", args: { file_path: "notes/todo.md" } }),
 * });
 * console.log((await response.json()).content);
 * ```
 */
export function createApp(options: PlaygroundAppOptions): Hono {
  const { workspace, distDir } = options;
  const maxSessions = options.maxSessions ?? 100;
  const fs = new LocalFileSystem({ roots: workspace.roots });
  let policy = new ReadBeforeWritePolicy();
  const toolsByKey = new Map<string, FsTools>();
  const sessions = new Map<string, Session>();
  const sessionsByObject = new WeakMap<object, Session>();

  function session(id: string): Session {
    let found = sessions.get(id);
    if (found) {
      sessions.delete(id); // re-insert: the map's order is least recently used first
    } else {
      found = { id, object: {}, files: new Map() };
      sessionsByObject.set(found.object, found);
      if (sessions.size >= maxSessions) sessions.delete(sessions.keys().next().value!);
    }
    sessions.set(id, found);
    return found;
  }

  function record(event: Event): void {
    const detail = (event as CustomEvent<FsToolEventDetail>).detail;
    const owner = sessionsByObject.get(detail.session);
    if (!owner) return;
    const path = workspacePath(workspace.root, detail.path);
    const previous = owner.files.get(path);
    owner.files.set(path, { path, op: detail.op, count: (previous?.count ?? 0) + 1 });
  }

  /** One tools instance per config and gate, all sharing one policy so sessions carry over. */
  function toolsFor(config: Readonly<FsToolsConfig>, gated: boolean): FsTools {
    const key = JSON.stringify([config, gated]);
    let tools = toolsByKey.get(key);
    if (!tools) {
      tools = createFsTools({ fs, config, policy: gated ? policy : observeOnly(policy) });
      for (const op of ["read", "write", "edit"]) tools.events.addEventListener(op, record);
      if (toolsByKey.size >= 32) toolsByKey.delete(toolsByKey.keys().next().value!);
      toolsByKey.set(key, tools);
    }
    return tools;
  }

  function sessionInfo(s: Session): SessionInfo {
    return { id: s.id, files: [...s.files.values()] };
  }

  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof BadRequest) return c.json({ error: error.message }, 400);
    console.error(error);
    return c.json({ error: `internal error: ${String(error)}` }, 500);
  });

  // A page on another site must not drive the tools: only loopback hosts and origins, and POSTs
  // only as JSON (which a cross-origin page cannot send without a preflight we never answer).
  app.use("/api/*", async (c, next) => {
    const host = new URL(c.req.url).hostname;
    const origin = c.req.header("origin");
    if (!LOOPBACK.has(host)) {
      return c.json({ error: `host "${host}" is not allowed: use 127.0.0.1` }, 403);
    }
    if (origin !== undefined && !LOOPBACK.has(originHostname(origin))) {
      return c.json({ error: `origin "${origin}" is not allowed` }, 403);
    }
    if (c.req.method === "POST" && !isJson(c.req.header("content-type"))) {
      return c.json({ error: "send the request body as application/json" }, 415);
    }
    await next();
  });

  app.get("/api/definitions", (c) => {
    const config = resolveConfigOrThrow(configFromQuery(c.req.query("config")));
    const tools = toolsFor(config, true);
    const response: DefinitionsResponse = {
      tools: tools.definitions.map((d) => ({ ...d })),
      config: { ...config },
      defaults: { ...DEFAULT_CONFIG },
      tokenizers: [...TOKENIZERS],
      workspace: {
        kind: workspace.kind,
        root: workspace.root,
        roots: fs.roots.map((r) => ({
          path: workspacePath(workspace.root, r.path),
          writable: r.writable,
        })),
      },
    };
    return c.json(response);
  });

  app.post("/api/execute", async (c) => {
    const body = await jsonBody(c);
    const request = parseExecute(body);
    const config = resolveConfigOrThrow(request.config);
    const tools = toolsFor(config, request.policy ?? true);
    const s = session(request.session ?? "default");
    const args = request.args ?? {};
    const presentation = tools.presentCall(request.tool, args);
    const started = performance.now();
    const result = await tools.execute(request.tool, args, { session: s.object });
    const ms = Math.round((performance.now() - started) * 100) / 100;
    const response: ExecuteResponse = {
      content: result.content,
      isError: result.isError,
      ...(result.error ? { error: result.error } : {}),
      ...(result.value !== undefined ? { value: result.value } : {}),
      presentation,
      tokens: countTokens(result.content),
      ...measure(result.content),
      ms,
      config: { ...config },
      policy: request.policy ?? true,
      session: sessionInfo(s),
    };
    return c.json(response);
  });

  app.get("/api/prompt-cost", (c) => {
    const config = resolveConfigOrThrow(configFromQuery(c.req.query("config")));
    const tools = toolsFor(config, true).definitions.map((d): ToolPromptCost => {
      const definition = JSON.stringify({
        name: d.name,
        description: d.description,
        parameters: d.inputSchema,
      });
      const definitionTokens = countTokens(definition);
      const guidanceTokens = countTokens(d.guidance);
      return {
        name: d.name,
        description: d.description,
        inputSchema: d.inputSchema,
        guidance: d.guidance,
        definition,
        tokens: {
          definition: definitionTokens,
          guidance: guidanceTokens,
          total: sum([definitionTokens, guidanceTokens]),
        },
      };
    });
    const response: PromptCostResponse = {
      config: { ...config },
      tools,
      total: sum(tools.map((t) => t.tokens.total)),
    };
    return c.json(response);
  });

  app.get("/api/tree", async (c) => {
    const response: TreeResponse = {
      root: workspace.root,
      kind: workspace.kind,
      tree: await buildTree(workspace.root),
    };
    return c.json(response);
  });

  app.get("/api/sessions/:id", (c) => {
    const id = c.req.param("id");
    if (!SESSION_ID.test(id)) throw new BadRequest(sessionIdMessage(id));
    return c.json(sessionInfo(session(id)));
  });

  app.post("/api/reset", async (c) => {
    await workspace.reset();
    sessions.clear();
    toolsByKey.clear();
    policy = new ReadBeforeWritePolicy();
    const response: ResetResponse = {
      ok: true,
      kind: workspace.kind,
      restored: workspace.kind === "fixtures",
    };
    return c.json(response);
  });

  app.all(
    "/api/*",
    (c) => c.json({ error: `no such endpoint: ${c.req.method} ${c.req.path}` }, 404),
  );

  app.get("*", async (c) => {
    if (!distDir) return uiMissing(c);
    const requested = normalize(decodeURIComponent(c.req.path)).replace(/^[/\\]+/, "");
    const isAsset = requested !== "" && !requested.startsWith("..") && extname(requested) !== "";
    const file = isAsset ? join(distDir, requested) : join(distDir, "index.html");
    try {
      const bytes = await Deno.readFile(file);
      return c.body(bytes, 200, {
        "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": requested.startsWith("assets/")
          ? "public, max-age=31536000, immutable"
          : "no-cache",
      });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      return isAsset ? c.text("not found", 404) : uiMissing(c);
    }
  });

  return app;
}

/** A policy that gates nothing but still records observations in `shared`. */
function observeOnly(shared: FsPolicy): FsPolicy {
  return {
    writeIntent: () => ({ kind: "none" }),
    editIntent: () => ({ kind: "none" }),
    observed: (observation: FsObservation) => shared.observed(observation),
  };
}

async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BadRequest(`request body is not valid JSON: ${(error as Error).message}`);
  }
}

function parseExecute(body: unknown): ExecuteRequest {
  if (!isPlainObject(body)) {
    throw new BadRequest(
      'request body must be a JSON object: { "tool": "read", "args": { … } }',
    );
  }
  for (const key of Object.keys(body)) {
    if (!EXECUTE_FIELDS.includes(key)) {
      throw new BadRequest(`unknown field "${key}": expected ${EXECUTE_FIELDS.join(", ")}`);
    }
  }
  const { tool, args, config, session, policy } = body;
  if (typeof tool !== "string" || tool === "") {
    throw new BadRequest(`"tool" must be a non-empty string: got ${JSON.stringify(tool)}`);
  }
  if (args !== undefined && !isPlainObject(args)) {
    throw new BadRequest(`"args" must be a JSON object: got ${JSON.stringify(args)}`);
  }
  if (config !== undefined && config !== null && !isPlainObject(config)) {
    throw new BadRequest(`"config" must be a JSON object: got ${JSON.stringify(config)}`);
  }
  if (session !== undefined && (typeof session !== "string" || !SESSION_ID.test(session))) {
    throw new BadRequest(sessionIdMessage(session));
  }
  if (policy !== undefined && typeof policy !== "boolean") {
    throw new BadRequest(`"policy" must be a boolean: got ${JSON.stringify(policy)}`);
  }
  return {
    tool,
    args: args as Record<string, unknown> | undefined,
    config: (config ?? undefined) as Partial<FsToolsConfig> | undefined,
    session: session as string | undefined,
    policy: policy as boolean | undefined,
  };
}

function sessionIdMessage(id: unknown): string {
  return `"session" must be 1-64 letters, digits, "_", "-" or ".": got ${JSON.stringify(id)}`;
}

function configFromQuery(text: string | undefined): Partial<FsToolsConfig> | undefined {
  if (text === undefined || text === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new BadRequest(`"config" query parameter is not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(parsed)) {
    throw new BadRequest(`"config" must be a JSON object: got ${JSON.stringify(parsed)}`);
  }
  return parsed as Partial<FsToolsConfig>;
}

function resolveConfigOrThrow(
  config: Partial<FsToolsConfig> | undefined,
): Readonly<FsToolsConfig> {
  try {
    return resolveConfig(config ?? {});
  } catch (error) {
    throw new BadRequest(`invalid config: ${(error as Error).message}`);
  }
}

function measure(text: string): { bytes: number; chars: number; lines: number } {
  let chars = 0;
  let lines = 1;
  for (const ch of text) {
    chars++;
    if (ch === "\n") lines++;
  }
  return { bytes: new TextEncoder().encode(text).length, chars, lines };
}

function sum(counts: TokenCounts[]): TokenCounts {
  const total = Object.fromEntries(TOKENIZERS.map((t) => [t, 0])) as TokenCounts;
  for (const c of counts) for (const t of TOKENIZERS) total[t] += c[t];
  return total;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? "");
}

function originHostname(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    return "";
  }
}

function uiMissing(c: Context): Response {
  return c.html(
    "<!doctype html><title>toolfs playground</title><p>The UI is not built yet. " +
      "Run <code>deno task playground</code>, which builds it, or " +
      "<code>deno run -A playground/server/build_ui.ts</code>.</p>",
    503,
  );
}
