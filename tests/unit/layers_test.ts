// The import direction of src/ (ARCHITECTURE.md): each folder imports only folders listed before
// it, src/ never imports the entry points, and a `_`-prefixed file is private to its folder.

import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/**
 * The layers, lowest first. Files directly in src/ (types, errors, config) are the leaves;
 * testing/ (the provider conformance suite) and cli/ sit on top of the tools.
 */
const LAYERS = [
  "",
  "text",
  "render",
  "present",
  "provider",
  "policy",
  "tools",
  "testing",
  "cli",
  "http",
  "mcp",
];

function layerOf(file: string): number {
  const folder = relative(SRC, file).split("/").slice(0, -1)[0] ?? "";
  const layer = LAYERS.indexOf(folder);
  if (layer < 0) throw new Error(`"${relative(SRC, file)}": src/${folder}/ is not a known layer`);
  return layer;
}

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (entry.isFile && path.endsWith(".ts")) yield path;
  }
}

/** The relative specifiers a file imports or re-exports (static and dynamic). */
function importsOf(text: string): string[] {
  const found: string[] = [];
  const pattern =
    /(?:^|\n)\s*(?:import|export)[^;"']*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
  for (const match of text.matchAll(pattern)) {
    const specifier = match[1] ?? match[2];
    if (specifier.startsWith(".")) found.push(specifier);
  }
  return found;
}

/** Whether `dir` is `folder` or below it (a `_` file is private to its folder and the folders in it). */
function insideFolder(dir: string, folder: string): boolean {
  return dir === folder || dir.startsWith(folder + "/");
}

/** Every upward, outward or private-crossing import in src/, as readable lines. */
async function violations(): Promise<string[]> {
  const out: string[] = [];
  for await (const file of sourceFiles(SRC)) {
    const from = relative(SRC, file);
    for (const specifier of importsOf(await Deno.readTextFile(file))) {
      const target = resolve(dirname(file), specifier);
      const to = relative(SRC, target);
      if (to.startsWith("..")) {
        out.push(`${from} imports ${specifier}, outside src/`);
        continue;
      }
      if (layerOf(target) > layerOf(file)) {
        out.push(
          `${from} imports ${to}: ${LAYERS[layerOf(target)]}/ is above ${
            LAYERS[layerOf(file)] || "src/"
          }`,
        );
      }
      const name = target.split("/").pop()!;
      if (name.startsWith("_") && !insideFolder(dirname(file), dirname(target))) {
        out.push(`${from} imports ${to}, private to ${relative(SRC, dirname(target)) || "src"}/`);
      }
    }
  }
  return out.sort();
}

Deno.test("layers: src/ imports point one way: types → text → render → present → provider → policy → tools → testing → cli → http → mcp", async () => {
  assert.deepEqual(await violations(), []);
});

/** Every import circle in src/, each as its files in order (`a.ts → b.ts → a.ts`). */
async function circles(): Promise<string[]> {
  const graph = new Map<string, string[]>();
  for await (const file of sourceFiles(SRC)) {
    const targets = importsOf(await Deno.readTextFile(file))
      .map((specifier) => relative(SRC, resolve(dirname(file), specifier)))
      .filter((to) => !to.startsWith(".."));
    graph.set(relative(SRC, file), targets);
  }
  return findCircles(graph);
}

/** The circles of an import graph, each reported once, starting at its smallest file. */
function findCircles(graph: Map<string, string[]>): string[] {
  const found = new Set<string>();
  const visit = (file: string, path: string[]) => {
    const at = path.indexOf(file);
    if (at >= 0) {
      const loop = path.slice(at);
      const first = loop.indexOf([...loop].sort()[0]);
      const turned = [...loop.slice(first), ...loop.slice(0, first)];
      found.add([...turned, turned[0]].join(" → "));
      return;
    }
    if (path.length > graph.size) return;
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
  };
  for (const file of [...graph.keys()].sort()) visit(file, []);
  return [...found].sort();
}

Deno.test("layers: no import circle in src/ (issue 33)", async () => {
  assert.deepEqual(await circles(), []);
});

Deno.test("layers: the circle check finds a two-file and a longer circle", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["a.ts"]],
    ["c.ts", ["d.ts"]],
    ["d.ts", ["e.ts"]],
    ["e.ts", ["c.ts", "a.ts"]],
  ]);
  assert.deepEqual(findCircles(graph), ["a.ts → b.ts → a.ts", "c.ts → d.ts → e.ts → c.ts"]);
});

Deno.test("layers: a _ file is private to its folder and the folders below it", () => {
  assert.equal(insideFolder("/src/tools", "/src/tools"), true);
  assert.equal(insideFolder("/src/tools/grep", "/src/tools"), true);
  assert.equal(insideFolder("/src/tools", "/src/tools/grep"), false);
  assert.equal(insideFolder("/src/toolsmith", "/src/tools"), false);
});

Deno.test("layers: the import parser sees static, type-only, re-export and dynamic imports", () => {
  const text = [
    'import { a } from "./a.ts";',
    'import type { B } from "../render/b.ts";',
    'export { c } from "./c.ts";',
    "export * from './d.ts';",
    'const e = await import("./e.ts");',
    'import { join } from "node:path";',
    'import {\n  f,\n  g,\n} from "./fg.ts";',
  ].join("\n");
  assert.deepEqual(importsOf(text), [
    "./a.ts",
    "../render/b.ts",
    "./c.ts",
    "./d.ts",
    "./e.ts",
    "./fg.ts",
  ]);
});

/** Files in src/ over the size issue 11 allows, as readable lines. */
async function oversized(max: number): Promise<string[]> {
  const out: string[] = [];
  for await (const file of sourceFiles(SRC)) {
    const lines = (await Deno.readTextFile(file)).split("\n").length - 1;
    if (lines > max) out.push(`${relative(SRC, file)}: ${lines} lines`);
  }
  return out.sort();
}

/**
 * The 400-line guard warns, it does not fail (issue 33.1): a file grows until its concept is
 * whole, and a long file is a prompt to find the concept inside it, never a place to cut.
 */
function warnOversized(found: readonly string[]): void {
  if (found.length === 0) return;
  console.warn(
    `over 400 lines (find the concept inside, do not cut by size):\n  ${found.join("\n  ")}`,
  );
}

Deno.test("layers: a file in src/ over 400 lines is named as a warning (one concept per file)", async () => {
  warnOversized(await oversized(400));
});

/** The root entry points (deno.json's exports) the 400-line rule covers besides src/. */
const ENTRIES = [
  "mod.ts",
  "mcp.ts",
  "cli.ts",
  "formats.ts",
  "acp.ts",
  "provider.ts",
  "memory.ts",
  "testing.ts",
];

Deno.test("layers: a root entry file or adapter over 400 lines is named as a warning (issue 20)", async () => {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const files = ENTRIES.map((name) => join(root, name));
  for await (const file of sourceFiles(join(root, "adapters"))) files.push(file);
  const out: string[] = [];
  for (const file of files) {
    const lines = (await Deno.readTextFile(file)).split("\n").length - 1;
    if (lines > 400) out.push(`${relative(root, file)}: ${lines} lines`);
  }
  warnOversized(out.sort());
});

/**
 * An `FsError` built with a string literal as its message or detail: model-facing text that
 * does not come from src/render/. Comments (JSDoc examples of a host's own message) are skipped.
 */
function inlineErrorText(text: string): string[] {
  text = text.split("\n").filter((line) => !/^\s*(\*|\/\/)/.test(line)).join("\n");
  const pattern = /new FsError\(\s*"[A-Z_]+"\s*,\s*\{[^}]*?\b(?:message|detail):\s*["'`][^"'`]*/g;
  return [...text.matchAll(pattern)].map((match) => match[0]);
}

Deno.test("layers: C7.1 no FsError outside src/render/ carries an inline message or detail", async () => {
  const out: string[] = [];
  for await (const file of sourceFiles(SRC)) {
    if (relative(SRC, file).startsWith("render/")) continue;
    for (const found of inlineErrorText(await Deno.readTextFile(file))) {
      out.push(`${relative(SRC, file)}: ${found}`);
    }
  }
  assert.deepEqual(out.sort(), []);
});

Deno.test("layers: the inline-text check sees a literal message or detail, not a rendered one", () => {
  const text = [
    'throw new FsError("FS_IO_ERROR", { detail: "the disk fell off" });',
    'throw new FsError("FS_STALE", { cause, message: `changed` });',
    'throw new FsError("FS_NOT_FOUND", { detail: IO_DETAILS.handleClosed });',
    'throw new FsError("FS_BINARY", { message: noMatchMessage(shown, hint) });',
    'throw new FsError("FS_ABORTED");',
    ' * const error = new FsError("FS_PERMISSION_DENIED", { message: "declined" });',
  ].join("\n");
  assert.deepEqual(inlineErrorText(text), [
    'new FsError("FS_IO_ERROR", { detail: "the disk fell off',
    'new FsError("FS_STALE", { cause, message: `changed',
  ]);
});
