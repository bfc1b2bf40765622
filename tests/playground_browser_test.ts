// The playground in a real browser: Debian's Chromium driven by playwright-core. Needs
// /usr/bin/chromium and `-A` (it starts the server and the browser as child processes):
//
//   deno test -A tests/playground_browser_test.ts
//
// Without them the test is skipped and says why. The screenshot goes to test_output/.

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../mod.ts";
import { FIXTURES_DIR } from "../playground/server/workspace.ts";

const CHROMIUM = "/usr/bin/chromium";
const REPO = fileURLToPath(new URL("../", import.meta.url));
const MAIN = join(REPO, "playground", "server", "main.ts");
const SCREENSHOT = join(REPO, "test_output", "playground.png");
const NAME = "playground in Chromium: read in A, list in B, both with exact text and tokens";

function skipReason(): string | undefined {
  const missing = [
    ["run", Deno.permissions.querySync({ name: "run" })],
    ["net", Deno.permissions.querySync({ name: "net", host: "127.0.0.1" })],
    ["env", Deno.permissions.querySync({ name: "env" })],
    ["sys", Deno.permissions.querySync({ name: "sys" })],
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

const skip = skipReason();
if (skip) console.warn(`%cskipping the playground browser test: ${skip}`, "color: yellow");

/** Starts `playground/server/main.ts --port 0` and waits for the URL it prints. */
async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-net=127.0.0.1",
      "--allow-run",
      "--allow-sys",
      MAIN,
      "--port",
      "0",
    ],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let log = "";
  let resolveUrl: (url: string) => void;
  const url = new Promise<string>((resolve) => (resolveUrl = resolve));
  async function drain(stream: ReadableStream<Uint8Array>): Promise<void> {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      log += text;
      const found = /toolfs playground: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(log);
      if (found) resolveUrl(found[1]);
    }
  }
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  const exited = child.status.then((status) => {
    throw new Error(`the server exited (${status.code}) before it listened:\n${log}`);
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the server did not start:\n${log}`)), 180_000);
  });
  try {
    const found = await Promise.race([url, exited, timeout]);
    exited.catch(() => {});
    return {
      url: found,
      async stop() {
        child.kill("SIGTERM");
        await child.status;
        await drained;
      },
    };
  } catch (error) {
    child.kill("SIGKILL");
    await child.status;
    await drained;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** What the library itself answers on the committed fixtures (read-only). */
async function expected(tool: string, args: Record<string, unknown>): Promise<string> {
  const fs = new LocalFileSystem({ roots: [{ path: FIXTURES_DIR, write: false }] });
  return (await createFsTools({ fs }).execute(tool, args)).content;
}

Deno.test({
  name: skip ? `${NAME} [skipped: ${skip}]` : NAME,
  ignore: skip !== undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { chromium } = await import("playwright-core");
    const server = await startServer();
    const profile = await Deno.makeTempDir({ prefix: "toolfs-chromium-" });
    const browser = await chromium.launchPersistentContext(profile, {
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
    });
    const errors: string[] = [];
    try {
      const page = await browser.newPage();
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(server.url);

      // Pane A: read a fixture with the form and the Run button.
      await page.getByTestId("tool-read").click();
      await page.getByTestId("arg-file_path").fill("notes/crlf.txt");
      await page.getByTestId("run-a").click();
      const a = page.getByTestId("pane-a");
      await a.getByTestId("output").waitFor();
      const readText = await expected("read", { file_path: "notes/crlf.txt" });
      assertEquals(await a.getByTestId("output").textContent(), readText);
      for (const tokenizer of ["deepseek_v3", "o200k"]) {
        const count = Number(await a.getByTestId(`tokens-${tokenizer}`).textContent());
        assert(count > 0, `${tokenizer} tokens in A: ${count}`);
      }
      assertEquals(
        Number((await a.getByTestId("bytes").textContent())?.replace(/,/g, "")),
        new TextEncoder().encode(readText).length,
      );
      assert((await page.getByTestId("session-files").textContent())?.includes("notes/crlf.txt"));

      // Pane B: list a directory picked in the tree, run with the keyboard.
      await page.locator('[data-testid="tree-node"][data-path="notes"]').click();
      assertEquals(await page.getByTestId("arg-path").inputValue(), "notes");
      await page.keyboard.press("Control+Shift+Enter");
      const b = page.getByTestId("pane-b");
      await b.getByTestId("output").waitFor();
      assertEquals(
        await b.getByTestId("output").textContent(),
        await expected("list", { path: "notes" }),
      );
      assert(Number(await b.getByTestId("tokens-o200k").textContent()) > 0);

      // Both panes still show their text, and the difference is reported.
      assertEquals(await a.getByTestId("output").textContent(), readText);
      const diff = await page.getByTestId("token-diff").textContent();
      assert(diff?.includes("deepseek_v3") && diff.includes("o200k"), diff ?? "");

      await Deno.mkdir(join(REPO, "test_output"), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      assertEquals(errors, []);
    } finally {
      await browser.close();
      await server.stop();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    }
  },
});
