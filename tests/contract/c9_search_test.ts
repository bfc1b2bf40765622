// CONTRACT C9.1 (definitions, tool subsets) and C8 (presentCall of glob and grep).

import { deepEqual, equal, throws } from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../../mod.ts";
import { failed, toolsAt, withSandbox } from "../_helpers.ts";

Deno.test("C9.1: definitions list list, read, write, edit, glob, grep in that order", async () => {
  await withSandbox({}, ({ root }) =>
    Promise.resolve().then(() => {
      deepEqual(toolsAt(root).definitions.map((d) => d.name), [
        "list",
        "read",
        "write",
        "edit",
        "glob",
        "grep",
      ]);
    }));
});

Deno.test("C9.1: createFsTools({ tools }) exposes a subset, in the canonical order", async () => {
  await withSandbox({ "a.txt": "foo\n" }, async ({ root }) => {
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
});

Deno.test("C8: presentCall of glob and grep — title, kind search, the search location", async () => {
  await withSandbox({}, ({ root }) =>
    Promise.resolve().then(() => {
      const tools = toolsAt(root);
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
    }));
});
