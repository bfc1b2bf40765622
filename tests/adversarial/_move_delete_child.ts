// Child process of move_delete_test.ts (C15.2, C15.5): `move` and `delete` through `<root>/d`
// (and, with a second root on another file system, into and out of `<root2>/dd`) while
// _swapper.ts swaps those directories for links to outside ones, <rounds> times; prints one
// JSON line { pinned, names, calls, counts, malformed }.
//
//   deno run <permissions> _move_delete_child.ts <rounds> <root> [<root2>]
//
// Round i: delete d/f<i>.txt; delete d/t<i> (a tree); move d/m<i>.txt out of d; move n<i>.txt
// into d; move the directory d/dir<i> out of d; and across file systems: move x<i>.txt into
// <root2>/dd, move <root2>/dd/y<i>.txt out. The permissions decide the check mode (with
// --allow-all on Linux: descriptor checks; else path checks, where C15.5 withholds the tools).

import { createFsTools, LocalFileSystem } from "../../mod.ts";
import { fdPathsAvailable } from "../../src/provider/local/_fd_paths.ts";

const [rounds, root, root2] = Deno.args;
const tools = createFsTools({
  fs: new LocalFileSystem({ roots: root2 ? [root, root2] : [root] }),
  policy: false,
  tools: ["list", "read", "move", "delete"],
});
const counts: Record<string, number> = {};
let calls = 0;
let malformed = 0;
for (let i = 0; i < Number(rounds); i++) {
  const round: [string, string, Record<string, unknown>][] = [
    ["delete-file", "delete", { path: `d/f${i}.txt` }],
    ["delete-tree", "delete", { path: `d/t${i}`, recursive: true }],
    ["move-out", "move", { source_path: `d/m${i}.txt`, destination_path: `m${i}.txt` }],
    ["move-in", "move", { source_path: `n${i}.txt`, destination_path: `d/n${i}.txt` }],
    ["move-dir-out", "move", { source_path: `d/dir${i}`, destination_path: `dir${i}` }],
  ];
  if (root2) {
    round.push(
      ["across-in", "move", {
        source_path: `x${i}.txt`,
        destination_path: `${root2}/dd/x${i}.txt`,
      }],
      ["across-out", "move", {
        source_path: `${root2}/dd/y${i}.txt`,
        destination_path: `y${i}.txt`,
      }],
    );
  }
  for (const [what, tool, args] of round) {
    const result = await tools.execute(tool, args);
    calls++;
    const key = `${what}:${result.error?.code ?? "ok"}`;
    counts[key] = (counts[key] ?? 0) + 1;
    if (
      result.isError && (!result.content.startsWith("Error: ") || /\n\s+at /.test(result.content))
    ) {
      malformed++;
    }
  }
}
const names = tools.definitions.map((d) => d.name);
console.log(JSON.stringify({ pinned: fdPathsAvailable(), names, calls, counts, malformed }));
