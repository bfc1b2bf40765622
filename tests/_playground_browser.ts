// Shared by the playground's Chromium tests: why a test is skipped, the server as a child
// process and a headless Chromium (Debian's, driven by playwright-core) at 1440×900.

import { fileURLToPath } from "node:url";
import { join } from "node:path";
import {
  PLAYGROUND_PERMISSIONS,
  type StartedPlayground,
  startPlayground,
} from "./_playground_process.ts";

/** Debian's Chromium. */
export const CHROMIUM = "/usr/bin/chromium";
/** The repository root. */
export const REPO: string = fileURLToPath(new URL("../", import.meta.url));
/** Where the screenshots go. */
export const OUTPUT: string = join(REPO, "test_output");
const MAIN = join(REPO, "playground", "server", "main.ts");

/** Why the browser tests cannot run here, or `undefined` when they can. */
export function browserSkipReason(): string | undefined {
  const missing = [
    ["run", Deno.permissions.querySync({ name: "run" })],
    ["net", Deno.permissions.querySync({ name: "net", host: "127.0.0.1" })],
    ["env", Deno.permissions.querySync({ name: "env" })],
    ["sys", Deno.permissions.querySync({ name: "sys" })],
    // Playwright reads /proc special files, which only -A allows; ffi is granted by -A alone here.
    ["ffi", Deno.permissions.querySync({ name: "ffi" })],
  ].filter(([, status]) => (status as Deno.PermissionStatus).state !== "granted")
    .map(([name]) => `--allow-${name}`);
  if (missing.length) return `needs ${missing.join(" ")} (run with -A)`;
  try {
    Deno.statSync(CHROMIUM);
  } catch {
    return `${CHROMIUM} is missing (apt-get install chromium)`;
  }
  return undefined;
}

/** Starts `playground/server/main.ts --port 0` (building the UI) and waits for its URL. */
export async function startServer(
  extra: string[] = [],
): Promise<StartedPlayground & { url: string }> {
  const server = await startPlayground(
    ["run", ...PLAYGROUND_PERMISSIONS, MAIN, "--port", "0", ...extra],
    { cwd: REPO },
  );
  const { url } = server;
  if (url === undefined) {
    throw new Error(`the server exited (${server.code}) before it listened:\n${server.output}`);
  }
  return Object.assign(server, { url });
}

/** The headless Chromium options every playground browser test uses. */
export const CHROMIUM_OPTIONS = {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
  ],
  viewport: { width: 1440, height: 900 },
};

/** A playground server and a headless Chromium on it, both closed by `await using`. */
export interface PlaygroundBrowser extends AsyncDisposable {
  /** The server, started by {@linkcode startServer}. */
  server: StartedPlayground & { url: string };
  /** Chromium's persistent context, with a 90 s default timeout. */
  browser: import("playwright-core").BrowserContext;
  /** The uncaught errors of the pages opened by {@linkcode PlaygroundBrowser.page}. */
  errors: string[];
  /** A new page whose uncaught errors go to `errors`. */
  page(): Promise<import("playwright-core").Page>;
}

/**
 * Starts the playground and a headless Chromium (a fresh profile) for one browser test.
 *
 * @param extra Extra arguments for the server.
 * @returns Both, closed together (the profile removed) when disposed.
 */
export async function openPlaygroundBrowser(extra: string[] = []): Promise<PlaygroundBrowser> {
  const { chromium } = await import("playwright-core");
  const server = await startServer(extra);
  const profile = await Deno.makeTempDir({ prefix: "toolfs-chromium-" });
  const browser = await chromium.launchPersistentContext(profile, CHROMIUM_OPTIONS);
  // A loaded machine (two cores, several test runs) can take long to load a vocabulary.
  browser.setDefaultTimeout(90_000);
  await Deno.mkdir(OUTPUT, { recursive: true }); // the screenshots' directory
  const errors: string[] = [];
  return {
    server,
    browser,
    errors,
    async page() {
      const page = await browser.newPage();
      page.on("pageerror", (error) => errors.push(error.message));
      return page;
    },
    async [Symbol.asyncDispose]() {
      await browser.close();
      await server.stop();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}
