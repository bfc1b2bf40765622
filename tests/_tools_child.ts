// Child process for tests that need a process with narrower Deno permissions: runs the tool
// calls given as JSON (`[[name, args], ...]`) over the root given, with policy false, and prints
// `[[content, code], ...]` as JSON.

import { createFsTools, LocalFileSystem } from "../mod.ts";

const [root, json] = Deno.args;
const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }), policy: false });
const out: [string, string | null][] = [];
for (const [name, args] of JSON.parse(json) as [string, unknown][]) {
  const result = await tools.execute(name, args);
  out.push([result.content, result.error?.code ?? null]);
}
console.log(JSON.stringify(out));
