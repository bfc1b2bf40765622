// The playground's finish in Chromium (issue 30 item 8, issue 32 items 1 and 8, issue 34 item 9):
// a crafted link is refused and runs nothing, all nine tool tabs (patch runs in the fixture
// copy), both footer styles side by side, the footer of a long result shown first, and with
// --root a form that names a file of that directory. Skipped without /usr/bin/chromium or -A.
//
//   deno test -A tests/playground_finish_browser_test.ts

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { browserSkipReason, openPlaygroundBrowser, OUTPUT } from "./_playground_browser.ts";

const skip = browserSkipReason();
const NINE = ["list", "read", "write", "edit", "glob", "grep", "move", "delete", "patch"];

/** A `#s=…` fragment holding `shared` as the playground encodes it. */
function shareHash(shared: Record<string, unknown>): string {
  const bytes = new TextEncoder().encode(JSON.stringify(shared));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `#s=${base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
}

Deno.test({
  name: skip
    ? `playground finish in Chromium [skipped: ${skip}]`
    : "playground in Chromium: a crafted link is refused (30.8); nine tools, patch runs (32.8); both footers side by side (32.1); a long result's footer first (34.9)",
  ignore: skip !== undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using opened = await openPlaygroundBrowser();
    const { server, errors } = opened;
    const page = await opened.page();

    // A link whose pane names a crafted tool: refused whole, nothing runs, the address drops it.
    const evil = "read'; touch /tmp/toolfs-pwned; echo '";
    const link = shareHash({
      tool: evil,
      args: {},
      panes: { A: { tool: evil, args: {} } },
      history: [],
    });
    await page.goto(`${server.url}${link}`);
    const report = page.getByTestId("replay-report");
    await report.waitFor();
    assertEquals(
      await report.textContent(),
      `This link names an unknown tool ${JSON.stringify(evil)}: it was not opened.`,
    );
    assert((await page.getByTestId("pane-a").textContent())?.includes("No call yet"));
    assert(await page.evaluate(`location.hash !== ${JSON.stringify(link)}`), "the link stays");

    // All nine tools, the opt-in three set apart; patch's example runs in the fixture copy.
    const tabs = await page.locator(".tool-picker button").allTextContents();
    assertEquals(tabs, NINE);
    assertEquals(
      await page.locator(".tool-picker button.opt-in").allTextContents(),
      ["move", "delete", "patch"],
    );
    await page.getByTestId("tool-patch").click();
    await page.getByTestId("run-a").click();
    const a = page.getByTestId("pane-a");
    await a.getByTestId("status").waitFor();
    assertEquals(await a.getByTestId("output").textContent(), "Added notes/patched.md");

    // Both footer styles side by side: A the notes' text, B detailedFooters.
    await page.getByTestId("tool-read").click();
    await page.getByTestId("arg-file_path").fill("notes/many-lines.txt");
    await page.getByTestId("config").locator("summary").click();
    await page.getByTestId("config-readMaxBytes").fill("2000");
    await page.getByTestId("run-footers").click();
    const b = page.getByTestId("pane-b");
    await b.getByTestId("footer-pin").waitFor();
    await page.waitForFunction(
      `document.querySelector('[data-testid="pane-a"] [data-testid="footer-pin"]')` +
        `?.textContent?.includes("Output capped.")`,
    );
    const pinA = await a.getByTestId("footer-pin").textContent();
    const pinB = await b.getByTestId("footer-pin").textContent();
    assert(pinA?.includes("(Output capped. Showing lines 1-"), pinA ?? "");
    assert(pinB?.includes("(Output capped at 2000 bytes. Showing lines 1-"), pinB ?? "");
    assert((await b.textContent())?.includes("detailedFooters=true"));

    // The footer of a long result comes first: above its text, and in it too.
    const pinBox = await a.getByTestId("footer-pin").boundingBox();
    const outputBox = await a.getByTestId("output").boundingBox();
    assert(pinBox && outputBox && pinBox.y < outputBox.y, `${pinBox?.y} < ${outputBox?.y}`);
    assert(pinBox.y < 900, `footer at y=${pinBox.y}, below the fold`);
    const text = await a.getByTestId("output").textContent();
    assert(text?.includes(pinA!.replace(/^footer/, "")), text ?? "");
    await page.screenshot({ path: join(OUTPUT, "playground-footers.png") });
    assertEquals(errors, []);
  },
});

Deno.test({
  name: skip
    ? `playground --root in Chromium [skipped: ${skip}]`
    : "playground --root in Chromium: the form names a file of that directory, not a fixture path (34.9)",
  ignore: skip !== undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "toolfs-root-" });
    try {
      await Deno.mkdir(join(dir, "lib"));
      await Deno.writeTextFile(join(dir, "lib", "util.ts"), "export const one = 1;\n");
      await using opened = await openPlaygroundBrowser(["--root", dir]);
      const page = await opened.page();
      await page.goto(opened.server.url);
      await page.getByTestId("tool-read").waitFor();
      assertEquals(await page.getByTestId("arg-file_path").inputValue(), "lib/util.ts");
      await page.getByTestId("run-a").click();
      const a = page.getByTestId("pane-a");
      await a.getByTestId("status").waitFor();
      assertEquals(await a.getByTestId("status").textContent(), "ok");
      await page.getByTestId("tool-edit").click();
      assertEquals(await page.getByTestId("arg-file_path").inputValue(), "lib/util.ts");
      assertEquals(opened.errors, []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
