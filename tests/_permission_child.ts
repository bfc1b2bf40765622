// Child process of the C1.1 permission tests: constructs a LocalFileSystem over the root given
// on the command line and prints "ok" or the constructor's error message.

import { LocalFileSystem } from "../mod.ts";

const [root, mode] = Deno.args;
try {
  new LocalFileSystem({ roots: [mode === "ro" ? { path: root, write: false } : root] });
  console.log("ok");
} catch (error) {
  console.log(error instanceof Error ? error.message : String(error));
}
