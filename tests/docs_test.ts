// Docs that tests keep true (issue 33 item 4): README and ARCHITECTURE.md name every member of the
// seam, ARCHITECTURE.md's lists match src/ as it is on disk (folders, top-level files, tools, and
// every file it names exists), and a src/ file's header names only functions that exist. Each
// check derives its list from the tree, so moving a file fails it only when the docs are left
// behind:
//
//   deno test --allow-read tests/docs_test.ts

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { SPECS } from "../src/present/specs/mod.ts";
import { quotedGuidance, toolSection } from "./_docs.ts";

const PROJECT = fileURLToPath(new URL("..", import.meta.url));
const README = await Deno.readTextFile(join(PROJECT, "README.md"));
const ARCHITECTURE = await Deno.readTextFile(join(PROJECT, "ARCHITECTURE.md"));

/** Every path under `dir` (files and folders), relative to the project, `/`-separated. */
async function tree(dir: string): Promise<{ files: string[]; dirs: string[] }> {
  const files: string[] = [];
  const dirs: string[] = [];
  const walk = async (abs: string): Promise<void> => {
    for await (const entry of Deno.readDir(abs)) {
      const path = join(abs, entry.name);
      const rel = relative(PROJECT, path);
      if (entry.isDirectory) {
        if (["node_modules", ".git", "dist", "fixtures", "test_output"].includes(entry.name)) {
          continue;
        }
        dirs.push(rel);
        await walk(path);
      } else if (entry.isFile) files.push(rel);
    }
  };
  await walk(join(PROJECT, dir));
  return { files: files.sort(), dirs: dirs.sort() };
}

const SRC = await tree("src");

/** The member names of `export interface FsProvider`, read from the file in src/ declaring it. */
async function seamMembers(): Promise<{ file: string; members: string[] }> {
  for (const file of SRC.files.filter((f) => f.endsWith(".ts"))) {
    const text = await Deno.readTextFile(join(PROJECT, file));
    const start = text.indexOf("export interface FsProvider {");
    if (start < 0) continue;
    const members: string[] = [];
    let depth = 0;
    for (const line of text.slice(start).split("\n")) {
      if (depth === 1) {
        const m = /^ {2}(?:readonly\s+)?([A-Za-z]\w*)\??\s*[(:<]/.exec(line);
        if (m && !members.includes(m[1])) members.push(m[1]);
      }
      depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
      if (depth === 0 && members.length > 0) break;
    }
    return { file, members };
  }
  throw new Error("no src/ file declares export interface FsProvider");
}

/** The paragraph of `text` that contains `marker` (up to the blank lines around it). */
function paragraph(text: string, marker: string): string {
  const at = text.indexOf(marker);
  assert(at >= 0, `no paragraph holds ${JSON.stringify(marker)}`);
  const start = text.lastIndexOf("\n\n", at) + 2;
  const end = text.indexOf("\n\n", at);
  return text.slice(start, end < 0 ? undefined : end);
}

/** A Markdown section: from its `## ` heading to the next one. */
function section(text: string, heading: string): string {
  const at = text.indexOf(`\n## ${heading}\n`);
  assert(at >= 0, `no section "## ${heading}"`);
  const end = text.indexOf("\n## ", at + 1);
  return text.slice(at, end < 0 ? undefined : end);
}

Deno.test("issue 33.4: README and ARCHITECTURE.md name every member of FsProvider, as the source declares them", async () => {
  const { file, members } = await seamMembers();
  assert(members.length >= 12, `${file}: only ${members.join(", ")} found`);
  for (const must of ["resolve", "readText", "editText", "removeEntry", "search", "roots"]) {
    assert(members.includes(must), `${file}: the parser missed ${must}: ${members.join(", ")}`);
  }
  const readme = paragraph(README, "implementing the `FsProvider`");
  const architecture = section(ARCHITECTURE, "The seam");
  assertEquals(members.filter((m) => !readme.includes(`\`${m}\``)), [], "README leaves out");
  assertEquals(
    members.filter((m) => !architecture.includes(`\`${m}\``)),
    [],
    "ARCHITECTURE leaves out",
  );
});

/** The first fenced block of ARCHITECTURE.md's "Layers" section: one entry per src/ folder. */
function layers(): string {
  const text = section(ARCHITECTURE, "Layers");
  const open = text.indexOf("```");
  const close = text.indexOf("```", open + 3);
  assert(open >= 0 && close > open, "the Layers section has no fenced list");
  return text.slice(open + 3, close);
}

/** The lines of the Layers list that describe `src/<folder>/`. */
function layerOf(folder: string): string {
  const lines = layers().split("\n");
  const start = lines.findIndex((l) => l.startsWith(`src/${folder}/`));
  if (start < 0) return "";
  const end = lines.findIndex((l, i) => i > start && l.startsWith("src/"));
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

Deno.test("issue 33.4: ARCHITECTURE.md's Layers list has every folder and top-level file of src/", () => {
  const topFolders = SRC.dirs.filter((d) => d.split("/").length === 2).map((d) => d.slice(4));
  const topFiles = SRC.files.filter((f) => f.split("/").length === 2 && f.endsWith(".ts"))
    .map((f) => f.slice(4));
  assert(topFolders.length >= 8, topFolders.join(" "));
  assertEquals(topFolders.filter((d) => layerOf(d) === ""), [], "src/ folders the list leaves out");
  assertEquals(topFiles.filter((f) => !layers().includes(f)), [], "src/ files the list leaves out");
  // Folders inside them (tools/grep/, provider/local/, present/specs/ ...) are named somewhere.
  const nested = SRC.dirs.filter((d) => d.split("/").length > 2);
  assertEquals(
    nested.filter((d) => !ARCHITECTURE.includes(`${d.split("/").at(-1)}/`)),
    [],
    "nested src/ folders ARCHITECTURE.md never names",
  );
});

Deno.test("issue 33.4: ARCHITECTURE.md's src/tools/ entry names every tool, as a file or a folder", () => {
  const tools = Object.keys(SPECS);
  assert(tools.length >= 9, tools.join(" "));
  const entry = layerOf("tools");
  const missing: string[] = [];
  for (const tool of tools) {
    const isFolder = SRC.dirs.includes(`src/tools/${tool}`);
    const named = isFolder ? entry.includes(`${tool}/`) : new RegExp(`\\b${tool}\\b`).test(entry);
    if (!named) missing.push(isFolder ? `${tool}/` : tool);
  }
  assertEquals(missing, [], `the src/tools/ entry of the Layers list:\n${entry}`);
});

Deno.test("issue 33.4: every file ARCHITECTURE.md names exists in the tree", async () => {
  const all = [
    ...SRC.files,
    ...(await tree("tests")).files,
    ...(await tree("bench")).files,
    ...(await tree("scripts")).files,
    ...(await tree("playground")).files,
    ...(await tree("adapters")).files,
    ...(await tree("tokenizers")).files,
  ];
  for await (const entry of Deno.readDir(PROJECT)) if (entry.isFile) all.push(entry.name);
  const names = new Set<string>();
  for (const [, name] of ARCHITECTURE.matchAll(/(?<![\w*<>-])([\w./-]+\.ts)\b/g)) names.add(name);
  assert(names.size >= 30, `${names.size} file names found`);
  const absent = [...names].filter((name) =>
    !all.some((path) => path === name || path.endsWith(`/${name.replace(/^\.\//, "")}`))
  );
  assertEquals(absent, [], "files ARCHITECTURE.md names that are not in the tree");
});

Deno.test("issue 33.4: a src/ file's header names only functions that exist (in src/ or an entry)", async () => {
  const sources: string[] = [];
  for (const file of SRC.files.filter((f) => f.endsWith(".ts"))) {
    sources.push(await Deno.readTextFile(join(PROJECT, file)));
  }
  for await (const entry of Deno.readDir(PROJECT)) {
    if (entry.isFile && entry.name.endsWith(".ts")) {
      sources.push(await Deno.readTextFile(join(PROJECT, entry.name)));
    }
  }
  const code = sources.join("\n");
  const stale: string[] = [];
  for (const file of SRC.files.filter((f) => f.endsWith(".ts"))) {
    const text = await Deno.readTextFile(join(PROJECT, file));
    const header: string[] = [];
    for (const line of text.split("\n")) {
      if (!/^\s*(\/\/|\/\*\*|\*)/.test(line)) break;
      header.push(line);
    }
    // camelCase names in backticks: functions, methods, constants.
    for (
      const [, name] of header.join("\n").matchAll(
        /`([a-z][a-zA-Z0-9]*[A-Z][a-zA-Z0-9]*)(?:\(\))?`/g,
      )
    ) {
      const defined = new RegExp(
        `(?:function\\*?|const|let|class|interface|type)\\s+${name}\\b|\\b${name}\\s*[(:=<?]`,
      );
      if (!defined.test(code)) stale.push(`${file}: \`${name}\``);
    }
  }
  assertEquals(stale, []);
});

Deno.test("issue 34.10: README's Model experience quotes each default tool's guidance exactly", async () => {
  const { createFsTools } = await import("../mod.ts");
  const { MemoryFileSystem } = await import("../memory.ts");
  const tools = createFsTools({ fs: new MemoryFileSystem({ roots: ["/w"], files: {} }) });
  const stale: string[] = [];
  for (const definition of tools.definitions) {
    const { text } = quotedGuidance(toolSection(README, definition.name));
    if (text !== definition.guidance) {
      stale.push(`${definition.name}:\n  README: ${text}\n  tools:  ${definition.guidance}`);
    }
  }
  assertEquals(stale, []);
});
