// Child process of fifo_pin_test.ts: `<n>` calls through the tools (with --allow-all:
// descriptor checks) while a name is exchanged with a FIFO: `read` of `<root>/g.txt`, or `list`,
// `grep` and `glob` of `<root>/d`; prints the outcome counts as one JSON line. A call that blocks
// on the FIFO never lets it finish.
//
//   deno run --allow-all _fifo_read_child.ts <root> <n> read|search

import { createFsTools, LocalFileSystem } from "../../mod.ts";

const [root, n, mode] = Deno.args;
const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }), cwd: root });
const counts: Record<string, number> = {};
for (let i = 0; i < Number(n); i++) {
  const [tool, args] = mode === "read"
    ? ["read", { file_path: "g.txt" }]
    : [["list", "grep", "glob"][i % 3], i % 3 === 0 ? { path: "d" } : { pattern: "e", path: "d" }];
  const result = await tools.execute(tool, args);
  const key = `${tool}:${result.error?.code ?? "ok"}`;
  counts[key] = (counts[key] ?? 0) + 1;
}
console.log(JSON.stringify(counts));
