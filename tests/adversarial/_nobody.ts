// An attacker process running as nobody: _swapper.ts under `setpriv`, importing a
// world-readable copy of the tests (issue 19's suites). The caller makes the directory holding
// `path` writable by nobody; nobody needs no access to `target` (a link to it is enough).

import assert from "node:assert/strict";
import { join } from "node:path";
import { readableCopy } from "../_readable_copy.ts";
import { cannotRun, granted } from "./_harness.ts";
import { Inotify } from "./_inotify.ts";

/** The uid and gid of nobody. */
export const NOBODY = 65534;

/**
 * A `deno run` of `script` as nobody (`setpriv`), with its own Deno directory (made under
 * `base`, owned by nobody) and the given permission flags; stdin closed, output piped.
 */
export async function nobodyDeno(
  base: string,
  permissions: string[],
  script: string,
  args: string[],
): Promise<Deno.Command> {
  const denoDir = join(base, "deno_dir");
  await Deno.mkdir(denoDir, { recursive: true });
  await Deno.chown(denoDir, NOBODY, NOBODY);
  return new Deno.Command("setpriv", {
    args: [
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      "--clear-groups",
      "--",
      Deno.execPath(),
      "run",
      "--no-config",
      "--no-prompt",
      ...permissions,
      script,
      ...args,
    ],
    env: { DENO_DIR: denoDir, HOME: denoDir, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/**
 * Starts `_swapper.ts` as nobody, swapping `path` and a link to `target` until stopped; waits
 * until it swaps. `stop()` resolves to the number of swaps.
 */
export async function nobodySwapper(base: string, stop: string, path: string, target: string) {
  const script = new URL("tests/adversarial/_swapper.ts", readableCopy()).pathname;
  const child = (await nobodyDeno(base, ["--allow-read", "--allow-write"], script, [
    stop,
    path,
    target,
  ])).spawn();
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

/**
 * Why an attack by a nobody process that reacts to inotify events cannot run here, or `null`:
 * it needs Linux, --allow-ffi (`uses` names what it takes through libc), the superuser with
 * --allow-sys=uid (to become nobody), inotify through libc.so.6 and setpriv.
 */
export function inotifyAttackSkip(uses = "inotify"): string | null {
  if (Deno.build.os !== "linux") return `${uses}: Linux only`;
  if (!granted({ name: "ffi" })) return `needs --allow-ffi (${uses} through libc)`;
  const uid = granted({ name: "sys", kind: "uid" }) ? Deno.uid() : null;
  if (uid !== 0) return "needs root and --allow-sys=uid (runs the attacker as nobody)";
  try {
    new Inotify(true).close();
  } catch (error) {
    return `needs inotify through libc.so.6: ${(error as Error).message}`;
  }
  return cannotRun("setpriv");
}
