// Prompt variants in Chromium (issue 25): change read's description in B, see the definitions'
// token delta and the recorded session's delta, copy the override code.
//
//   deno test -A tests/playground_variants_browser_test.ts
//
// Skipped without /usr/bin/chromium or -A. Screenshots go to test_output/.

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { toAnthropicTools } from "../formats.ts";
import { toolDefinitions } from "../src/tools/tools.ts";
import { browserSkipReason, openPlaygroundBrowser, OUTPUT } from "./_playground_browser.ts";

const skip = browserSkipReason();
if (skip) console.warn(`%cskipping the playground variants browser test: ${skip}`, "color: yellow");

const DESCRIPTION =
  "Read a text file as numbered lines. Large files come in windows; the footer says how to go on.";

Deno.test({
  name: skip
    ? `playground in Chromium: prompt variants [skipped: ${skip}]`
    : "playground in Chromium: read's description changed in B shows the exact definitions, their token delta, the session's delta and the override code",
  ignore: skip !== undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using opened = await openPlaygroundBrowser();
    const { server, browser, errors } = opened;
    try {
      const origin = new URL(server.url).origin;
      await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
      const page = await opened.page();
      await page.goto(server.url);
      await page.getByTestId("view-session").waitFor();

      // A recorded session to price the variant over.
      await page.getByTestId("view-session").click();
      await page.getByTestId("history-example").click();
      await page.getByTestId("history-row").nth(4).waitFor();

      await page.getByTestId("view-variants").click();
      await page.getByTestId("variant-tool-read").click();
      const delta = page.getByTestId("variant-row-anthropic").locator(".delta").first();
      await delta.getByText("±0").waitFor();
      await page.getByTestId("variant-B-description").fill(DESCRIPTION);
      await page.getByTestId("variant-B-param-offset").fill("First line to show, 1-based.");
      await delta.getByText(/^\+\d+$/).waitFor();

      // The exact Anthropic tools array for B is the library's with these texts.
      const texts = {
        read: { description: DESCRIPTION, parameters: { offset: "First line to show, 1-based." } },
      };
      const expected = JSON.stringify(toAnthropicTools(toolDefinitions({ texts })));
      await page.getByTestId("variant-text-B").getByText("First line to show", { exact: false })
        .waitFor();
      assertEquals(await page.getByTestId("variant-text-B").textContent(), expected);
      assertEquals(
        await page.getByTestId("variant-text-A").textContent(),
        JSON.stringify(toAnthropicTools(toolDefinitions())),
      );
      const session = await page.getByTestId("variant-session-delta").textContent();
      assert(session?.includes("5 calls") && /\(\+\d+\)/.test(session), session ?? "");
      await page.screenshot({ path: join(OUTPUT, "playground-variants.png"), fullPage: true });

      // The override code is what a host ships.
      await page.getByTestId("copy-override").click();
      const code = String(await page.evaluate("navigator.clipboard.readText()"));
      assert(code.includes("createFsTools({") && code.includes("texts: {"), code);
      const json = code.slice(code.indexOf("texts: ") + 7, code.lastIndexOf(","));
      assertEquals(JSON.parse(json), texts);

      // The variant travels in the link.
      await page.waitForFunction(() => location.hash.startsWith("#s="));
      const other = await browser.newPage();
      await other.goto(`${server.url}${new URL(page.url()).hash}`);
      await other.getByTestId("link-gate").waitFor(); // the example session has an edit
      await other.getByTestId("link-dismiss").click();
      await other.getByTestId("view-variants").click();
      await other.getByTestId("variant-tool-read").click();
      assertEquals(await other.getByTestId("variant-B-description").inputValue(), DESCRIPTION);
      assertEquals(errors, []);
    } catch (error) {
      for (const [i, p] of browser.pages().entries()) {
        await p.screenshot({ path: join(OUTPUT, `playground-variants-failure-${i}.png`) })
          .catch(() => {});
      }
      throw error;
    }
  },
});
