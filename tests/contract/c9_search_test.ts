// CONTRACT C9.1 (definitions, tool subsets) and C8 (presentCall of glob and grep).

import { deepEqual, equal, throws } from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../../mod.ts";
import { MemoryFileSystem } from "../../memory.ts";
import { failed } from "../_helpers.ts";
import { sandbox } from "../_sandbox.ts";

Deno.test("C9.1: definitions list list, read, write, edit, glob, grep in that order", async () => {
  await using box = await sandbox("local");
  await Promise.resolve().then(() => {
    deepEqual(box.toolsWith().definitions.map((d) => d.name), [
      "list",
      "read",
      "write",
      "edit",
      "glob",
      "grep",
    ]);
  });
});

Deno.test("C9.1: createFsTools({ tools }) exposes a subset, in the canonical order", async () => {
  await using box = await sandbox("local", { "a.txt": "foo\n" });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [root] });
  const tools = createFsTools({ fs, tools: ["grep", "read", "glob", "list"] });
  deepEqual(tools.definitions.map((d) => d.name), ["list", "read", "glob", "grep"]);
  equal((await tools.execute("grep", { pattern: "foo" })).isError, false);
  deepEqual(
    failed(await tools.execute("write", { file_path: "b.txt", content: "x" }))[1],
    "FS_UNKNOWN_TOOL",
  );
  throws(() => createFsTools({ fs, tools: ["list", "find" as never] }), /unknown tool "find"/);
});

Deno.test("C8: presentCall of glob and grep — title, kind search, the search location", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  await Promise.resolve().then(() => {
    const { tools } = box;
    deepEqual(tools.presentCall("glob", { pattern: "**/*.ts" }), {
      title: "Glob **/*.ts",
      kind: "search",
      locations: [{ path: root }],
    });
    deepEqual(tools.presentCall("glob", { pattern: "*.md", path: "docs" }), {
      title: "Glob *.md in docs",
      kind: "search",
      locations: [{ path: join(root, "docs") }],
    });
    deepEqual(tools.presentCall("grep", { pattern: "TODO" }), {
      title: "Grep TODO",
      kind: "search",
      locations: [{ path: root }],
    });
    deepEqual(tools.presentCall("grep", { pattern: "x", path: "src/a.ts" }, { cwd: "sub" }), {
      title: "Grep x in src/a.ts",
      kind: "search",
      locations: [{ path: join(root, "sub/src/a.ts") }],
    });
  });
});

Deno.test("C1.7/C9: glob and grep give identical results on LocalFileSystem and MemoryFileSystem", async () => {
  const files: Record<string, string> = {
    ".gitignore": "*.log\n!keep.log\nbuild/\n",
    "a.log": "needle\n",
    "keep.log": "needle\n",
    "build/out.ts": "needle\n",
    "src/a.ts": "one\nneedle two\nthree\r\nfour\n",
    "src/.hidden.ts": "needle\n",
    "src/sub/.gitignore": "/local.ts\n",
    "src/sub/local.ts": "needle\n",
    "src/sub/b.ts": "\uFEFFneedle\nx\nneedle again",
    ".github/ci.yml": "needle: yes\n",
  };
  await using box = await sandbox("local", files);
  const { root } = box;
  const local = box.toolsWith();
  const memory = createFsTools({
    fs: new MemoryFileSystem({
      roots: [root],
      files: Object.fromEntries(Object.entries(files).map(([k, v]) => [join(root, k), v])),
    }),
  });
  const calls: [string, Record<string, unknown>][] = [
    ["glob", { pattern: "**" }],
    ["glob", { pattern: "*.ts", path: "src" }],
    ["glob", { pattern: ".github/*" }],
    ["glob", { pattern: "*", path: "nope" }],
    ["glob", { pattern: "*", path: "keep.log" }],
    ["grep", { pattern: "needle" }],
    ["grep", { pattern: "needle", context: 1, path: "src" }],
    ["grep", { pattern: "NEEDLE", ignore_case: true, output_mode: "count" }],
    ["grep", { pattern: "needle", glob: ".github/**", output_mode: "files_with_matches" }],
    ["grep", { pattern: "needle", path: "src/sub/local.ts" }],
    ["grep", { pattern: "(", path: "src" }],
  ];
  for (const [name, args] of calls) {
    const [a, b] = [await local.execute(name, args), await memory.execute(name, args)];
    deepEqual(b, a, `${name} ${JSON.stringify(args)}`);
  }
});
