// Child process of oracle_test.ts (issue 19, finding 2): grep's prefilter asked about a file
// whose parent directory has been swapped for a link to outside the root since the walk listed
// it. Prints one JSON line: { pinned, flags } (`flags`: the prefilter's answer, `null` for none).
//
//   deno run <permissions> _prefilter_child.ts <root> <file inside root/d> <needle>
//
// `<root>/d.link` is a link to the outside directory, made by the caller (Deno.symlink needs
// unscoped grants); the child swaps it in with two renames.

import { join } from "node:path";
import { LocalFileSystem } from "../../mod.ts";
import { fdPathsAvailable } from "../../src/provider/local/_fd_paths.ts";

const [root, file, needle] = Deno.args;
const fs = new LocalFileSystem({ roots: [root] });
const target = await fs.resolve(file, { cwd: root, op: "grep" });
// The race frozen at its worst moment: the walk saw a directory, the prefilter meets a link.
Deno.renameSync(join(root, "d"), join(root, "d.real"));
Deno.renameSync(join(root, "d.link"), join(root, "d"));
const flags = await fs.search.mayContain!([target], [new TextEncoder().encode(needle)]);
console.log(JSON.stringify({ pinned: fdPathsAvailable(), flags: flags ? [...flags] : null }));
