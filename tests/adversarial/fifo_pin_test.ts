// A directory toolfs works in, swapped for a FIFO (red team, issue 30's second pass): under
// --allow-all the local provider pins each directory it writes, moves or deletes in by opening
// it, and a plain open of a FIFO waits for a writer, so a process that exchanged a directory
// with a FIFO (renameat2) just after the path was resolved froze the call past its abort (with
// a swapper running, 15 of 50 calls through such a directory never returned; 0 of 150 now).
// Pinning opens with O_DIRECTORY now: anything else is refused at once. The race itself is
// timing; this checks the open it hit, in a child process that is killed if it blocks.

import assert from "node:assert/strict";
import { join } from "node:path";
import { cannotRun, skipUnless } from "./_harness.ts";

const name = "a FIFO where a directory to pin stood is refused at once, never waited on";
Deno.test({
  name,
  ignore: skipUnless(
    name,
    Deno.build.os !== "linux" ? "descriptor pins: Linux only" : cannotRun("mkfifo"),
  ),
  async fn() {
    const root = await Deno.realPath(await Deno.makeTempDir());
    try {
      const made = await new Deno.Command("mkfifo", { args: [join(root, "d")] }).output();
      assert.ok(made.success);
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--no-config",
          "--no-prompt",
          "--allow-all",
          new URL("_fifo_pin_child.ts", import.meta.url).pathname,
          root,
          "d",
        ],
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const { stdout, signal } = await child.output();
      clearTimeout(timer);
      assert.equal(signal, null, "the pin waited on the FIFO (killed after 10 s)");
      assert.deepEqual(JSON.parse(new TextDecoder().decode(stdout).trim()), {
        code: "FS_NOT_DIRECTORY",
      });
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
