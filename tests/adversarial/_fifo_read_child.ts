// Child process of fifo_pin_test.ts: `<n>` reads of `<root>/g.txt` through the tools (with
// --allow-all: descriptor checks) while its name is exchanged with a FIFO; prints the outcome
// counts as one JSON line. A call that blocks on the FIFO never lets it finish.
//
//   deno run --allow-all _fifo_read_child.ts <root> <n>

import { createFsTools, LocalFileSystem } from "../../mod.ts";

const [root, n] = Deno.args;
const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }), cwd: root });
const counts: Record<string, number> = {};
for (let i = 0; i < Number(n); i++) {
  const result = await tools.execute("read", { file_path: "g.txt" });
  const key = result.error?.code ?? "ok";
  counts[key] = (counts[key] ?? 0) + 1;
}
console.log(JSON.stringify(counts));
