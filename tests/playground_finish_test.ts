// The playground's finish, without a browser (issue 30 item 8, issue 32 items 1 and 8, issue 34
// item 9): unknown tools refused by /api/execute and in shared links, exported scripts that bash
// runs without running an injected command, all nine tools, the Anthropic image estimate with
// both bounds, both footer styles, the footer of a long result shown first, examples that name
// files of the workspace, and the first page answered while the tokenizers load in a worker.
// The browser side is tests/playground_finish_browser_test.ts. Needs -A (runs bash, deno).
//
//   deno test -A tests/playground_finish_test.ts

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFsTools, LocalFileSystem } from "../mod.ts";
import { createApp } from "../playground/server/app.ts";
import { FIXTURE_EXAMPLES, workspaceExamples } from "../playground/server/examples.ts";
import { countOnThisThread, workerCounter } from "../playground/server/token_counter.ts";
import { FIXTURES_DIR, openDirectoryWorkspace } from "../playground/server/workspace.ts";
import { anthropicImageTokens, pinnedFooter } from "../playground/ui/measures.ts";
import { cliLine, cliScript, shellQuote, TOOLFS_JSR } from "../playground/ui/session_log.ts";
import { decodeShare, refusedShareTool } from "../playground/ui/state.ts";
import { post, run, setUp } from "./_playground_app.ts";
import { PLAYGROUND_PERMISSIONS, startPlayground } from "./_playground_process.ts";
import { REPO } from "./_playground_browser.ts";

const canRun = Deno.permissions.querySync({ name: "run" }).state === "granted";
const NINE = ["list", "read", "write", "edit", "glob", "grep", "move", "delete", "patch"];

/** Crafted tool names that would run `touch <marker>` if a shell read them as code. */
function crafted(marker: (n: number) => string): string[] {
  return [
    `read; touch ${marker(1)}`,
    `read'; touch ${marker(2)}; echo '`,
    `$(touch ${marker(3)})`,
    `\`touch ${marker(4)}\``,
    `read
touch ${marker(5)}`,
    `read" && touch ${marker(6)} && echo "`,
  ];
}

/** A `#s=…` fragment holding `shared` as the playground encodes it. */
function shareHash(shared: Record<string, unknown>): string {
  const bytes = new TextEncoder().encode(JSON.stringify(shared));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `#s=${base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
}

Deno.test("issue 30.8: /api/execute refuses a crafted tool name with a 400 and runs nothing", async () => {
  await using t = await setUp();
  const dir = await Deno.makeTempDir({ prefix: "toolfs-pwned-" });
  try {
    const marker = (n: number) => join(dir, `pwned-${n}`);
    for (const tool of crafted(marker)) {
      const response = await post(t.app, "/api/execute", { tool, args: {} });
      assertEquals(response.status, 400, tool);
      assertEquals(
        (await response.json()).error,
        `unknown tool ${JSON.stringify(tool)}: the playground runs ${NINE.join(", ")}`,
      );
    }
    assertEquals([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("issue 30.8: a shared link naming an unknown tool (editor, pane or history) is refused whole", () => {
  const call = { tool: "read", args: { file_path: "notes/todo.md" } };
  const good = { tool: "read", args: {}, panes: { A: call }, history: [] };
  assertEquals(decodeShare(shareHash(good))?.panes.A, call);
  assertEquals(refusedShareTool(shareHash(good)), undefined);
  const evil = "read; touch /tmp/pwned";
  const links = [
    { ...good, tool: evil },
    { ...good, panes: { B: { tool: evil, args: {} } } },
    { ...good, history: [{ call: { tool: evil, args: {} }, pane: "A", hash: "", tokens: {} }] },
  ];
  for (const link of links) {
    assertEquals(decodeShare(shareHash(link)), undefined, JSON.stringify(link));
    assertEquals(refusedShareTool(shareHash(link)), evil);
  }
});

Deno.test({
  name:
    "issue 30.8: the exported CLI script and CLI line, run by bash, never run a command a tool name or argument carries",
  ignore: !canRun,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "toolfs-pwned-" });
    try {
      const marker = (n: number) => join(dir, `pwned-${n}`);
      const tools = crafted(marker);
      const entries = tools.map((tool) => ({
        call: { tool, args: { file_path: `x'; touch ${marker(9)}; echo '` } },
      }));
      // Every word is single-quoted: a quote inside is written '\''.
      assertEquals(shellQuote("it's"), `'it'\\''s'`);
      const script = cliScript(entries);
      // The exports run the CLI from JSR (issue 34.10), which is not reachable here: map it to
      // this checkout.
      const map = `${dir}-map.json`; // beside dir, which must stay empty
      await Deno.writeTextFile(
        map,
        JSON.stringify({
          imports: { [`${TOOLFS_JSR}/cli`]: new URL("../cli.ts", import.meta.url).href },
        }),
      );
      const offline = (command: string) =>
        command.replace("deno run", `deno run --no-config --no-lock --import-map ${map}`);
      const toolfs = offline(/^TOOLFS="\$\{TOOLFS:-(.+)\}"$/m.exec(script)![1]);
      const out = await new Deno.Command("bash", {
        args: ["-c", script],
        cwd: REPO,
        env: { TOOLFS: toolfs },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(out.stdout);
      // Each call's label is echoed as it stands, the tool name in it included.
      for (const [i, tool] of tools.entries()) {
        assert(stdout.includes(`--- call ${i + 1}: ${tool}\n`), stdout);
      }
      for (const entry of entries) {
        const line = await new Deno.Command("bash", {
          args: ["-c", offline(cliLine(entry.call))],
          cwd: REPO,
          stdout: "null",
          stderr: "null",
        }).output();
        assertEquals(line.code, 2); // the CLI's unknown tool (issue 32.6), nothing else
      }
      assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), []);
    } finally {
      await Deno.remove(`${dir}-map.json`).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("issue 32.8: the playground runs all nine tools; move, delete and patch write in the fixture copy", async () => {
  await using t = await setUp();
  const definitions = await (await t.app.request("/api/definitions")).json();
  assertEquals(definitions.tools.map((d: { name: string }) => d.name), NINE);
  const root = t.workspace.root;
  const patched = await run(t.app, "patch", {
    patch: "*** Begin Patch\n*** Add File: notes/patched.md\n+Added by a patch.\n*** End Patch",
  });
  assertEquals([patched.isError, patched.content], [false, "Added notes/patched.md"]);
  assertEquals(await Deno.readTextFile(join(root, "notes/patched.md")), "Added by a patch.\n");
  const moved = await run(t.app, "move", FIXTURE_EXAMPLES.move);
  assertEquals(moved.content, "Moved notes/todo.md to notes/archive/todo.md");
  await run(t.app, "read", { file_path: "notes/empty.txt" });
  const deleted = await run(t.app, "delete", FIXTURE_EXAMPLES.delete);
  assertEquals(deleted.content, "Deleted notes/empty.txt");
  // The committed fixtures are untouched: the writes went to the copy.
  await Deno.stat(join(FIXTURES_DIR, "notes/todo.md"));
  await Deno.stat(join(FIXTURES_DIR, "notes/empty.txt"));
  await assertMissing(join(FIXTURES_DIR, "notes/patched.md"));
  // The prompt cost stays the default six's (the budget); `tools=all` counts the nine.
  const six = await (await t.app.request("/api/prompt-cost?tokenizers=o200k")).json();
  const all = await (await t.app.request("/api/prompt-cost?tokenizers=o200k&tools=all")).json();
  assertEquals(six.tools.length, 6);
  assertEquals(all.tools.map((d: { name: string }) => d.name), NINE);
  assert(all.costs.o200k.budget > six.costs.o200k.budget);
});

async function assertMissing(path: string): Promise<void> {
  try {
    await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  throw new Error(`${path} exists`);
}

Deno.test("issue 32.8: the Anthropic image estimate applies the 1568-px edge and the ~1.15-MP bound", () => {
  // 1280×1280 is inside the edge but over the pixel bound: ~1,600 tokens, not 2,185.
  const square = anthropicImageTokens(1280, 1280);
  assert(square >= 1550 && square <= 1600, `1280×1280: ${square}`);
  assert(square !== Math.ceil((1280 * 1280) / 750));
  // The docs' 1:1 maximum is not scaled: 1092 × 1092 / 750 = 1589.95.
  assertEquals(anthropicImageTokens(1092, 1092), 1590);
  // Small images as they are: 160 × 96 / 750 = 20.48; 200 × 200 / 750 = 53.3.
  assertEquals(anthropicImageTokens(160, 96), 21);
  assertEquals(anthropicImageTokens(200, 200), 54);
  // A long thin image only meets the edge bound: 4000×400 → 1568×156 (1568 × 156 / 750).
  assertEquals(anthropicImageTokens(4000, 400), Math.ceil((1568 * 156) / 750));
  // Whatever the size, the estimate never exceeds ~1,600.
  for (const [w, h] of [[3000, 2000], [8000, 8000], [1568, 1568], [2000, 1000]]) {
    const tokens = anthropicImageTokens(w, h);
    assert(tokens <= 1600 && tokens > 1500, `${w}×${h}: ${tokens}`);
  }
});

Deno.test("issue 32.1: the same read with the default footers and with detailedFooters gives both texts", async () => {
  await using t = await setUp();
  const args = { file_path: "notes/many-lines.txt" };
  const plain = await run(t.app, "read", args, { config: { readMaxBytes: 2000 } });
  const detailed = await run(t.app, "read", args, {
    config: { readMaxBytes: 2000, detailedFooters: true },
  });
  const footer = (text: string) => pinnedFooter(text, false);
  assert(footer(plain.content)?.startsWith("(Output capped. Showing lines 1-"), plain.content);
  assert(
    footer(detailed.content)?.startsWith("(Output capped at 2000 bytes. Showing lines 1-"),
    detailed.content,
  );
  assertEquals(detailed.config.detailedFooters, true);
});

Deno.test("issue 34.9: a long result's footer is pinned (shown first); a short one's is not", async () => {
  await using t = await setUp();
  const long = await run(t.app, "read", { file_path: "notes/many-lines.txt", limit: 40 });
  const lines = long.content.split("\n");
  assertEquals(pinnedFooter(long.content, false), lines[lines.length - 2]);
  assert(lines[lines.length - 2].startsWith("(Showing lines 1-40 of 2500."));
  const short = await run(t.app, "read", { file_path: "notes/todo.md" });
  assertEquals(pinnedFooter(short.content, false), undefined);
  assertEquals(pinnedFooter(long.content, true), undefined);
});

Deno.test("issue 34.9: with --root the examples name files that exist there, never fixture paths", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolfs-root-" });
  try {
    await Deno.mkdir(join(dir, "src"));
    await Deno.mkdir(join(dir, ".git"));
    await Deno.writeTextFile(join(dir, ".git", "HEAD"), "ref: x\n");
    await Deno.writeTextFile(join(dir, "src", "main.ts"), "\nexport const answer = 42;\n");
    await Deno.writeFile(join(dir, "logo.bin"), new Uint8Array([0, 1, 2]));
    const workspace = await openDirectoryWorkspace(dir);
    const examples = await workspaceExamples(workspace);
    assertEquals(examples.read, { file_path: "src/main.ts" });
    assertEquals(examples.edit, {
      file_path: "src/main.ts",
      old_string: "export const answer = 42;",
      new_string: "export const answer = 42; (edited)",
    });
    // The tools that create, move or delete work on a note of their own, which does not exist.
    assertEquals(examples.write.file_path, "toolfs-playground-note.md");
    assertEquals(examples.move.source_path, "toolfs-playground-note.md");
    assertEquals(examples.delete.path, "toolfs-playground-note.md");
    await assertMissing(join(dir, "toolfs-playground-note.md"));
    // The app hands them to the form, and each runs as it stands in that directory.
    const app = createApp({ workspace, token: null });
    const definitions = await (await app.request("/api/definitions")).json();
    assertEquals(definitions.examples, examples);
    const fs = new LocalFileSystem({ roots: [dir] });
    const tools = createFsTools({ fs, tools: NINE as never });
    for (const tool of ["list", "read", "glob", "grep"]) {
      const result = await tools.execute(tool, examples[tool]);
      assertEquals(result.isError, false, `${tool}: ${result.content}`);
    }
    // A README.md at the top is the one chosen.
    await Deno.writeTextFile(join(dir, "README.md"), "# Hi\n");
    assertEquals((await workspaceExamples(workspace)).read, { file_path: "README.md" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  // The fixture workspace's examples exist in the fixtures.
  for (const path of ["notes/todo.md", "src/lib/text/greet.ts", "notes/empty.txt"]) {
    await Deno.stat(join(FIXTURES_DIR, path));
  }
  const greet = await Deno.readTextFile(join(FIXTURES_DIR, "src/lib/text/greet.ts"));
  assert(greet.includes(FIXTURE_EXAMPLES.edit.old_string as string));
});

Deno.test({
  name: "issue 34.9: token counts in a worker thread equal those on the server's thread",
  ignore: !canRun,
  async fn() {
    const counter = workerCounter();
    try {
      const texts = ["Hello, world", "", "<path>a.ts</path>\n1: export {};\n"];
      const names = ["deepseek_v3", "o200k"] as const;
      assertEquals(await counter.count(names, texts), await countOnThisThread(names, texts));
    } finally {
      counter.terminate();
    }
  },
});

Deno.test({
  name:
    "issue 34.9: the first page and the definitions answer while the tokenizers still load (in a worker), then reads are counted",
  ignore: !canRun,
  sanitizeResources: false,
  async fn() {
    const main = fileURLToPath(new URL("../playground/server/main.ts", import.meta.url));
    const started = performance.now();
    const server = await startPlayground([
      "run",
      "--no-prompt",
      ...PLAYGROUND_PERMISSIONS,
      main,
      "--port",
      "0",
      "--no-build",
    ], { cwd: REPO });
    try {
      assert(server.url, server.output);
      const printed = performance.now();
      const url = new URL(server.url);
      const headers = { authorization: `Bearer ${url.searchParams.get("token")}` };
      const page = await fetch(url);
      await page.arrayBuffer();
      const definitions = await fetch(new URL("/api/definitions", url), { headers });
      assertEquals(definitions.status, 200);
      await definitions.json();
      const answered = performance.now();
      // Answered before the vocabularies were ready: nothing on the request path waited for them.
      const ready = /tokenizers deepseek_v3, o200k ready in \d+ ms \(worker thread\)/;
      assert(!ready.test(server.output), server.output);
      for (let i = 0; i < 1200 && !ready.test(server.output); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert(ready.test(server.output), `never ready:\n${server.output}`);
      const read = await fetch(new URL("/api/execute", url), {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ tool: "read", args: { file_path: "notes/todo.md" } }),
      });
      const body = await read.json();
      assert(body.tokens.deepseek_v3 > 10 && body.tokens.o200k > 10, JSON.stringify(body));
      console.log(
        `address after ${Math.round(printed - started)} ms; page and definitions ${
          Math.round(answered - printed)
        } ms after it; ${ready.exec(server.output)?.[0]}`,
      );
    } finally {
      await server.stop();
    }
  },
});
