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

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, init);
  const body = await response.json().catch(() => ({ error: response.statusText }));
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

function configQuery(config: Partial<ToolsConfig>): string {
  return Object.keys(config).length ? `?config=${encodeURIComponent(JSON.stringify(config))}` : "";
}

/** `GET /api/definitions`. */
export function getDefinitions(config: Partial<ToolsConfig> = {}): Promise<DefinitionsResponse> {
  return call(`/api/definitions${configQuery(config)}`);
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

/** `GET /api/prompt-cost`. */
export function getPromptCost(config: Partial<ToolsConfig> = {}): Promise<PromptCostResponse> {
  return call(`/api/prompt-cost${configQuery(config)}`);
}

/** `POST /api/reset`. */
export function resetWorkspace(): Promise<ResetResponse> {
  return post("/api/reset", {});
}
