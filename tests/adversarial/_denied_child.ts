// Child process of faults_test.ts, run as an unprivileged user: runs tool calls over a root in
// one session and prints their results as one JSON line: [{ content, code }, ...].
//
//   deno run --allow-read=<root> --allow-write=<root> _denied_child.ts <root> '<[[tool, args], ...]>'

import { createFsTools, LocalFileSystem } from "../../mod.ts";

const [root, calls] = Deno.args;
const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
const results = [];
for (const [name, args] of JSON.parse(calls) as [string, unknown][]) {
  const result = await tools.execute(name, args);
  results.push({ content: result.content, code: result.error?.code ?? null });
}
console.log(JSON.stringify(results));
