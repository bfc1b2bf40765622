// README code blocks cannot rot (issue 24): every ```ts (or ```js) block in README.md runs, in
// a fresh directory holding `workspace/README.md`, with `jsr:@toolfs/fs…` pointing at this
// checkout. The fence's info string says how:
//
//   ```ts                       runs as it stands (the default, so a new block is run)
//   ```ts scripted=<harness>    runs after tests/readme/scripted_<harness>.ts, which stands in
//                               for what needs a key (a model, an endpoint) and checks the run
//   ```ts ignore <reason>       not run; the reason is required (e.g. needs an API key)
//
// ```json blocks must parse; ```sh and plain ``` blocks are not run. Needs -A (subprocesses):
//
//   deno test -A tests/readme_test.ts

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const PROJECT = fileURLToPath(new URL("..", import.meta.url));

/** One fenced block of a Markdown file. */
export interface CodeBlock {
  /** The 1-based line of its opening fence. */
  line: number;
  /** The language: the info string's first word (`""` for none). */
  lang: string;
  /** The rest of the info string's words. */
  tags: string[];
  /** The code. */
  code: string;
}

/** The fenced blocks of a Markdown text (``` or ~~~ fences, indented ones included). */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`);
      if (close.test(lines[j])) break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    }
    const [lang = "", ...tags] = info.trim().split(/\s+/).filter(Boolean);
    blocks.push({ line: i + 1, lang, tags, code: body.join("\n") });
    i = j;
  }
  return blocks;
}

/** `jsr:@toolfs/fs[@version][/subpath]` (and `@toolfs/fs…`) as this checkout's files. */
function localImports(code: string, exports: Record<string, string>): string {
  return code.replace(
    /(["'])(?:jsr:)?@toolfs\/fs(?:@[^/"']*)?(\/[\w-]+)?\1/g,
    (whole, quote: string, sub: string | undefined) => {
      const file = exports[sub ? `.${sub}` : "."];
      if (!file) throw new Error(`README imports ${whole}, which deno.json does not export`);
      return `${quote}${pathToFileURL(join(PROJECT, file)).href}${quote}`;
    },
  );
}

/**
 * Whether a JSR version range (`^0.4`, `^1.2.3`, `0.4.0`, `~0.4.1`) admits `version` (semver's
 * rules for these forms: a caret range keeps the left-most non-zero part, a tilde the minor).
 */
export function rangeAdmits(range: string, version: string): boolean {
  const m = /^([~^]?)(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range);
  const v = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!m || !v) return false;
  const [, op, ...given] = m;
  const want = given.map((part) => part === undefined ? undefined : Number(part));
  const have = v.slice(1).map(Number);
  const parts = want.filter((part) => part !== undefined).length;
  const atLeast = () => {
    for (let i = 0; i < 3; i++) {
      const w = want[i] ?? 0;
      if (have[i] !== w) return have[i] > w;
    }
    return true;
  };
  const samePrefix = (n: number) => have.slice(0, n).every((part, i) => part === want[i]);
  if (op === "") return samePrefix(parts);
  if (op === "~") return samePrefix(Math.min(parts, 2)) && atLeast();
  // Caret: the parts up to and including the first non-zero one stay fixed.
  const fixed = want[0] !== 0 ? 1 : want[1] !== 0 || parts < 3 ? Math.min(parts, 2) : 3;
  return samePrefix(fixed) && atLeast();
}

Deno.test("README: rangeAdmits follows semver's caret, tilde and exact forms", () => {
  assert(rangeAdmits("^0.4", "0.4.0") && rangeAdmits("^0.4", "0.4.7"));
  assert(!rangeAdmits("^0.2", "0.3.0") && !rangeAdmits("^0.4", "0.5.0"));
  assert(
    rangeAdmits("^1.2", "1.9.0") && !rangeAdmits("^1.2", "2.0.0") && !rangeAdmits("^1.2", "1.1.9"),
  );
  assert(
    rangeAdmits("0.4.0", "0.4.0") && !rangeAdmits("0.4.0", "0.4.1") && rangeAdmits("0.4", "0.4.2"),
  );
  assert(rangeAdmits("~0.4.1", "0.4.3") && !rangeAdmits("~0.4.1", "0.4.0"));
});

/** Every text a user copies a `jsr:@toolfs/fs@<range>` specifier from. */
async function specifierSources(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(join(PROJECT, "deno.json")));
  const files = ["README.md", "ARCHITECTURE.md", "playground/README.md"];
  const walk = async (rel: string): Promise<void> => {
    const info = await Deno.stat(join(PROJECT, rel));
    if (info.isFile) {
      if (/\.(ts|tsx|md)$/.test(rel)) files.push(rel);
      return;
    }
    for await (const entry of Deno.readDir(join(PROJECT, rel))) await walk(join(rel, entry.name));
  };
  for (
    const path of [...config.publish.include as string[], "playground/ui/", "playground/server/"]
  ) {
    await walk(path.replace(/\/$/, ""));
  }
  return [...new Set(files)];
}

Deno.test("README, the MCP usage and every published file pin jsr:@toolfs/fs to a range that admits deno.json's version (issue 34.2)", async () => {
  const { version } = JSON.parse(await Deno.readTextFile(join(PROJECT, "deno.json")));
  const jsr = JSON.parse(await Deno.readTextFile(join(PROJECT, "jsr.json")));
  assertEquals(jsr.version, version, "jsr.json and deno.json disagree on the version");
  const wrong: string[] = [];
  const seen = new Map<string, number>();
  for (const file of await specifierSources()) {
    const text = await Deno.readTextFile(join(PROJECT, file));
    for (const [whole, range] of text.matchAll(/jsr:@toolfs\/fs@([^/\s"'`]+)/g)) {
      seen.set(file, (seen.get(file) ?? 0) + 1);
      if (!rangeAdmits(range, version)) wrong.push(`${file}: ${whole} does not admit ${version}`);
    }
  }
  assertEquals(wrong, []);
  assert((seen.get("README.md") ?? 0) >= 9, `README.md: ${seen.get("README.md") ?? 0} pinned`);
  assert(seen.get("mcp.ts"), "mcp.ts's docs name no pinned specifier");
  assert(seen.get(join("src", "mcp", "cli_args.ts")), "the MCP usage text names none");
});

const README = await Deno.readTextFile(join(PROJECT, "README.md"));
const BLOCKS = codeBlocks(README);
const RUNNABLE = BLOCKS.filter((b) => ["ts", "js", "typescript", "javascript"].includes(b.lang));
const canRun = Deno.permissions.querySync({ name: "run" }).state === "granted";

Deno.test("README: the extractor finds the fences, their info strings and indented blocks", () => {
  const blocks = codeBlocks(
    "a\n```ts ignore needs a key\nx\n```\n- item\n\n  ```sh\n  echo 1\n  ```\n~~~\nplain\n~~~\n",
  );
  assertEquals(blocks, [
    { line: 2, lang: "ts", tags: ["ignore", "needs", "a", "key"], code: "x" },
    { line: 7, lang: "sh", tags: [], code: "echo 1" },
    { line: 10, lang: "", tags: [], code: "plain" },
  ]);
  assert(RUNNABLE.length >= 6, `${RUNNABLE.length} ts blocks found`);
});

Deno.test("README: every ```ts ignore block gives its reason; every scripted= harness exists", async () => {
  for (const block of RUNNABLE) {
    const where = `README.md:${block.line}`;
    if (block.tags[0] === "ignore") {
      assert(block.tags.length > 1, `${where}: \`ts ignore\` needs a reason after it`);
      continue;
    }
    const unknown = block.tags.filter((t) => !t.startsWith("scripted="));
    assertEquals(
      unknown,
      [],
      `${where}: unknown fence tags (use ts, ts ignore <reason> or ts scripted=<harness>)`,
    );
    for (const tag of block.tags) {
      const harness = join(PROJECT, "tests", "readme", `scripted_${tag.slice(9)}.ts`);
      assert((await Deno.stat(harness).catch(() => null))?.isFile, `${where}: no ${harness}`);
    }
  }
});

Deno.test("README: every ```json block parses", () => {
  for (const block of BLOCKS.filter((b) => b.lang === "json" || b.lang === "jsonc")) {
    try {
      JSON.parse(block.code);
    } catch (error) {
      throw new Error(`README.md:${block.line}: ${error instanceof Error ? error.message : error}`);
    }
  }
});

const config = JSON.parse(await Deno.readTextFile(join(PROJECT, "deno.json")));
for (const block of RUNNABLE.filter((b) => b.tags[0] !== "ignore")) {
  const first = block.code.split("\n").find((l) => l.trim() && !l.startsWith("import")) ?? "";
  Deno.test({
    name: `README.md:${block.line} runs${block.tags.length ? ` (${block.tags.join(" ")})` : ""}: ${
      first.trim().slice(0, 60)
    }`,
    ignore: !canRun,
    async fn() {
      const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "toolfs_readme_" }));
      try {
        await Deno.mkdir(join(dir, "workspace"));
        await Deno.writeTextFile(join(dir, "workspace", "README.md"), "Teh quick fox\n");
        const preludes = block.tags.map((tag) =>
          `import ${
            JSON.stringify(
              pathToFileURL(join(PROJECT, "tests", "readme", `scripted_${tag.slice(9)}.ts`)).href,
            )
          };\n`
        );
        const file = join(dir, `block_${block.line}.ts`);
        await Deno.writeTextFile(
          file,
          preludes.join("") + localImports(block.code, config.exports),
        );
        const out = await new Deno.Command(Deno.execPath(), {
          args: ["run", "--no-prompt", "-A", "--config", join(PROJECT, "deno.json"), file],
          cwd: dir,
          stdin: "null",
          env: { API_KEY: "scripted" },
        }).output();
        const d = new TextDecoder();
        assertEquals(
          out.code,
          0,
          `README.md:${block.line} failed; fix it, or tag its fence \`ts scripted=<harness>\` or \`ts ignore <reason>\`:\n${
            d.decode(out.stderr)
          }${d.decode(out.stdout)}`,
        );
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
