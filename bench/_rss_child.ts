// Runs one `read` in a fresh process and prints its peak resident memory (VmHWM) and wall time
// as JSON. Usage: deno run -A _rss_child.ts <root> <file> <offset> [limit] (Deno grants
// /proc/self only to -A; the tools still see nothing but the read-only root).
// Private to bench/.

import { createFsTools, LocalFileSystem } from "../mod.ts";

function peakKiB(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const match = status.match(/^VmHWM:\s+(\d+) kB$/m);
  return match ? Number(match[1]) : NaN;
}

const [root, file, offset, limit] = Deno.args;
const tools = createFsTools({ fs: new LocalFileSystem({ roots: [{ path: root, write: false }] }) });
const startKiB = peakKiB();
const started = performance.now();
const args = { file_path: file, offset: Number(offset), limit: limit ? Number(limit) : undefined };
const result = await tools.execute("read", args);
const ms = performance.now() - started;
if (result.isError) {
  console.error(result.content);
  Deno.exit(1);
}
console.log(JSON.stringify({ startKiB, peakKiB: peakKiB(), ms, chars: result.content.length }));
