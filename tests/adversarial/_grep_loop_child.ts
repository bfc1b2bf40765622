// Child process of oracle_inotify_test.ts (issue 19, finding 2): one session over a root that
// runs a grep for each line of stdin (the line is grep's arguments, JSON) and prints one JSON
// line per call: { pinned, content, code }. The permissions decide the check mode: with
// --allow-all on Linux, descriptor checks (pinned); with scoped grants, path checks.
//
//   deno run <permissions> _grep_loop_child.ts <root>

import { createFsTools, LocalFileSystem } from "../../mod.ts";
import { fdPathsAvailable } from "../../src/provider/local/_fd_paths.ts";

const [root] = Deno.args;
const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }), policy: false });
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let pending = "";
for await (const chunk of Deno.stdin.readable) {
  pending += decoder.decode(chunk, { stream: true });
  let end: number;
  while ((end = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    const result = await tools.execute("grep", JSON.parse(line));
    const report = {
      pinned: fdPathsAvailable(),
      content: result.content,
      code: result.error?.code,
    };
    await Deno.stdout.write(encoder.encode(`${JSON.stringify(report)}\n`));
  }
}
