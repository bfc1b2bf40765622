/**
 * The playground's HTTP app: the JSON API over the tools and the built UI. Runtime-neutral
 * enough to test through `app.request` without a socket.
 *
 * @module
 */

import { Hono } from "hono";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { serveStatic } from "hono/deno";
import {
  createFsTools,
  DEFAULT_CONFIG,
  type FsObservation,
  type FsPolicy,
  type FsTextsOverride,
  type FsToolDefinition,
  type FsToolEventDetail,
  type FsTools,
  type FsToolsConfig,
  LocalFileSystem,
  ReadBeforeWritePolicy,
  systemPrompt,
} from "../../mod.ts";
import { resolveConfig } from "../../src/config.ts";
import { toolDefinitions } from "../../src/tools/tools.ts";
import { DEFAULT_TOOLS, TOOL_NAMES } from "../../src/present/specs/mod.ts";
import { promptCost, promptTexts, WIRE_FORMATS } from "./prompt_cost.ts";
import {
  DEFAULT_TOKENIZERS,
  isTokenizerName,
  TOKENIZER_LABELS,
  type TokenizerName,
  TOKENIZERS,
} from "../../tokenizers/mod.ts";
import type {
  DefinitionsResponse,
  ExecuteRequest,
  ExecuteResponse,
  PromptCost,
  PromptCostResponse,
  ResetResponse,
  SessionFile,
  SessionInfo,
  TreeResponse,
  WireFormat,
} from "./api_types.ts";
import { guardFailure } from "../../src/http/http_guard.ts";
import { countTokensBounded } from "./bounded_tokens.ts";
import { countOnThisThread, type CountTexts } from "./token_counter.ts";
import { buildTree } from "./tree.ts";
import { workspaceExamples } from "./examples.ts";
import { type PlaygroundWorkspace, workspacePath } from "./workspace.ts";

/** Options of {@linkcode createApp}. */
export interface PlaygroundAppOptions {
  /** The workspace the tools run in. */
  workspace: PlaygroundWorkspace;
  /**
   * The token every `/api/*` request must carry as `Authorization: Bearer <token>` (CONTRACT
   * C14.1); `null` turns the check off (`--no-token`, for tests).
   */
  token: string | null;
  /** The built UI (`playground/dist/`); without it, `/` explains how to build it. */
  distDir?: string;
  /**
   * Sessions kept at once; the least recently used is forgotten first.
   * @default {100}
   */
  maxSessions?: number;
  /**
   * Counts tokens, e.g. in a worker thread (`deno task playground` does, so that loading a
   * vocabulary never holds a request back).
   * @default {countOnThisThread}
   */
  countTexts?: CountTexts;
  /**
   * The port the server listens on, read per request: `Host` and `Origin` must name it as
   * well as a loopback host (a missing port is the scheme's default). Absent or 0: not compared.
   */
  port?: () => number;
}

interface Session {
  id: string;
  object: object;
  files: Map<string, SessionFile>;
}

class BadRequest extends Error {}

const EXECUTE_FIELDS = ["tool", "args", "config", "session", "policy", "tokenizers"];

/**
 * The tools the playground runs: all nine (issue 32 item 8), so a prompt author sees `move`,
 * `delete` and `patch` too; their writes land in the workspace as `write`'s do. A name outside
 * this list is refused before anything runs (issue 30 item 8).
 */
export const PLAYGROUND_TOOLS: readonly string[] = TOOL_NAMES;
const SESSION_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/** The largest request body the API reads (CONTRACT C14.2). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The largest value a request may set per config key (CONTRACT C14.2), so one request cannot
 * make the server render gigabytes. A key the library adds later gets {@linkcode DEFAULT_BOUND}
 * until it is listed here. The playground README lists these.
 */
export const CONFIG_BOUNDS: Readonly<Record<string, number>> = Object.freeze({
  listMaxEntries: 10_000,
  readLimit: 100_000,
  readMaxLineLength: 100_000,
  readMaxBytes: 10 * 1024 * 1024,
  // Never above the library's default: a big file is always streamed, never read whole.
  readStreamMinSize: 10 * 1024 * 1024,
  globMaxFiles: 10_000,
  grepMaxMatches: 10_000,
  editSnippet: 1_000,
  readMaxImageBytes: 50 * 1024 * 1024,
  readMaxDocumentBytes: 100 * 1024 * 1024,
});

/** The bound of a config key not in {@linkcode CONFIG_BOUNDS}. */
export const DEFAULT_BOUND = 100_000;

const WIRE_LABELS: Record<WireFormat, string> = {
  "openai-chat": "OpenAI Chat Completions (toOpenAITools)",
  "openai-responses-strict": "OpenAI Responses, strict (toOpenAIResponsesTools)",
  "anthropic": "Anthropic Messages (toAnthropicTools)",
  "mcp": "MCP tools/list (toMcpTools)",
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
  const { workspace, distDir, token } = options;
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
      tools = createFsTools({
        fs,
        config,
        policy: gated ? policy : observeOnly(policy),
        tools: TOOL_NAMES,
      });
      for (const op of ["read", "write", "edit", "move", "delete"]) {
        tools.events.addEventListener(op, record);
      }
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
  // Another local user or process must not either: every call carries the start-up token.
  app.use("/api/*", async (c, next) => {
    const port = options.port?.() ?? 0;
    const failure = guardFailure(c.req.raw, { hostnames: [], token, port, urlHost: true });
    if (failure === "host") {
      const use = port === 0 ? "127.0.0.1" : `127.0.0.1:${port}`;
      return c.json({ error: `host "${new URL(c.req.url).host}" is not allowed: use ${use}` }, 403);
    }
    if (failure === "origin") {
      return c.json({ error: `origin "${c.req.header("origin")}" is not allowed` }, 403);
    }
    if (failure === "token") return c.json({ error: "missing or wrong token" }, 401);
    if (c.req.method === "POST" && !isJson(c.req.header("content-type"))) {
      return c.json({ error: "send the request body as application/json" }, 415);
    }
    await next();
  });

  app.use(
    "/api/*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) =>
        c.json({ error: `request body over ${MAX_BODY_BYTES} bytes (1 MiB): not read` }, 413),
    }),
  );

  // Example arguments that name entries of this workspace (issue 34 item 9), looked up once.
  const examplesPromise = workspaceExamples(workspace);

  app.get("/api/definitions", async (c) => {
    const config = resolveConfigOrThrow(configFromQuery(c.req.query("config")));
    const tools = toolsFor(config, true);
    const response: DefinitionsResponse = {
      tools: tools.definitions.map((d) => ({ ...d })),
      defaultTools: [...DEFAULT_TOOLS],
      examples: await examplesPromise,
      config: { ...config },
      defaults: { ...DEFAULT_CONFIG },
      tokenizers: TOKENIZERS.map((name) => ({ name, label: TOKENIZER_LABELS[name] })),
      defaultTokenizers: [...DEFAULT_TOKENIZERS],
      bounds: boundsOf(DEFAULT_CONFIG),
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
    const counted = await countTokensBounded(
      result.content,
      (request.tokenizers as TokenizerName[] | undefined) ?? DEFAULT_TOKENIZERS,
      options.countTexts ? { count: options.countTexts } : {},
    );
    const response: ExecuteResponse = {
      content: result.content,
      isError: result.isError,
      ...(result.error ? { error: result.error } : {}),
      ...(result.value !== undefined ? { value: result.value } : {}),
      ...(result.attachments ? { attachments: result.attachments } : {}),
      presentation,
      tokens: counted.tokens,
      ...(counted.estimated ? { tokensEstimated: true } : {}),
      ...measure(result.content),
      ms,
      config: { ...config },
      policy: request.policy ?? true,
      session: sessionInfo(s),
    };
    return c.json(response);
  });

  // The prompt of the default tools (the budget `deno task tokens` holds), or of those named.
  app.get("/api/prompt-cost", async (c) => {
    const config = resolveConfigOrThrow(configFromQuery(c.req.query("config")));
    const names = tokenizersFromQuery(c.req.query("tokenizers"));
    const tools = toolsFromQuery(c.req.query("tools"));
    return c.json(await promptCostResponse(config, names, definitionsOf(config, tools)));
  });

  // A prompt variant: the same answer for the definitions with `texts` applied
  // (`createFsTools({ texts })`), so the UI can show A and B side by side.
  app.post("/api/prompt-cost", async (c) => {
    const body = await jsonBody(c);
    if (!isPlainObject(body)) throw new BadRequest("request body must be a JSON object");
    for (const key of Object.keys(body)) {
      if (!["config", "tokenizers", "texts", "tools"].includes(key)) {
        throw new BadRequest(`unknown field "${key}": expected config, tokenizers, texts, tools`);
      }
    }
    if (body.config !== undefined && !isPlainObject(body.config)) {
      throw new BadRequest(`"config" must be a JSON object: got ${JSON.stringify(body.config)}`);
    }
    const config = resolveConfigOrThrow(body.config as Partial<FsToolsConfig> | undefined);
    const names = body.tokenizers === undefined
      ? [...DEFAULT_TOKENIZERS]
      : checkTokenizers(body.tokenizers);
    let definitions: readonly FsToolDefinition[];
    try {
      definitions = toolDefinitions({
        config,
        texts: (body.texts ?? {}) as FsTextsOverride,
        tools: checkTools(body.tools) as typeof TOOL_NAMES,
      });
    } catch (error) {
      throw new BadRequest((error as Error).message);
    }
    return c.json(await promptCostResponse(config, names, definitions));
  });

  async function promptCostResponse(
    config: Readonly<FsToolsConfig>,
    names: readonly TokenizerName[],
    definitions: readonly FsToolDefinition[],
  ): Promise<PromptCostResponse> {
    // The prompt an integrator sends (README): the guidance and the workspace section (C12.9).
    const texts = {
      ...promptTexts(definitions),
      systemPrompt: systemPrompt(definitions, { roots: fs.roots }),
    };
    // Two passes: collect the texts a cost counts, count them all at once (on the counter's
    // thread), then build the costs from those counts.
    const wanted: string[] = [];
    promptCost(texts, (text) => (wanted.push(text), 0));
    const counts = await (options.countTexts ?? countOnThisThread)(names, wanted);
    const costs: Record<string, PromptCost> = {};
    names.forEach((name, i) => {
      const byText = new Map(wanted.map((text, j) => [text, counts[i][j]]));
      costs[name] = promptCost(texts, (text) => byText.get(text) ?? 0);
    });
    const response: PromptCostResponse = {
      config: { ...config },
      tools: definitions.map((d) => ({ ...d })),
      systemPrompt: texts.systemPrompt,
      wire: texts.wire,
      formats: WIRE_FORMATS.map((format) => ({ format, label: WIRE_LABELS[format] })),
      costs,
    };
    return response;
  }

  app.get("/api/tree", async (c) => {
    const response: TreeResponse = {
      root: workspace.root,
      kind: workspace.kind,
      tree: await buildTree(fs, workspace.root),
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

  if (distDir) {
    app.use("*", async (c, next) => {
      await next();
      const immutable = c.req.path.startsWith("/assets/") && c.res.status === 200;
      c.res.headers.set(
        "cache-control",
        immutable ? "public, max-age=31536000, immutable" : "no-cache",
      );
    });
    app.get("*", serveStatic({ root: distDir }));
    app.get("*", async (c, next) => {
      // Not a file: a page path gets the UI (it reads its state from the address).
      if (/\.[A-Za-z0-9]+$/.test(c.req.path) || c.req.path.includes("%")) return await next();
      return await serveStatic({ root: distDir, path: "index.html" })(c, next);
    });
  }
  app.get("*", (c) => {
    if (/\.[A-Za-z0-9]+$/.test(c.req.path) || c.req.path.includes("%")) {
      return c.text("not found", 404);
    }
    return uiMissing(c);
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
  const { tool, args, config, session, policy, tokenizers } = body;
  if (typeof tool !== "string" || tool === "") {
    throw new BadRequest(`"tool" must be a non-empty string: got ${JSON.stringify(tool)}`);
  }
  checkTool(tool);
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
    ...(tokenizers === undefined ? {} : { tokenizers: checkTokenizers(tokenizers) }),
  };
}

/** The tools a prompt-cost request names (`all`, or a list); the default six when absent. */
function checkTools(value: unknown): string[] {
  if (value === undefined) return [...DEFAULT_TOOLS];
  if (value === "all") return [...TOOL_NAMES];
  if (!Array.isArray(value) || value.length === 0) {
    throw new BadRequest(
      `"tools" must be "all" or a non-empty array of ${TOOL_NAMES.join(", ")}: got ${
        JSON.stringify(value)
      }`,
    );
  }
  for (const name of value) checkTool(name);
  return TOOL_NAMES.filter((name) => value.includes(name));
}

function toolsFromQuery(text: string | undefined): string[] {
  if (text === undefined || text === "") return [...DEFAULT_TOOLS];
  return checkTools(text === "all" ? "all" : text.split(","));
}

function definitionsOf(
  config: Readonly<FsToolsConfig>,
  tools: readonly string[],
): readonly FsToolDefinition[] {
  return toolDefinitions({ config, tools: tools as typeof TOOL_NAMES });
}

/**
 * A tool name the playground runs, or a 400 (issue 30 item 8): a crafted name never reaches the
 * tools, the history, a shared link or an exported script.
 */
function checkTool(name: unknown): string {
  if (typeof name !== "string" || !PLAYGROUND_TOOLS.includes(name)) {
    throw new BadRequest(
      `unknown tool ${JSON.stringify(name)}: the playground runs ${PLAYGROUND_TOOLS.join(", ")}`,
    );
  }
  return name;
}

function checkTokenizers(value: unknown): TokenizerName[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new BadRequest(
      `"tokenizers" must be a non-empty array of ${TOKENIZERS.join(", ")}: got ${
        JSON.stringify(value)
      }`,
    );
  }
  for (const name of value) {
    if (typeof name !== "string" || !isTokenizerName(name)) {
      throw new BadRequest(
        `unknown tokenizer ${JSON.stringify(name)}: expected any of ${TOKENIZERS.join(", ")}`,
      );
    }
  }
  return [...new Set(value as TokenizerName[])];
}

function tokenizersFromQuery(text: string | undefined): TokenizerName[] {
  if (text === undefined || text === "") return [...DEFAULT_TOKENIZERS];
  return checkTokenizers(text.split(","));
}

function boundsOf(config: Readonly<FsToolsConfig>): Record<string, number> {
  return Object.fromEntries(
    Object.keys(config).map((key) => [key, CONFIG_BOUNDS[key] ?? DEFAULT_BOUND]),
  );
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
  for (const [key, value] of Object.entries(config ?? {})) {
    const bound = CONFIG_BOUNDS[key] ?? DEFAULT_BOUND;
    if (typeof value === "number" && value > bound) {
      throw new BadRequest(
        `config "${key}" may be at most ${bound} in the playground: got ${value}`,
      );
    }
  }
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? "");
}

function uiMissing(c: Context): Response {
  return c.html(
    "<!doctype html><title>toolfs playground</title><p>The UI is not built yet. " +
      "Run <code>deno task playground</code>, which builds it, or " +
      "<code>deno run -A playground/server/build_ui.ts</code>.</p>",
    503,
  );
}
