// The playground in Chromium showing an image result (CONTRACT C17.3): the envelope text, the
// image itself and its labelled token estimate. Needs /usr/bin/chromium and -A, like
// playground_browser_test.ts; the screenshot goes to test_output/playground-image.png.

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserSkipReason, openPlaygroundBrowser, OUTPUT } from "./_playground_browser.ts";

const NAME = "C17.3 playground in Chromium: an image read shows the image and its token estimate";

const skip = browserSkipReason();

Deno.test({
  name: skip ? `${NAME} [skipped: ${skip}]` : NAME,
  ignore: skip !== undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using opened = await openPlaygroundBrowser();
    const { server, browser } = opened;
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
  },
});
