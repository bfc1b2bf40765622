// The playground in Chromium showing an image result (CONTRACT C17.3): the envelope text, the
// image itself and its labelled token estimate. Needs /usr/bin/chromium and -A, like
// playground_browser_test.ts; the screenshot goes to test_output/playground-image.png.

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { PLAYGROUND_PERMISSIONS, startPlayground } from "./_playground_process.ts";

const CHROMIUM = "/usr/bin/chromium";
const REPO = fileURLToPath(new URL("../", import.meta.url));
const OUTPUT = join(REPO, "test_output");
const NAME = "C17.3 playground in Chromium: an image read shows the image and its token estimate";

function skipReason(): string | undefined {
  const missing = ["run", "net", "env", "sys", "ffi"].filter((name) =>
    Deno.permissions.querySync({ name } as Deno.PermissionDescriptor).state !== "granted"
  );
  if (missing.length) return `needs ${missing.map((n) => `--allow-${n}`).join(" ")} (-A)`;
  try {
    Deno.statSync(CHROMIUM);
  } catch {
    return `${CHROMIUM} is missing (apt-get install chromium)`;
  }
  return undefined;
}

const skip = skipReason();

Deno.test({
  name: skip ? `${NAME} [skipped: ${skip}]` : NAME,
  ignore: skip !== undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { chromium } = await import("playwright-core");
    const main = join(REPO, "playground", "server", "main.ts");
    const server = await startPlayground(["run", ...PLAYGROUND_PERMISSIONS, main, "--port", "0"], {
      cwd: REPO,
    });
    if (server.url === undefined) throw new Error(`the server did not start:\n${server.output}`);
    const profile = await Deno.makeTempDir({ prefix: "toolfs-chromium-" });
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
      viewport: { width: 1440, height: 900 },
    });
    try {
      browser.setDefaultTimeout(90_000);
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.getByTestId("tool-read").click();
      await page.getByTestId("arg-file_path").fill("images/diagram.png");
      await page.getByTestId("run-a").click();
      const a = page.getByTestId("pane-a");
      await a.getByTestId("attachment-image").waitFor();
      assertEquals(
        await a.getByTestId("output").textContent(),
        "<path>images/diagram.png</path>\n<type>image</type>\n<content>\nimage/png 160x96, 2.4 KiB\n</content>",
      );
      // The image is shown at its own size: the browser decoded the attachment.
      const natural = await a.getByTestId("attachment-image").evaluate((
        img: { naturalWidth: number; naturalHeight: number },
      ) => [img.naturalWidth, img.naturalHeight]);
      assertEquals(natural, [160, 96]);
      // 160 × 96 / 750 = 20.48, rounded up.
      assertEquals(await a.getByTestId("image-tokens").textContent(), "≈ 21 tokens");
      assert((await a.textContent())?.includes("Anthropic estimate: width × height / 750"));
      await Deno.mkdir(OUTPUT, { recursive: true });
      await page.screenshot({ path: join(OUTPUT, "playground-image.png") });
    } finally {
      await browser.close();
      await server.stop();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    }
  },
});
