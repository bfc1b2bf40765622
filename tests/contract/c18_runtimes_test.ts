// C18 runtimes: the runtime-neutral entry points load and work under Node and Bun (C18.1), no
// published module resolves a bare specifier through the package's import map (C18.2). The
// Node test bundles the entry points as a Node user's bundler would (`deno bundle --platform
// node`; see the README's "What runs where") and runs tests/node/smoke.mjs on the bundle:
//
//   deno test -A tests/contract/c18_runtimes_test.ts

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PROJECT = fileURLToPath(new URL("../..", import.meta.url));

/** The entry points C18.1 names, as files. */
export const NEUTRAL_ENTRIES = [
  "mod.ts",
  "memory.ts",
  "formats.ts",
  "acp.ts",
  "testing.ts",
  "adapters/ai_sdk.ts",
  "adapters/langchain.ts",
  "adapters/openai_agents.ts",
];

const canRun = (["run", "write", "env", "sys"] as const).every((name) =>
  Deno.permissions.querySync({ name }).state === "granted"
);

/** Whether `command` runs here (`node --version`). */
async function available(command: string): Promise<boolean> {
  try {
    const out = await new Deno.Command(command, { args: ["--version"], stdout: "null" }).output();
    return out.success;
  } catch {
    return false;
  }
}

/**
 * Runs a command to its end. `stdout` and `stderr` stay apart: what a child prints on stderr
 * (Deno's `Download …` lines on an empty cache) never reaches the output a test parses
 * (issue 34 item 3); `output` joins them for failure messages only.
 */
async function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string; output: string }> {
  const out = await new Deno.Command(command, { args, cwd, stdin: "null" }).output();
  const d = new TextDecoder();
  const stdout = d.decode(out.stdout);
  const stderr = d.decode(out.stderr);
  return { code: out.code, stdout, stderr, output: `${stdout}\n--- stderr ---\n${stderr}` };
}

/** The published TypeScript files: deno.json's publish.include, expanded. */
async function publishedFiles(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(join(PROJECT, "deno.json")));
  const files: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const info = await Deno.stat(join(PROJECT, rel));
    if (info.isFile) {
      if (rel.endsWith(".ts")) files.push(rel);
      return;
    }
    for await (const entry of Deno.readDir(join(PROJECT, rel))) await walk(join(rel, entry.name));
  };
  for (const path of config.publish.include as string[]) await walk(path.replace(/\/$/, ""));
  return files.sort();
}

/** The module specifiers a file imports (static `from`, dynamic `import("…")`). */
function specifiersOf(text: string): string[] {
  const code = text.replace(/^\s*(\*|\/\/).*$/gm, ""); // JSDoc examples and comments
  // `from` as a keyword only: not the string "from" (e.g. `required: ["from", "to"]`).
  return [...code.matchAll(/(?:(?<!["'\w])from\s*|\bimport\s*\(\s*|^import\s*)"([^"]+)"/gm)]
    .map((m) => m[1]);
}

Deno.test("C18.2 every import in published code is relative, node: or a pinned npm: specifier matching the import map", async () => {
  // deno.json names its import map file (`importMap`: inline `imports` would have `deno task`
  // download every package in them before any task runs; issue 34 item 1).
  const config = JSON.parse(await Deno.readTextFile(join(PROJECT, "deno.json")));
  const map = JSON.parse(await Deno.readTextFile(join(PROJECT, config.importMap)));
  const imports = map.imports as Record<string, string>;
  const pinned = new Map<string, string>();
  for (const [name, target] of Object.entries(imports)) {
    const m = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)@([^/]+)\/?$/.exec(target);
    if (m && !name.endsWith("/")) pinned.set(m[1], m[2]);
  }
  const problems: string[] = [];
  let npm = 0;
  for (const file of await publishedFiles()) {
    const text = await Deno.readTextFile(join(PROJECT, file));
    for (const specifier of specifiersOf(text)) {
      if (specifier.startsWith(".") || specifier.startsWith("node:")) continue;
      const m = /^npm:((?:@[^/@]+\/)?[^/@]+)@([^/]+)(\/.*)?$/.exec(specifier);
      if (!m) {
        problems.push(`${file}: ${specifier} (bare: resolves only through the import map)`);
      } else if (pinned.get(m[1]) !== m[2]) {
        problems.push(`${file}: ${specifier} (the import map has ${m[1]}@${pinned.get(m[1])})`);
      } else npm++;
    }
  }
  assertEquals(problems, []);
  assert(npm >= 6, `only ${npm} npm: imports seen`);
});

Deno.test({
  name:
    "C18.2 the adapters imported by absolute path from an unrelated directory (no deno.json) work",
  ignore: !canRun,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "toolfs-c18-" });
    try {
      const url = (file: string) => JSON.stringify(new URL(file, `file://${PROJECT}/`).href);
      await Deno.writeTextFile(
        join(dir, "main.ts"),
        `import { createFsTools } from ${url("mod.ts")};
import { MemoryFileSystem } from ${url("memory.ts")};
import { toLangChainTools } from ${url("adapters/langchain.ts")};
import { toOpenAIAgentsTools } from ${url("adapters/openai_agents.ts")};
const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/a.txt": "x\\n" } });
const tools = createFsTools({ fs });
const read = toLangChainTools(tools).find((t) => t.name === "read");
console.log(JSON.stringify({
  langchain: await read.invoke({ file_path: "a.txt" }),
  agents: toOpenAIAgentsTools(tools).map((t) => t.name),
}));
// What Deno prints on an empty cache goes to stderr; the test reads stdout only.
console.error("Download https://registry.npmjs.org/example");
`,
      );
      const got = await run(Deno.execPath(), ["run", "--no-prompt", "-A", "main.ts"], dir);
      assertEquals(got.code, 0, got.output);
      const printed = JSON.parse(got.stdout.trim().split("\n").at(-1)!);
      assert(printed.langchain.includes("1: x"), printed.langchain);
      assertEquals(printed.agents, ["list", "read", "write", "edit", "glob", "grep"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** Bundles the neutral entry points for Node into `dir` (ES modules, shared chunks). */
async function bundle(dir: string): Promise<void> {
  const got = await run(Deno.execPath(), [
    "bundle",
    "--quiet",
    "--platform",
    "node",
    "--code-splitting",
    "--outdir",
    dir,
    ...NEUTRAL_ENTRIES,
  ], PROJECT);
  assertEquals(got.code, 0, got.output);
  await Deno.writeTextFile(join(dir, "package.json"), '{ "type": "module" }\n');
  await Deno.copyFile(join(PROJECT, "tests", "node", "smoke.mjs"), join(dir, "smoke.mjs"));
}

/** One bundle for both runtimes, made by the first test that needs it. */
let bundled: Promise<string> | undefined;
function bundleOnce(): Promise<string> {
  bundled ??= Deno.makeTempDir({ prefix: "toolfs-c18-bundle-" }).then(async (dir) => {
    await bundle(dir);
    return dir;
  });
  return bundled;
}

for (const runtime of ["node", "bun"]) {
  Deno.test({
    name:
      `C18.1 under ${runtime}: createFsTools over MemoryFileSystem reads, edits, searches; formats, testing and the three adapters load; LocalFileSystem names the alternative`,
    ignore: !canRun,
    async fn() {
      if (!await available(runtime)) {
        // Bun from npm may not install everywhere; Node is required.
        if (runtime === "node") throw new Error("node is not installed: C18.1 needs it in CI");
        console.warn(`c18_runtimes_test.ts: ${runtime} is not installed; skipped`);
        if (bundled) await Deno.remove(await bundled, { recursive: true });
        return;
      }
      const dir = await bundleOnce();
      try {
        // Run from another directory: nothing may resolve against the working directory (the
        // PDF worker's chunk, C17.2a).
        const smoke = join(dir, "smoke.mjs");
        const args = runtime === "node" ? [smoke] : ["run", smoke];
        const got = await run(runtime, args, PROJECT);
        assertEquals(got.code, 0, got.output);
        assertEquals(
          got.stdout.trim(),
          "ok read/edit, grep/glob, formats, testing, adapters, pdf, LocalFileSystem refuses",
          got.output,
        );
      } finally {
        if (runtime === "bun") await Deno.remove(dir, { recursive: true }); // the last user
      }
    },
  });
}
