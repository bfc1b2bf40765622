// A directory toolfs works in, swapped for a FIFO (red team, issue 30's second pass): under
// --allow-all the local provider pins each directory it writes, moves or deletes in by opening
// it, and a plain open of a FIFO waits for a writer, so a process that exchanged a directory
// with a FIFO (renameat2) just after the path was resolved froze the call past its abort (with
// a swapper running, 15 of 50 calls through such a directory never returned; 0 of 150 now).
// Pinning opens with O_DIRECTORY now: anything else is refused at once. The first test checks
// that open, in a child process that is killed if it blocks. The same held for a file: `read`
// checks the name is a regular file, then opened it, and a FIFO exchanged in between blocked
// it (17 of 600 calls through such a file never returned); the file is now first opened without
// waiting (O_NONBLOCK) and reopened through its descriptor. So are the directories and files
// the search walks when its first open fails (list, grep and glob: a synchronous open of a FIFO
// froze the whole process, every session and timer with it). The slow tests race both.

import assert from "node:assert/strict";
import { join } from "node:path";
import { cannotRun, granted, skipUnless, slowCase } from "./_harness.ts";

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

const READS = 2000;
for (const [mode, what] of [["read", "a file"], ["search", "a directory"]] as const) {
  const raceName = `${mode === "read" ? "read" : "list, grep and glob"} of ${what} exchanged ` +
    `with a FIFO: no call blocks (${READS} calls, descriptor checks)`;
  Deno.test({
    name: raceName,
    ...slowCase(),
    ignore: skipUnless(
      raceName,
      Deno.build.os !== "linux"
        ? "renameat2: Linux only"
        : !granted({ name: "ffi" })
        ? "needs --allow-ffi (renameat2 through libc)"
        : cannotRun("mkfifo"),
    ) || slowCase().ignore,
    async fn() {
      const root = await Deno.realPath(await Deno.makeTempDir());
      const stop = join(root, "..", `${root.split("/").at(-1)}.stop`);
      try {
        await Deno.writeTextFile(join(root, "g.txt"), "hello\n");
        await Deno.mkdir(join(root, "d"));
        await Deno.writeTextFile(join(root, "d", "e.txt"), "e\n");
        assert.ok(
          (await new Deno.Command("mkfifo", { args: [join(root, "fifo")] }).output()).success,
        );
        const run = (script: string, args: string[], permissions: string[]) =>
          new Deno.Command(Deno.execPath(), {
            args: [
              "run",
              "--no-config",
              "--no-prompt",
              ...permissions,
              new URL(script, import.meta.url).pathname,
              ...args,
            ],
            stdout: "piped",
            stderr: "inherit",
          }).spawn();
        const swapper = run("_fifo_swapper.ts", [
          stop,
          join(root, mode === "read" ? "g.txt" : "d"),
          join(root, "fifo"),
        ], [
          "--allow-read",
          "--allow-write",
          "--allow-ffi",
        ]);
        const child = run("_fifo_read_child.ts", [root, String(READS), mode], ["--allow-all"]);
        const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
        const { stdout, signal } = await child.output();
        clearTimeout(timer);
        await Deno.writeTextFile(stop, "");
        const swaps = JSON.parse(new TextDecoder().decode((await swapper.output()).stdout)).swaps;
        const counts = signal === null ? new TextDecoder().decode(stdout).trim() : "(killed)";
        console.log(`${READS} calls, ${swaps} exchanges with a FIFO: ${counts}`);
        assert.equal(signal, null, "a call waited on the FIFO (killed after 60 s)");
      } finally {
        await Deno.remove(stop).catch(() => {});
        await Deno.remove(`${stop}.ready`).catch(() => {});
        await Deno.remove(root, { recursive: true });
      }
    },
  });
}
