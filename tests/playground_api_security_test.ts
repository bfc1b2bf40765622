/**
 * The playground server's API refusals through `app.request`: foreign hosts and origins, the
 * bearer token, body and config bounds, refused roots, swapped directories (C14).
 */

import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { join } from "node:path";
import { CONFIG_BOUNDS, createApp, MAX_BODY_BYTES } from "../playground/server/app.ts";
import { createFixtureWorkspace, openDirectoryWorkspace } from "../playground/server/workspace.ts";
import type { TreeNode } from "../playground/server/tree.ts";
import { readableCopy } from "./_readable_copy.ts";
import { authed, post, setUp, TOKEN } from "./_playground_app.ts";

Deno.test("playground API refuses foreign hosts, origins and non-JSON posts", async () => {
  await using t = await setUp();
  const body = JSON.stringify({ tool: "list", args: {} });
  const textPost = await t.app.request("/api/execute", {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body,
  });
  assertEquals(textPost.status, 415);
  const foreignHost = await t.app.request("http://evil.example/api/definitions");
  assertEquals(foreignHost.status, 403);
  const foreignOrigin = await t.app.request("/api/execute", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://evil.example" },
    body,
  });
  assertEquals(foreignOrigin.status, 403);
  const local = await t.app.request("http://127.0.0.1:8787/api/execute", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://127.0.0.1:8787" },
    body,
  });
  assertEquals(local.status, 200);
});

Deno.test("playground API compares the port of Host and Origin with the one it listens on (issue 19.12)", async () => {
  const workspace = await createFixtureWorkspace({ bigLogBytes: 1024 });
  try {
    const app = authed(createApp({ workspace, token: TOKEN, port: () => 8787 }));
    const body = JSON.stringify({ tool: "list", args: {} });
    const status = async (url: string, origin?: string) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (origin) headers.origin = origin;
      const response = await app.request(url, { method: "POST", headers, body });
      await response.body?.cancel();
      return response.status;
    };
    assertEquals(await status("http://127.0.0.1:8787/api/execute"), 200);
    assertEquals(await status("http://127.0.0.1:8787/api/execute", "http://localhost:8787"), 200);
    assertEquals(await status("http://127.0.0.1:9999/api/execute"), 403);
    assertEquals(await status("http://127.0.0.1/api/execute"), 403);
    assertEquals(await status("http://127.0.0.1:8787/api/execute", "http://127.0.0.1:3000"), 403);
    const refused = await app.request("http://localhost:9999/api/definitions");
    assertEquals(await refused.json(), {
      error: 'host "localhost:9999" is not allowed: use 127.0.0.1:8787',
    });
  } finally {
    await workspace.dispose();
  }
});

Deno.test("C14.1: every /api/* request without the right bearer token gets 401", async () => {
  await using t = await setUp();
  const body = JSON.stringify({ tool: "write", args: { file_path: "pwned.txt", content: "x" } });
  const attempts: [string, RequestInit][] = [
    ["/api/definitions", {}],
    ["/api/tree", {}],
    ["/api/execute", { method: "POST", headers: { "content-type": "application/json" }, body }],
    ["/api/execute", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer wrong" },
      body,
    }],
    ["/api/execute", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: TOKEN },
      body,
    }],
    ["/api/reset", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}x` },
      body: "{}",
    }],
  ];
  for (const [path, init] of attempts) {
    const response = await t.raw.request(path, init);
    assertEquals(response.status, 401, `${path} ${JSON.stringify(init.headers)}`);
    assertEquals(await response.json(), { error: "missing or wrong token" });
  }
  await assertRejectsNotFound(join(t.workspace.root, "pwned.txt"));
  const allowed = await post(t.app, "/api/execute", JSON.parse(body));
  assertEquals(allowed.status, 200);
  const open = createApp({ workspace: t.workspace, token: null });
  assertEquals((await open.request("/api/definitions")).status, 200);
});

async function assertRejectsNotFound(path: string): Promise<void> {
  const found = await Deno.lstat(path).then(() => true, () => false);
  assertEquals(found, false, `${path} exists`);
}

Deno.test("C14.2: a request body over 1 MiB gets 413 and is not run", async () => {
  await using t = await setUp();
  const content = "x".repeat(MAX_BODY_BYTES);
  const response = await post(t.app, "/api/execute", {
    tool: "write",
    args: { file_path: "huge.txt", content },
  });
  assertEquals(response.status, 413);
  assertMatch((await response.json()).error, /over 1048576 bytes/);
  await assertRejectsNotFound(join(t.workspace.root, "huge.txt"));
  // Streamed without a length, too.
  const streamed = await t.app.request("/api/execute", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: new Blob([`{"tool":"list","args":{},"x":"${"y".repeat(MAX_BODY_BYTES)}"}`]).stream(),
  });
  assertEquals(streamed.status, 413);
  const justUnder = await post(t.app, "/api/execute", {
    tool: "write",
    args: { file_path: "big.txt", content: "x".repeat(MAX_BODY_BYTES - 200) },
  });
  assertEquals(justUnder.status, 200);
});

Deno.test("C14.2: config values past their bound get 400 naming the key and the bound", async () => {
  await using t = await setUp();
  for (const [key, bound] of Object.entries(CONFIG_BOUNDS)) {
    const defaults = (await (await t.app.request("/api/definitions")).json()).defaults;
    if (!(key in defaults)) continue; // a key this library version does not have yet
    const over = await post(t.app, "/api/execute", {
      tool: "list",
      args: {},
      config: { [key]: bound + 1 },
    });
    assertEquals(over.status, 400, key);
    assertEquals(
      (await over.json()).error,
      `config "${key}" may be at most ${bound} in the playground: got ${bound + 1}`,
    );
    const at = await post(t.app, "/api/execute", {
      tool: "list",
      args: {},
      config: { [key]: bound },
    });
    assertEquals(at.status, 200, key);
  }
  const query = encodeURIComponent(JSON.stringify({ listMaxEntries: 1e9 }));
  const viaQuery = await t.app.request(`/api/prompt-cost?config=${query}`);
  assertEquals(viaQuery.status, 400);
  assertMatch((await viaQuery.json()).error, /"listMaxEntries" may be at most 10000/);
});

Deno.test("C14.3: --root / is refused; the home directory or a parent of it is accepted with a warning", async () => {
  await assertRejectsMessage(() => openDirectoryWorkspace("/"), /refusing the file-system root/);
  const parent = await Deno.realPath(await Deno.makeTempDir());
  try {
    const home = join(parent, "home");
    await Deno.mkdir(home);
    const atHome = await openDirectoryWorkspace(home, { home });
    assertMatch(atHome.warning ?? "", /is your home directory .*; writes there are real/);
    const above = await openDirectoryWorkspace(parent, { home });
    assertMatch(above.warning ?? "", /holds your home directory .*; writes there are real/);
    const inside = join(home, "project");
    await Deno.mkdir(inside);
    assertEquals((await openDirectoryWorkspace(inside, { home })).warning, undefined);
    const sibling = join(parent, "home2");
    await Deno.mkdir(sibling);
    assertEquals((await openDirectoryWorkspace(sibling, { home })).warning, undefined);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

async function assertRejectsMessage(fn: () => Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await fn();
  } catch (error) {
    assertMatch((error as Error).message, message);
    return;
  }
  assert(false, `expected a rejection matching ${message}`);
}

Deno.test("playground tree never lists a directory swapped for a link out of the workspace", async () => {
  await using t = await setUp();
  const outside = await Deno.realPath(await Deno.makeTempDir());
  const flip = join(t.workspace.root, "flip");
  const real = join(t.workspace.root, "flip-real");
  const link = join(t.workspace.root, "flip-link");
  try {
    await Deno.writeTextFile(join(outside, "OUTSIDE-SECRET.txt"), "secret\n");
    await Deno.mkdir(real);
    await Deno.writeTextFile(join(real, "inside.txt"), "ok\n");
    await Deno.symlink(outside, link);
    await Deno.rename(real, flip);
    let stop = false;
    let swaps = 0;
    // Swap flip between the real directory and the link on every turn of the event loop.
    const swapper = (async () => {
      while (!stop) {
        if (swaps % 2 === 0) {
          Deno.renameSync(flip, real);
          Deno.renameSync(link, flip);
        } else {
          Deno.renameSync(flip, link);
          Deno.renameSync(real, flip);
        }
        swaps++;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    })();
    const seen: string[] = [];
    for (let i = 0; i < 60; i++) {
      const response = await t.app.request("/api/tree");
      assertEquals(response.status, 200);
      const text = await response.text();
      if (text.includes("OUTSIDE-SECRET")) seen.push(text);
    }
    stop = true;
    await swapper;
    assert(swaps > 10, `only ${swaps} swaps`);
    assertEquals(seen.length, 0, "the tree listed a name from outside the workspace");
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

const UNPRIVILEGED_SKIP = (() => {
  if (Deno.permissions.querySync({ name: "run" }).state !== "granted") return "needs --allow-run";
  if (Deno.uid?.() !== 0) return "needs root, to run the tree as nobody";
  try {
    Deno.statSync("/usr/bin/setpriv");
  } catch {
    return "needs /usr/bin/setpriv";
  }
  return undefined;
})();

Deno.test({
  name: `playground tree shows an unreadable directory as an error entry, not a 500${
    UNPRIVILEGED_SKIP ? ` [skipped: ${UNPRIVILEGED_SKIP}]` : ""
  }`,
  ignore: UNPRIVILEGED_SKIP !== undefined,
  async fn() {
    const root = await Deno.realPath(await Deno.makeTempDir());
    const denoDir = await Deno.makeTempDir();
    try {
      await Deno.chmod(root, 0o755);
      await Deno.chmod(denoDir, 0o777);
      await Deno.mkdir(join(root, "locked"));
      await Deno.writeTextFile(join(root, "locked", "x.txt"), "x\n");
      await Deno.chmod(join(root, "locked"), 0o000);
      await Deno.mkdir(join(root, "open"), { mode: 0o755 });
      await Deno.writeTextFile(join(root, "open", "y.txt"), "y\n");
      // The tree, built as nobody (for whom locked/ is unreadable) through the provider.
      const modUrl = new URL("mod.ts", readableCopy()).href;
      const treeUrl = new URL("playground/server/tree.ts", readableCopy()).href;
      const script = `
        const { LocalFileSystem } = await import(${JSON.stringify(modUrl)});
        const { buildTree } = await import(${JSON.stringify(treeUrl)});
        const fs = new LocalFileSystem({ roots: [${JSON.stringify(root)}] });
        console.log(JSON.stringify(await buildTree(fs, ${JSON.stringify(root)})));
      `;
      const output = await new Deno.Command("/usr/bin/setpriv", {
        args: [
          "--reuid=nobody",
          "--regid=nogroup",
          "--clear-groups",
          Deno.execPath(),
          "eval",
          "--no-prompt",
          "--no-config",
          "--allow-read",
          script,
        ],
        env: { DENO_DIR: denoDir, HOME: denoDir, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(output.stderr);
      assert(output.success, stderr);
      const tree = JSON.parse(new TextDecoder().decode(output.stdout)) as TreeNode;
      const locked = tree.children?.find((c) => c.name === "locked");
      const open = tree.children?.find((c) => c.name === "open");
      assertMatch(locked?.error ?? "", /PERMISSION/, JSON.stringify(locked));
      assertEquals(locked?.children, undefined);
      assertEquals(open?.children?.map((c) => c.name), ["y.txt"]);
    } finally {
      await Deno.chmod(join(root, "locked"), 0o755).catch(() => {});
      await Deno.remove(root, { recursive: true });
      await Deno.remove(denoDir, { recursive: true });
    }
  },
});
