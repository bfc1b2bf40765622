// The playground's layout, sessions and links in Chromium (issue 25; issue 19 finding 5):
//
//   deno test -A tests/playground_session_browser_test.ts
//
// Skipped without /usr/bin/chromium or -A. Screenshots go to test_output/.

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { browserSkipReason, openPlaygroundBrowser, OUTPUT } from "./_playground_browser.ts";

const skip = browserSkipReason();
if (skip) console.warn(`%cskipping the playground session browser test: ${skip}`, "color: yellow");

/** Whether a pane's output starts above the fold, beside (right of) the call form. */
async function aboveFoldBesideForm(page: Page, pane: string): Promise<void> {
  const output = await page.getByTestId(pane).getByTestId("output").boundingBox();
  const form = await page.locator(".editor").boundingBox();
  assert(output && form, "output and form are laid out");
  assert(output.y + 120 < 900, `output starts at y=${output.y}`);
  assert(
    output.x >= form.x + form.width,
    `output x=${output.x}, form ends at ${form.x + form.width}`,
  );
}

Deno.test({
  name: skip
    ? `playground in Chromium: layout, session history, links [skipped: ${skip}]`
    : "playground in Chromium: results beside the form; grep folded; errors wrapped; ? shortcuts; five-call session chart and exports; a link with an edit waits for a click and then reproduces; a link without the token explains itself",
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
      await page.getByTestId("tool-read").waitFor();

      // read in A: the result sits beside the form, above the fold.
      await page.getByTestId("arg-file_path").fill("src/app/main.ts");
      await page.getByTestId("run-a").click();
      await page.getByTestId("pane-a").getByTestId("output").waitFor();
      await aboveFoldBesideForm(page, "pane-a");
      // One call as a CLI line.
      await page.getByTestId("pane-a").getByTestId("copy-cli").click();
      assertEquals(
        await page.evaluate("navigator.clipboard.readText()"),
        `deno run --no-prompt --allow-read --allow-write jsr:@toolfs/fs@^0.4/cli --root '.' 'read' '{"file_path":"src/app/main.ts"}'`,
      );

      // grep in B: the rarely used arguments are folded; the result is above the fold too.
      await page.getByTestId("tool-grep").click();
      const more = page.getByTestId("more-args");
      assertEquals(await more.getAttribute("open"), null);
      assert((await more.locator("summary").textContent())?.includes("output_mode"));
      await page.getByTestId("arg-pattern").fill("export");
      await page.getByTestId("run-b").click();
      await page.getByTestId("pane-b").locator(".pane-title", { hasText: "export" }).waitFor();
      await aboveFoldBesideForm(page, "pane-b");
      await page.locator(".notice").waitFor({ state: "detached" }); // "CLI line copied."
      await page.screenshot({ path: join(OUTPUT, "playground-layout.png") });

      // An error result wraps even with "Wrap lines" off.
      await page.getByTestId("tool-read").click();
      await page.getByTestId("arg-file_path").fill("hints/roter.ts");
      await page.getByTestId("run-b").click();
      await page.getByTestId("pane-b").getByTestId("status").getByText("FS_NOT_FOUND").waitFor();
      assertEquals(await page.getByTestId("toggle-wrap").isChecked(), false);
      const whiteSpace = await page.getByTestId("pane-b").getByTestId("output")
        .evaluate((e) => {
          const style = (globalThis as unknown as {
            getComputedStyle(e: unknown): { whiteSpace: string };
          }).getComputedStyle(e);
          return style.whiteSpace;
        });
      assertEquals(whiteSpace, "pre-wrap");

      // ? lists the shortcuts; Escape closes; f folds the form and the panes take the width.
      await page.locator("body").click({ position: { x: 700, y: 880 } });
      await page.keyboard.press("?");
      await page.getByTestId("shortcuts").getByText("fold or unfold the call form").waitFor();
      await page.screenshot({ path: join(OUTPUT, "playground-shortcuts.png") });
      await page.keyboard.press("Escape");
      await page.getByTestId("shortcuts").waitFor({ state: "detached" });
      await page.keyboard.press("f");
      await page.getByTestId("unfold-form").waitFor();
      assertEquals(await page.locator(".editor").isVisible(), false);
      await page.getByTestId("unfold-form").click();
      await page.locator(".editor").waitFor();

      // Session: the five-call example (read → edit → read) from a reset workspace.
      await page.getByTestId("view-session").click();
      await page.getByTestId("history-example").click();
      await page.getByTestId("history-row").nth(4).waitFor();
      assertEquals(await page.getByTestId("history-row").count(), 5);
      assertEquals(await page.getByTestId("chart-bar").count(), 5);
      const perCall = (await page.getByTestId("history-tokens").allTextContents())
        .map((t) => Number(t.replace(/,/g, "")));
      const cumulative = (await page.getByTestId("history-cumulative").allTextContents())
        .map((t) => Number(t.replace(/,/g, "")));
      assert(perCall.every((n) => n > 0), JSON.stringify(perCall));
      let sum = 0;
      assertEquals(cumulative, perCall.map((n) => (sum += n)));
      const rows = await page.getByTestId("history-row").allTextContents();
      assert(rows[2].includes("edit") && rows[2].includes("ok"), rows[2]);
      await page.screenshot({ path: join(OUTPUT, "playground-session.png") });
      await page.getByTestId("export-cli-script").click();
      const script = String(await page.evaluate("navigator.clipboard.readText()"));
      assert(script.startsWith("#!/bin/sh") && script.includes("jsr:@toolfs/fs@^0.4/cli"), script);
      assertEquals(script.match(/^toolfs '/gm)?.length, 5);
      const golden = await page.getByTestId("export-golden").getAttribute("href");
      assert(decodeURIComponent(golden ?? "").includes('"edit"'));

      // The link carries the five calls. Opened in a new tab, it shows them and runs nothing.
      await page.getByTestId("view-calls").click();
      await page.waitForFunction(() => location.hash.startsWith("#s="));
      const link = new URL(page.url()).hash;
      const aText = await page.getByTestId("pane-a").getByTestId("output").textContent();
      const bText = await page.getByTestId("pane-b").getByTestId("output").textContent();
      const other = await opened.page();
      await other.goto(`${server.url}${link}`);
      const gate = other.getByTestId("link-gate");
      await gate.waitFor();
      assert((await gate.textContent())?.includes("nothing has run yet"));
      assertEquals(await other.getByTestId("link-calls").locator("li").count(), 5);
      assertEquals(await other.getByTestId("pane-a").getByTestId("output").count(), 0);
      assertEquals(await other.getByTestId("pane-b").getByTestId("output").count(), 0);
      await other.screenshot({ path: join(OUTPUT, "playground-link-gate.png") });
      // Clicked: the workspace is reset and the calls replay; every result matches the author's.
      await other.getByTestId("link-reset-replay").click();
      const report = other.getByTestId("replay-report");
      await report.waitFor();
      assertEquals(
        await report.textContent(),
        "Replayed 5 calls on a reset workspace: all 5 results match the recorded ones.",
      );
      assertEquals(await other.getByTestId("pane-a").getByTestId("output").textContent(), aText);
      assertEquals(await other.getByTestId("pane-b").getByTestId("output").textContent(), bText);
      await other.screenshot({ path: join(OUTPUT, "playground-link-replayed.png") });

      // Without the token: what the link holds and how to run the playground locally.
      const stranger = await browser.newPage();
      await stranger.goto(`${origin}/${link}`);
      const page401 = stranger.getByTestId("no-token");
      await page401.waitFor();
      assert((await page401.textContent())?.includes("deno task playground"));
      assertEquals(await page401.locator(".link-calls li").count(), 5);
      await stranger.screenshot({ path: join(OUTPUT, "playground-no-token.png") });
      assertEquals(errors, []);
    } catch (error) {
      for (const [i, p] of browser.pages().entries()) {
        await p.screenshot({ path: join(OUTPUT, `playground-session-failure-${i}.png`) })
          .catch(() => {});
      }
      throw error;
    }
  },
});
