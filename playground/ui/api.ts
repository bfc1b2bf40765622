/**
 * The playground API, as the UI calls it. The types are the server's, so the two cannot drift.
 *
 * @module
 */

import type {
  DefinitionsResponse,
  ExecuteRequest,
  ExecuteResponse,
  PromptCostResponse,
  ResetResponse,
  SessionInfo,
  ToolsConfig,
  TreeResponse,
} from "../server/api_types.ts";

export type * from "../server/api_types.ts";

const TOKEN_KEY = "toolfs-playground-token";

/**
 * Takes the API token from the address (`?token=`, as the server prints it), keeps it for the
 * tab in `sessionStorage` and removes it from the address bar, so it is not left in the history,
 * a shared link or a screenshot (CONTRACT C14.1).
 *
 * @returns The token, or `undefined` when the server runs with `--no-token`.
 */
export function adoptToken(): string | undefined {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl !== null) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete("token");
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const headers = new Headers(init.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  const response = await fetch(path, { ...init, headers });
  const body = await response.json().catch(() => ({ error: response.statusText }));
  if (response.status === 401) {
    throw new Error(
      `${body.error}: open the address deno task playground printed (it ends in ?token=…)`,
    );
  }
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body as T;
}

function post<T>(path: string, body: unknown): Promise<T> {
  return call<T>(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function query(
  config: Partial<ToolsConfig>,
  tokenizers?: readonly string[],
  tools?: "all",
): string {
  const params = new URLSearchParams();
  if (Object.keys(config).length) params.set("config", JSON.stringify(config));
  if (tokenizers?.length) params.set("tokenizers", tokenizers.join(","));
  if (tools) params.set("tools", tools);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** `GET /api/definitions`. */
export function getDefinitions(config: Partial<ToolsConfig> = {}): Promise<DefinitionsResponse> {
  return call(`/api/definitions${query(config)}`);
}

/** `POST /api/execute`. */
export function execute(request: ExecuteRequest): Promise<ExecuteResponse> {
  return post("/api/execute", request);
}

/** `GET /api/tree`. */
export function getTree(): Promise<TreeResponse> {
  return call("/api/tree");
}

/** `GET /api/sessions/:id`. */
export function getSession(id: string): Promise<SessionInfo> {
  return call(`/api/sessions/${encodeURIComponent(id)}`);
}

/**
 * `GET /api/prompt-cost`: the system prompt, the tools per wire format and their tokens, for the
 * default six tools or (`"all"`) all nine.
 */
export function getPromptCost(
  config: Partial<ToolsConfig> = {},
  tokenizers: readonly string[] = [],
  tools?: "all",
): Promise<PromptCostResponse> {
  return call(`/api/prompt-cost${query(config, tokenizers, tools)}`);
}

/** `POST /api/prompt-cost`: the same for the definitions with text overrides applied. */
export function getPromptVariant(
  texts: Record<string, unknown>,
  config: Partial<ToolsConfig> = {},
  tokenizers: readonly string[] = [],
): Promise<PromptCostResponse> {
  return post("/api/prompt-cost", {
    texts,
    ...(Object.keys(config).length ? { config } : {}),
    ...(tokenizers.length ? { tokenizers } : {}),
  });
}

/** `POST /api/reset`. */
export function resetWorkspace(): Promise<ResetResponse> {
  return post("/api/reset", {});
}
