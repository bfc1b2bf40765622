// The playground in a real browser: Debian's Chromium driven by playwright-core. Needs
// /usr/bin/chromium and `-A` (it starts the server and the browser as child processes):
//
//   deno test -A tests/playground_browser_test.ts
//
// Without them the test is skipped and says why. The screenshot goes to test_output/.

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem, systemPrompt } from "../mod.ts";
import { toAnthropicTools, toOpenAITools } from "../formats.ts";
import { FIXTURES_DIR } from "../playground/server/workspace.ts";
import { browserSkipReason, openPlaygroundBrowser, OUTPUT } from "./_playground_browser.ts";

const NAME =
  "C14.1 playground in Chromium: token adopted; read in A, list in B; line diff; tokenizers; system prompt; shared link re-runs both calls";

const skip = browserSkipReason();
if (skip) console.warn(`%cskipping the playground browser test: ${skip}`, "color: yellow");

function library() {
  const fs = new LocalFileSystem({ roots: [{ path: FIXTURES_DIR, write: false }] });
  return createFsTools({ fs });
}

/** What the library itself answers on the committed fixtures (read-only). */
async function expected(tool: string, args: Record<string, unknown>): Promise<string> {
  return (await library().execute(tool, args)).content;
}

Deno.test({
  name: skip ? `${NAME} [skipped: ${skip}]` : NAME,
  ignore: skip !== undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using opened = await openPlaygroundBrowser();
    const { server, browser, errors } = opened;
    try {
      const page = await opened.page();

      // Without the token the API refuses and the page says how to get in (C14.1).
      const origin = new URL(server.url).origin;
      await page.goto(`${origin}/`);
      await page.getByText("missing or wrong token").waitFor();

      // With it: the token leaves the address bar and stays for the tab.
      await page.goto(server.url);
      await page.getByTestId("tool-read").waitFor();
      assert(!page.url().includes("token="), page.url());

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
      await page.screenshot({ path: join(OUTPUT, "playground.png") });

      // Line diff: the same read with a smaller limit in B.
      await page.getByTestId("tool-read").click();
      await page.getByTestId("arg-file_path").fill("notes/crlf.txt");
      await page.getByTestId("arg-limit").fill("3");
      await page.getByTestId("run-b").click();
      await b.locator(".pane-title", { hasText: "Read notes/crlf.txt" }).waitFor();
      await page.getByTestId("toggle-diff").check();
      const lineDiff = page.getByTestId("line-diff");
      await lineDiff.waitFor();
      const removed = Number((await lineDiff.getByTestId("diff-removed").textContent())?.slice(1));
      const added = Number((await lineDiff.getByTestId("diff-added").textContent())?.slice(1));
      assert(removed >= 3 && added >= 1, `-${removed} +${added}`);
      const deleted = await lineDiff.locator('[data-kind="del"]').allTextContents();
      assert(deleted.some((line) => line.includes("4: ")), JSON.stringify(deleted));
      await page.screenshot({ path: join(OUTPUT, "playground-diff.png") });

      // Tokenizers: add Llama 3, Qwen 3 and Gemma 3 (loaded on first use).
      await page.getByTestId("tokenizers").locator("summary").click();
      for (const name of ["llama3", "qwen3", "gemma3"]) {
        await page.getByTestId(`tokenizer-${name}`).check();
      }
      await page.getByTestId("tokenizers").locator("summary").click();
      await page.getByTestId("arg-limit").fill(""); // A: the whole file again
      await page.getByTestId("run-a").click();
      for (const name of ["llama3", "qwen3", "gemma3"]) {
        const count = await a.getByTestId(`tokens-${name}`).textContent({ timeout: 120_000 });
        assert(Number(count) > 0, `${name}: ${count}`);
      }
      await page.screenshot({ path: join(OUTPUT, "playground-tokenizers.png") });

      // System prompt view: the exact prompt and wire formats, with tokens per tokenizer.
      await page.getByTestId("view-system-prompt").click();
      const definitions = library().definitions;
      const promptText = page.getByTestId("system-prompt-text");
      await promptText.waitFor();
      // The prompt an integrator sends: the guidance, then the workspace section (C12.9).
      const shownPrompt = (await promptText.textContent()) ?? "";
      assert(
        shownPrompt.startsWith(`${systemPrompt(definitions)}\n\nThe workspace is `),
        shownPrompt,
      );
      assert(shownPrompt.endsWith("(read-only)."), shownPrompt);
      assertEquals(
        await page.getByTestId("wire-text").textContent(),
        JSON.stringify(toOpenAITools(definitions)),
      );
      await page.getByTestId("format-anthropic").click();
      assertEquals(
        await page.getByTestId("wire-text").textContent(),
        JSON.stringify(toAnthropicTools(definitions)),
      );
      const chips = await page.getByTestId("system-prompt-tokens").textContent();
      for (const label of ["DeepSeek V3", "Llama 3", "Qwen 3", "Gemma 3"]) {
        assert(chips?.includes(label), chips ?? "");
      }
      await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
      await page.getByTestId("copy-system-prompt").click();
      await page.getByTestId("copy-system-prompt").getByText("Copied").waitFor();
      assertEquals(await page.evaluate("navigator.clipboard.readText()"), shownPrompt);
      await page.screenshot({ path: join(OUTPUT, "playground-system-prompt.png"), fullPage: true });
      await page.getByTestId("view-prompt-cost").click();
      await page.getByTestId("prompt-cost-table").waitFor();
      await page.screenshot({ path: join(OUTPUT, "playground-prompt-cost.png") });
      await page.getByTestId("view-calls").click();
      // The address follows the state once the page has rendered the change.
      await page.waitForFunction(() => {
        const base64 = location.hash.slice(3).replaceAll("-", "+").replaceAll("_", "/");
        return JSON.parse(atob(base64)).view === "calls";
      });

      // The address holds both calls: reloading re-runs them, and so does the link in a new
      // tab (given the token, which the link itself never carries).
      const shared = page.url();
      assert(shared.includes("#s=") && !shared.includes("token="), shared);
      const aText = await a.getByTestId("output").textContent();
      const bText = await b.getByTestId("output").textContent();
      assert(aText !== bText);
      await page.reload();
      await a.getByTestId("output").waitFor();
      // The calls re-run in order: B shows its list before its read comes back.
      await b.locator(".pane-title", { hasText: "Read notes/crlf.txt" }).waitFor();
      assertEquals(await a.getByTestId("output").textContent(), aText);
      assertEquals(await b.getByTestId("output").textContent(), bText);
      assert(await page.getByTestId("toggle-diff").isChecked());
      const other = await opened.page();
      const hash = new URL(shared).hash;
      await other.goto(`${server.url}${hash}`);
      await other.getByTestId("pane-b").locator(".pane-title", { hasText: "Read notes/crlf.txt" })
        .waitFor();
      assertEquals(await other.getByTestId("pane-a").getByTestId("output").textContent(), aText);
      assertEquals(await other.getByTestId("pane-b").getByTestId("output").textContent(), bText);
      assertEquals(await other.getByTestId("arg-file_path").inputValue(), "notes/crlf.txt");
      assertEquals(
        await other.getByTestId("line-diff").getByTestId("diff-removed").textContent(),
        await lineDiff.getByTestId("diff-removed").textContent(),
      );
      assert(!other.url().includes("token="), other.url());
      await other.screenshot({ path: join(OUTPUT, "playground-shared-link.png") });
      assertEquals(errors, []);
    } catch (error) {
      // What the page showed when a step failed, for the failure report.
      for (const [i, page] of browser.pages().entries()) {
        await page.screenshot({ path: join(OUTPUT, `playground-failure-${i}.png`) })
          .catch(() => {});
      }
      throw error;
    }
  },
});
