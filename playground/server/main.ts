/**
 * `deno task playground`: builds the UI when it is missing or stale, sets up the workspace and
 * serves UI and API on 127.0.0.1.
 *
 * ```sh
 * deno task playground                 # fixture workspace on http://127.0.0.1:8787/
 * deno task playground --port 9000     # or PORT=9000
 * deno task playground --root ~/code/x # point the tools at your own directory (read-write!)
 * ```
 *
 * It prints `toolfs playground: http://127.0.0.1:<port>/?token=<token>`: every API call needs
 * that token (CONTRACT C14.1), so other local users and processes cannot drive the tools.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { DIST_DIR, ensureUiBuilt } from "./build_ui.ts";
import {
  createFixtureWorkspace,
  openDirectoryWorkspace,
  type PlaygroundWorkspace,
} from "./workspace.ts";
import { headCarriesToken } from "../../src/http/http_guard.ts";
import type * as ServeModule from "../../src/http/bounded_serve.ts";
import type * as AppModule from "./app.ts";
import type * as TokenizersModule from "../../tokenizers/mod.ts";
import type * as CounterModule from "./token_counter.ts";

/**
 * Imports one of the server's own modules by a specifier computed at run time. A literal import
 * is loaded before `main` runs; this one loads while the UI builds in its child process and the
 * workspace is copied, so on a fresh clone the server's npm downloads and the UI build's overlap
 * (issue 34 item 1).
 */
function importLater<T>(relative: string): Promise<T> {
  return import(new URL(relative, import.meta.url).href);
}

const USAGE = `Usage: deno task playground [--port <n>] [--root <dir>] [--no-build] [--no-token]

  --port <n>    port on 127.0.0.1 (default: $PORT, else 8787; 0 picks a free one)
  --root <dir>  run the tools in <dir> instead of a temporary copy of playground/fixtures/
  --no-build    serve the existing UI build without checking it is current
  --no-token    let API calls through without the start-up token (tests only)`;

/** A mistake on the command line: reported with the usage text. */
class UsageError extends Error {}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(`port must be a whole number from 0 to 65535: got "${text}"`);
  }
  return port;
}

function envPort(): string | undefined {
  const granted = Deno.permissions.querySync({ name: "env", variable: "PORT" }).state;
  return granted === "granted" ? Deno.env.get("PORT") || undefined : undefined;
}

/** A fresh URL-safe token of 192 random bits (CONTRACT C14.1). */
function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: Deno.args,
      options: {
        port: { type: "string" },
        root: { type: "string" },
        "no-build": { type: "boolean" },
        "no-token": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = parsePort(values.port ?? envPort() ?? "8787");
  // The UI build (a child process), the workspace copy and the server's modules load side by
  // side: a fresh clone prints its address sooner (issue 34 item 1).
  const [built, opened, loaded] = await Promise.allSettled([
    values["no-build"] ? Promise.resolve(false) : ensureUiBuilt(),
    values.root ? openDirectoryWorkspace(values.root) : createFixtureWorkspace(),
    Promise.all([
      importLater<typeof ServeModule>("../../src/http/bounded_serve.ts"),
      importLater<typeof AppModule>("./app.ts"),
      importLater<typeof TokenizersModule>("../../tokenizers/mod.ts"),
      importLater<typeof CounterModule>("./token_counter.ts"),
    ]),
  ]);
  if (opened.status === "rejected") throw opened.reason;
  const workspace: PlaygroundWorkspace = opened.value;
  for (const settled of [built, loaded]) {
    if (settled.status === "rejected") {
      await workspace.dispose();
      throw settled.reason;
    }
  }
  const [{ serveBounded }, { createApp }, { DEFAULT_TOKENIZERS }, { workerCounter }] =
    (loaded as PromiseFulfilledResult<
      [typeof ServeModule, typeof AppModule, typeof TokenizersModule, typeof CounterModule]
    >).value;
  if (workspace.warning) console.warn(workspace.warning);
  const token = values["no-token"] ? null : newToken();
  if (token === null) {
    console.warn(
      "warning: --no-token: any local process can run the tools through this server (tests only)",
    );
  }
  let listening = 0;
  // Tokens are counted in a worker thread: loading a vocabulary takes a second or more of
  // parsing, which here would hold back every request, the first page's too (issue 34 item 9).
  const counter = workerCounter();
  const app = createApp({
    workspace,
    distDir: DIST_DIR,
    token,
    port: () => listening,
    countTexts: counter.count,
  });

  // Bounded connections and request-head time; survives running out of descriptors.
  const server = await serveBounded({
    hostname: "127.0.0.1",
    port,
    // A call with the token may take longer than the 30 s a connection without one is given.
    mayWait: (head) => headCarriesToken(head, token),
    log: (line) => console.error(`playground: ${line}`),
  }, app.fetch);
  listening = server.addr.port;
  const what = workspace.kind === "fixtures"
    ? `a fresh copy of playground/fixtures/ at ${workspace.root}`
    : `${workspace.root} (your files: writes are real)`;
  console.log(`Workspace: ${what}`);
  const query = token === null ? "" : `?token=${token}`;
  console.log(`toolfs playground: http://127.0.0.1:${listening}/${query}`);
  // Load the default tokenizers once the server listens, in the worker: nothing waits for them
  // but the first counts.
  const loading = performance.now();
  counter.preload(DEFAULT_TOKENIZERS).then(
    () =>
      console.error(
        `playground: tokenizers ${DEFAULT_TOKENIZERS.join(", ")} ready in ${
          Math.round(performance.now() - loading)
        } ms (worker thread)`,
      ),
    (error) => console.error(`playground: tokenizers failed to load: ${error.message ?? error}`),
  );

  let stopping = false;
  async function stop(): Promise<void> {
    if (stopping) return;
    stopping = true;
    await server.shutdown();
    counter.terminate();
    await workspace.dispose();
    Deno.exit(0);
  }
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await server.finished;
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    console.error(`playground: ${error instanceof Error ? error.message : error}`);
    if (error instanceof UsageError) console.error(USAGE);
    Deno.exit(1);
  }
}
