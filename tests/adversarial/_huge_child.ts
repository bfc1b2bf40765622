// Child process of huge_inputs_test.ts: runs tool calls over a root and reports, per call, the
// result and the peak resident memory it added, measured apart from the test runner.
//
//   deno run --allow-read --allow-write _huge_child.ts <root> '<[[tool, args], ...]>'
//
// Prints one JSON line: [{ content, code, ms, peakMiB }, ...].

import { createFsTools, LocalFileSystem } from "../../mod.ts";

const [root, calls] = Deno.args;
const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
await tools.execute("list", {}); // warm up: modules, the first ops

let peak = 0;
const sampler = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 2);
const report = [];
for (const [name, args] of JSON.parse(calls) as [string, unknown][]) {
  const baseline = Deno.memoryUsage().rss;
  peak = baseline;
  const started = performance.now();
  const result = await tools.execute(name, args);
  const ms = performance.now() - started;
  peak = Math.max(peak, Deno.memoryUsage().rss);
  report.push({
    content: result.content.length > 4096 ? result.content.slice(0, 4096) : result.content,
    tail: result.content.slice(-200),
    code: result.error?.code ?? null,
    ms: Math.round(ms),
    peakMiB: Math.round((peak - baseline) / (1 << 20)),
  });
}
clearInterval(sampler);
console.log(JSON.stringify(report));
