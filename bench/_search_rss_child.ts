// Runs one `grep` in a fresh process and prints its peak resident memory (VmHWM) and wall time
// as JSON. Usage: deno run -A _search_rss_child.ts <root> <path> <pattern>. Private to bench/.

import { createFsTools, LocalFileSystem } from "../mod.ts";

function peakKiB(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const match = status.match(/^VmHWM:\s+(\d+) kB$/m);
  return match ? Number(match[1]) : NaN;
}

const [root, path, pattern] = Deno.args;
const tools = createFsTools({ fs: new LocalFileSystem({ roots: [{ path: root, write: false }] }) });
const startKiB = peakKiB();
const started = performance.now();
const result = await tools.execute("grep", { pattern, path });
const ms = performance.now() - started;
if (result.isError) {
  console.error(result.content);
  Deno.exit(1);
}
console.log(JSON.stringify({ startKiB, peakKiB: peakKiB(), ms, chars: result.content.length }));
