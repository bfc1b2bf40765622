// Child process of pdf_bounds_test.ts (CONTRACT C17.2a): reads one PDF with `read` and reports
// how long it took, how long after an abort it ended, and the resident memory it added, sampled
// here with Deno.memoryUsage().rss every 2 ms (the parent also reads the kernel's high-water mark).
//
//   deno run --allow-read=<root> --allow-write=<root> _pdf_child.ts <root> <file> [abortAfterMs]
//
// Prints "ready", waits for a line on stdin, reads, prints one JSON line
// { content, code, ms, afterAbortMs, peakMiB }, and exits when stdin closes.

import { createFsTools, LocalFileSystem } from "../../mod.ts";

const [root, file, abortAfter] = Deno.args;
const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
await tools.execute("list", {}); // warm up: modules, the first ops

const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader();
console.log("ready");
await lines.read(); // "go"

const baseline = Deno.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 2);
const controller = new AbortController();
let abortedAt: number | null = null;
if (abortAfter !== undefined) {
  setTimeout(() => {
    abortedAt = performance.now();
    controller.abort();
  }, Number(abortAfter));
}
const started = performance.now();
const result = await tools.execute("read", { file_path: file }, { signal: controller.signal });
const ended = performance.now();
clearInterval(sampler);
peak = Math.max(peak, Deno.memoryUsage().rss);
console.log(JSON.stringify({
  content: result.content.length > 3000 ? result.content.slice(-3000) : result.content,
  code: result.error?.code ?? null,
  ms: Math.round(ended - started),
  afterAbortMs: abortedAt === null ? null : Math.round(ended - abortedAt),
  peakMiB: Math.round((peak - baseline) / (1 << 20)),
}));
while (!(await lines.read()).done) { /* until the parent closes stdin */ }
