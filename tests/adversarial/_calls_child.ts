// Child process of hardening_test.ts (and others): runs tool calls, any of the nine tools, over a
// root in one session, without the read-before-write policy, and prints one JSON line:
// { pinned, names (the tools offered), results: [{ content, code }] }.
//
//   deno run <permissions> _calls_child.ts <root> '<[[tool, args], ...]>' ['<config>']
//
// A call `["write-big", { file_path, size, fill }]` writes `size` bytes of `fill` lines, built
// here (too large for a command line). The permissions decide the check mode: with --allow-all
// on Linux, descriptor checks (pinned); with scoped grants, path checks.

import { createFsTools, LocalFileSystem } from "../../mod.ts";
import { fdPathsAvailable } from "../../src/provider/local/_fd_paths.ts";

const [root, calls, config] = Deno.args;
const tools = createFsTools({
  fs: new LocalFileSystem({ roots: [root] }),
  policy: false,
  tools: ["list", "read", "write", "edit", "glob", "grep", "move", "delete", "patch"],
  config: config ? JSON.parse(config) : undefined,
});
const results = [];
for (const [name, args] of JSON.parse(calls) as [string, Record<string, unknown>][]) {
  let result;
  if (name === "write-big") {
    const line = `${args.fill}\n`;
    const content = line.repeat(Math.ceil(Number(args.size) / line.length));
    result = await tools.execute("write", { file_path: args.file_path, content });
  } else {
    result = await tools.execute(name, args);
  }
  results.push({ content: result.content, code: result.error?.code ?? null });
}
const names = tools.definitions.map((d) => d.name);
console.log(JSON.stringify({ pinned: fdPathsAvailable(), names, results }));
