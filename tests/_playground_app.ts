/**
 * The playground server's app as the API tests drive it (tests/playground_api_test.ts,
 * playground_api_security_test.ts): a fixture workspace, the app with the bearer token added,
 * and requests through `app.request`.
 */

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../mod.ts";
import { createApp } from "../playground/server/app.ts";
import type { ExecuteResponse } from "../playground/server/api_types.ts";
import {
  createFixtureWorkspace,
  FIXTURES_DIR,
  type PlaygroundWorkspace,
} from "../playground/server/workspace.ts";

/** Something that answers requests: the app itself, or the app with the token added. */
export interface App {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

export const TOKEN = "test-token-AAAAAAAAAAAAAAAAAAAAAA";

/** The app with `Authorization: Bearer <TOKEN>` added to every request. */
export function authed(app: ReturnType<typeof createApp>): App {
  return {
    request(path, init = {}) {
      const headers = new Headers(init.headers);
      headers.set("authorization", `Bearer ${TOKEN}`);
      return app.request(path, { ...init, headers });
    },
  };
}

/** A fixture workspace (with a small log: the 20 MiB one has its own test) and its app. */
export async function setUp(): Promise<
  { app: App; raw: ReturnType<typeof createApp>; workspace: PlaygroundWorkspace } & AsyncDisposable
> {
  const workspace = await createFixtureWorkspace({ bigLogBytes: 64 * 1024 });
  const raw = createApp({ workspace, token: TOKEN });
  return { app: authed(raw), raw, workspace, [Symbol.asyncDispose]: () => workspace.dispose() };
}

export function post(app: App, path: string, body: unknown): Promise<Response> {
  return Promise.resolve(app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  }));
}

export async function run(
  app: App,
  tool: string,
  args: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<ExecuteResponse> {
  const response = await post(app, "/api/execute", { tool, args, ...extra });
  assertEquals(response.status, 200, await response.clone().text());
  return await response.json();
}

/** The library's own answer for the same call on the committed fixtures (read-only root). */
export async function direct(tool: string, args: Record<string, unknown>): Promise<string> {
  const fs = new LocalFileSystem({ roots: [{ path: FIXTURES_DIR, write: false }] });
  return (await createFsTools({ fs }).execute(tool, args)).content;
}

export async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  async function walk(path: string, rel: string): Promise<void> {
    for await (const entry of Deno.readDir(path)) {
      const full = join(path, entry.name);
      const key = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(full, key);
      else {
        const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(full));
        files.set(key, Array.from(new Uint8Array(digest), (b) => b.toString(16)).join(""));
      }
    }
  }
  await walk(dir, "");
  return files;
}
