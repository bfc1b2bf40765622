// Child process of fifo_pin_test.ts: pins `<root>/<name>` (a FIFO) as the local provider pins
// a directory it works in, and prints what happened as one JSON line. Run with --allow-all (so
// directories are pinned by descriptor).
//
//   deno run --allow-all _fifo_pin_child.ts <root> <name>

import { FsError } from "../../mod.ts";
import { Containment } from "../../src/provider/local/_containment.ts";

const [root, name] = Deno.args;
const c = new Containment([root]);
try {
  const dir = await c.pin(`${root}/${name}`, true);
  dir.close();
  console.log(JSON.stringify({ pinned: true }));
} catch (error) {
  console.log(JSON.stringify({ code: error instanceof FsError ? error.code : String(error) }));
}
