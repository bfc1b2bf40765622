// C9, C10, C11 against ripgrep: on a generated tree (nested .gitignores with negation, anchoring
// and directory patterns, hidden files, symlinks, varied names), glob's file list equals
// `rg --files -g`, and grep's matched (file, line) set equals `rg -n`'s. Skipped with a printed
// reason where rg or --allow-run is missing (CI installs rg).

import { deepEqual } from "node:assert/strict";
import { join } from "node:path";
import { granted } from "./_helpers.ts";
import { sandbox } from "./_sandbox.ts";
import { formatSize } from "../src/render/glob_render.ts";

function rgAvailable(): string | null {
  if (!granted("run")) return "needs --allow-run";
  try {
    new Deno.Command("rg", { args: ["--version"], stdout: "null" }).outputSync();
    return null;
  } catch {
    return "rg (ripgrep) is not installed";
  }
}

const missing = rgAvailable();
if (missing) console.warn(`skipped the ripgrep differential tests: ${missing}`);

async function rg(cwd: string, args: string[]): Promise<string[]> {
  const out = await new Deno.Command("rg", {
    args: ["--no-require-git", "--no-config", "--no-messages", ...args],
    cwd,
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "");
}

const WORDS = ["alpha", "beta", "gamma", "delta", "needle", "Needle", "x_y", "foo(bar)"];

function tree(seed: number): Record<string, string> {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return (state >>> 16) % n;
  };
  const files: Record<string, string> = {
    ".gitignore": "*.log\n!keep.log\n/build/\ntmp*/\n",
    "pkg/.gitignore": "dist\n*.gen.ts\n!important.gen.ts\n",
    "pkg/sub/.gitignore": "/local.ts\n",
  };
  const dirs = [
    "",
    "src",
    "src/a",
    "src/a/b",
    "pkg",
    "pkg/sub",
    "pkg/dist",
    "build",
    "tmp1",
    "docs",
    ".hidden",
    "src/.cache",
  ];
  const names = [
    "main.ts",
    "util.ts",
    "x.gen.ts",
    "important.gen.ts",
    "a.log",
    "keep.log",
    "local.ts",
    "README.md",
    ".env",
    "data.json",
    "ä.ts",
  ];
  for (let i = 0; i < 120; i++) {
    const dir = dirs[next(dirs.length)];
    const name = `${next(3) === 0 ? `f${i}_` : ""}${names[next(names.length)]}`;
    const lines: string[] = [];
    for (let l = 0, n = 1 + next(12); l < n; l++) {
      lines.push(`${WORDS[next(WORDS.length)]} ${l} ${WORDS[next(WORDS.length)]}`);
    }
    files[dir ? `${dir}/${name}` : name] = lines.join(next(4) === 0 ? "\r\n" : "\n") + "\n";
  }
  return files;
}

Deno.test({
  name: "C10/C9.2: glob lists the same files as rg --files -g on generated trees",
  ignore: missing !== null,
  async fn() {
    for (const seed of [1, 2, 3]) {
      await using box = await sandbox("local", tree(seed));
      const { root } = box;
      await Deno.symlink(join(root, "src"), join(root, "src_link"));
      await box.write("nested/.git/HEAD", "x");
      await box.write("nested/in.ts", "needle\n");
      const { tools } = box;
      for (const pattern of ["*.ts", "**/*.md", "src/**/*.ts", "*.{log,json}", "pkg/*"]) {
        const ours = ((await tools.execute("glob", { pattern })).value as { files: string[] })
          .files.map((f) => f.slice(root.length + 1));
        // rg's -g overrides its ignore rules; git's do not: keep what rg lists without -g.
        const listed = new Set(await rg(root, ["--files"]));
        const theirs = (await rg(root, ["--files", "-g", pattern]))
          .filter((f) => listed.has(f))
          .sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
        deepEqual(ours, theirs, `seed ${seed}, pattern ${pattern}`);
      }
    }
  },
});

Deno.test({
  name: "C11/C9.2: grep matches the same (file, line) pairs as rg -n on generated trees",
  ignore: missing !== null,
  async fn() {
    for (const seed of [4, 5, 6]) {
      await using box = await sandbox("local", tree(seed));
      const { root } = box;
      const tools = box.toolsWith({ config: { grepMaxMatches: 100000, readMaxBytes: 1 << 24 } });
      const cases: [Record<string, unknown>, string[]][] = [
        [{ pattern: "needle" }, ["needle"]],
        [{ pattern: "needle", ignore_case: true }, ["-i", "needle"]],
        [{ pattern: "^[ab]\\w+ \\d" }, ["^[ab]\\w+ \\d"]],
        [{ pattern: "foo\\(bar\\)", glob: "*.ts" }, ["-g", "*.ts", "foo\\(bar\\)"]],
        [{ pattern: "gamma [0-9]+ delta", path: "src" }, ["gamma [0-9]+ delta", "src"]],
      ];
      for (const [args, rgArgs] of cases) {
        const value = (await tools.execute("grep", args)).value as {
          matches: { path: string; line: number }[];
        };
        const ours = value.matches.map((m) => `${m.path.slice(root.length + 1)}:${m.line}`)
          .sort();
        // rg's -g overrides its ignore rules; git's do not: keep files rg lists without -g.
        const listed = new Set(await rg(root, ["--files"]));
        const theirs = (await rg(root, ["-n", "--no-heading", "--with-filename", ...rgArgs]))
          .map((l) => l.split(":").slice(0, 2))
          .filter(([file]) => listed.has(file))
          .map((pair) => pair.join(":")).sort();
        deepEqual(ours, theirs, `seed ${seed}, ${JSON.stringify(args)}`);
      }
    }
  },
});

/** `find <root> -type f -printf '%s %p\n'`: size and path relative to the root, per file. */
async function findSizes(root: string): Promise<Map<string, number>> {
  const out = await new Deno.Command("find", {
    args: [".", "-type", "f", "-printf", "%s %p\\n"],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  const sizes = new Map<string, number>();
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    const space = line.indexOf(" ");
    if (space > 0) sizes.set(line.slice(space + 3), Number(line.slice(0, space))); // "./"
  }
  return sizes;
}

Deno.test({
  name: "C9.3: glob and grep lists with ! exclusions take the files rg -g '…' -g '!…' takes",
  ignore: missing !== null,
  async fn() {
    for (const seed of [7, 8]) {
      await using box = await sandbox("local", tree(seed));
      const { root } = box;
      const tools = box.toolsWith({ config: { globMaxFiles: 100000, readMaxBytes: 1 << 24 } });
      const listed = new Set(await rg(root, ["--files"]));
      const lists = [
        ["*.ts", "!*.gen.ts"],
        ["**/*", "!*.md", "!*.json"],
        ["src/**", "!src/a/**"],
        ["*.{ts,md}", "!**/b/*", "!main.ts"],
      ];
      for (const list of lists) {
        const globs = list.flatMap((g) => ["-g", g]);
        const ours = ((await tools.execute("glob", { pattern: list })).value as {
          files: string[];
        }).files.map((f) => f.slice(root.length + 1));
        const theirs = (await rg(root, ["--files", ...globs]))
          .filter((f) => listed.has(f))
          .sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
        deepEqual(ours, theirs, `seed ${seed}, glob ${JSON.stringify(list)}`);
        const grep = (await tools.execute("grep", {
          pattern: "needle",
          glob: list,
          output_mode: "files_with_matches",
        })).value as { matches: { path: string }[] };
        const found = grep.matches.map((m) => m.path.slice(root.length + 1));
        const rgFound = (await rg(root, ["-l", ...globs, "needle"]))
          .filter((f) => listed.has(f))
          .sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
        deepEqual(found, rgFound, `seed ${seed}, grep glob ${JSON.stringify(list)}`);
      }
      // Only exclusions: grep takes every other file.
      const onlyOut = (await tools.execute("grep", {
        pattern: "needle",
        glob: "!*.ts",
        output_mode: "files_with_matches",
      })).value as { matches: { path: string }[] };
      deepEqual(
        onlyOut.matches.map((m) => m.path.slice(root.length + 1)),
        (await rg(root, ["-l", "-g", "!*.ts", "needle"])).filter((f) => listed.has(f)).sort((
          a,
          b,
        ) => a < b ? -1 : a > b ? 1 : 0),
      );
    }
  },
});

Deno.test({
  name: "C10: glob sort size orders as find -printf '%s %p' sorted by size, ties in path order",
  ignore: missing !== null,
  async fn() {
    for (const seed of [9, 10]) {
      await using box = await sandbox("local", tree(seed));
      const { root } = box;
      await box.write("big.lock", "x".repeat(264249));
      await box.write("same1.txt", "ab");
      await box.write("same2.txt", "cd");
      const tools = box.toolsWith({ config: { globMaxFiles: 100000, readMaxBytes: 1 << 24 } });
      const result = await tools.execute("glob", { pattern: "**/*", sort: "size" });
      const ours = (result.value as { files: string[] }).files.map((f) => f.slice(root.length + 1));
      const listed = new Set(await rg(root, ["--files"]));
      const sizes = await findSizes(root);
      const theirs = [...sizes].filter(([path]) => listed.has(path))
        .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
      deepEqual(ours, theirs.map(([path]) => path), `seed ${seed}`);
      deepEqual(ours[0], "big.lock");
      const lines = result.content.split("\n").slice(3, 3 + ours.length);
      deepEqual(lines, theirs.map(([path, size]) => `${path} (${formatSize(size)})`));
    }
  },
});
