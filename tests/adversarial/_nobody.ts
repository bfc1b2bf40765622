// An attacker process running as nobody: _swapper.ts under `setpriv`, importing a
// world-readable copy of the tests (issue 19's suites). The caller makes the directory holding
// `path` writable by nobody; nobody needs no access to `target` (a link to it is enough).

import assert from "node:assert/strict";
import { join } from "node:path";
import { readableCopy } from "../_readable_copy.ts";

/** The uid and gid of nobody. */
export const NOBODY = 65534;

/**
 * Starts `_swapper.ts` as nobody, swapping `path` and a link to `target` until stopped; waits
 * until it swaps. `stop()` resolves to the number of swaps.
 */
export async function nobodySwapper(base: string, stop: string, path: string, target: string) {
  const denoDir = join(base, "deno_dir");
  await Deno.mkdir(denoDir);
  await Deno.chown(denoDir, NOBODY, NOBODY);
  const child = new Deno.Command("setpriv", {
    args: [
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      "--clear-groups",
      "--",
      Deno.execPath(),
      "run",
      "--no-config",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      new URL("tests/adversarial/_swapper.ts", readableCopy()).pathname,
      stop,
      path,
      target,
    ],
    env: { DENO_DIR: denoDir, HOME: denoDir, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  for (let i = 0; i < 500; i++) {
    if (await Deno.lstat(`${path}.link`).then(() => true, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    async stop(): Promise<number> {
      await Deno.writeTextFile(stop, "");
      const { success, stdout, stderr } = await child.output();
      assert.ok(success, new TextDecoder().decode(stderr));
      return JSON.parse(new TextDecoder().decode(stdout).trim().split("\n").at(-1)!).swaps;
    },
  };
}
