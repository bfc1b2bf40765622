// `deno task playground` as a process: what it prints and refuses at start (CONTRACT C14.1,
// C14.3). Needs -A (it starts the server as a child process and talks to it over HTTP):
//
//   deno test -A tests/playground_main_test.ts

import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  PLAYGROUND_PERMISSIONS,
  type StartedPlayground,
  startPlayground,
} from "./_playground_process.ts";

const MAIN = fileURLToPath(new URL("../playground/server/main.ts", import.meta.url));
const SKIP =
  ["run", "net", "env"].some((name) =>
      Deno.permissions.querySync({ name } as Deno.PermissionDescriptor).state !== "granted"
    )
    ? "needs -A"
    : undefined;

/** Runs main.ts until it prints its URL or exits. */
function start(args: string[], env: Record<string, string> = {}): Promise<StartedPlayground> {
  return startPlayground([
    "run",
    "--no-prompt",
    ...PLAYGROUND_PERMISSIONS,
    MAIN,
    "--port",
    "0",
    "--no-build",
    ...args,
  ], { env });
}

Deno.test({
  name: `C14.1: the playground prints a fresh ≥128-bit token and refuses API calls without it${
    SKIP ? ` [skipped: ${SKIP}]` : ""
  }`,
  ignore: SKIP !== undefined,
  async fn() {
    const first = await start([]);
    const second = await start([]);
    try {
      const pattern = /^http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+)$/;
      const [, , token1] = pattern.exec(first.url ?? "") ?? [];
      const [, , token2] = pattern.exec(second.url ?? "") ?? [];
      assert(token1 && token2, `${first.url} / ${second.url}`);
      assert(token1.length * 6 >= 128, token1);
      assert(token1 !== token2);
      const origin = new URL(first.url!).origin;
      const without = await fetch(`${origin}/api/definitions`);
      assertEquals(without.status, 401);
      assertEquals(await without.json(), { error: "missing or wrong token" });
      const wrong = await fetch(`${origin}/api/definitions`, {
        headers: { authorization: `Bearer ${token2}` },
      });
      assertEquals(wrong.status, 401);
      await wrong.body?.cancel();
      const right = await fetch(`${origin}/api/definitions`, {
        headers: { authorization: `Bearer ${token1}` },
      });
      assertEquals(right.status, 200);
      await right.body?.cancel();
    } finally {
      await first.stop();
      await second.stop();
    }
    const open = await start(["--no-token"]);
    try {
      assertMatch(open.url ?? "", /^http:\/\/127\.0\.0\.1:\d+\/$/);
      assertMatch(open.output, /warning: --no-token/);
      const response = await fetch(`${open.url}api/definitions`);
      assertEquals(response.status, 200);
      await response.body?.cancel();
    } finally {
      await open.stop();
    }
  },
});

Deno.test({
  name: `C14.3: --root / is refused; a --root holding HOME starts with a warning${
    SKIP ? ` [skipped: ${SKIP}]` : ""
  }`,
  ignore: SKIP !== undefined,
  async fn() {
    const slash = await start(["--root", "/"]);
    assertEquals(slash.code, 1);
    assertEquals(slash.url, undefined);
    assertMatch(slash.output, /--root "\/": refusing the file-system root/);
    const parent = await Deno.realPath(await Deno.makeTempDir());
    const home = join(parent, "me");
    await Deno.mkdir(home);
    const holding = await start(["--root", dirname(home)], { HOME: home });
    try {
      assert(holding.url, holding.output);
      assertMatch(holding.output, /holds your home directory .*; writes there are real/);
    } finally {
      await holding.stop();
      await Deno.remove(parent, { recursive: true });
    }
  },
});
