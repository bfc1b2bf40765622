// MCP progress (issue 24): a tools/call carrying `_meta.progressToken` gets
// `notifications/progress` while it runs (a long grep or glob walk), none without a token.
// The interval is 1 s by default; these tests shorten it.
//
//   deno test -A tests/mcp_progress_test.ts

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { serveHttp } from "../mcp.ts";
import { type McpProgressParams, withProgress } from "../src/mcp/progress.ts";
import { sandbox } from "./_sandbox.ts";

Deno.test("withProgress: one notification per interval while the work runs, increasing, none without a token", async () => {
  const sent: McpProgressParams[] = [];
  const send = (params: McpProgressParams) => Promise.resolve(void sent.push(params));
  const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve("done"), 120));
  assertEquals(
    await withProgress(slow, { token: "t1", send, tool: "grep", intervalMs: 20 }),
    "done",
  );
  assert(sent.length >= 2, `${sent.length} notifications`);
  for (const [i, params] of sent.entries()) {
    assertEquals(params.progressToken, "t1");
    assert(i === 0 || params.progress > sent[i - 1].progress);
    assert(/^grep: still running after \d+\.\d s$/.test(params.message), params.message);
  }
  const count = sent.length;
  await new Promise((resolve) => setTimeout(resolve, 60));
  assertEquals(sent.length, count, "nothing after the work ended");
  await withProgress(slow, { token: undefined, send, tool: "grep", intervalMs: 20 });
  assertEquals(sent.length, count, "no token, no notification");
  // A fast call sends nothing with the default interval (1 s).
  await withProgress(() => Promise.resolve(1), { token: 7, send, tool: "glob" });
  assertEquals(sent.length, count);
});

const canServe = (["net", "env"] as const).every((name) =>
  Deno.permissions.querySync({ name }).state === "granted"
);

Deno.test({
  name: "MCP over HTTP: a grep with a progressToken reports progress to the client's onprogress",
  ignore: !canServe,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using box = await sandbox("local");
    const { root } = box;
    for (let d = 0; d < 40; d++) {
      await Deno.mkdir(join(root, `d${d}`));
      for (let f = 0; f < 50; f++) {
        await Deno.writeTextFile(join(root, `d${d}`, `f${f}.txt`), "hay\n".repeat(200));
      }
    }
    const serving = await serveHttp([root], { progressIntervalMs: 1, log: () => {} });
    const { Client } = await import("@modelcontextprotocol/sdk/client");
    const { StreamableHTTPClientTransport } = await import(
      // @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
      "@modelcontextprotocol/sdk/client/streamableHttp.js"
    );
    const client = new Client({ name: "progress-test", version: "0.0.0" });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(serving.url), {
          requestInit: { headers: { authorization: `Bearer ${serving.token}` } },
        }),
      );
      const progress: { progress: number }[] = [];
      const result = await client.callTool(
        { name: "grep", arguments: { pattern: "needle" } },
        undefined,
        { onprogress: (p: { progress: number }) => progress.push(p), timeout: 60_000 },
      );
      assertEquals(result.isError, false);
      assert(progress.length >= 1, "no progress notification");
      // Without onprogress the client sends no token: no notification.
      const quiet: unknown[] = [];
      client.setNotificationHandler(
        (await import(
          // @ts-types="@modelcontextprotocol/sdk/types"
          "@modelcontextprotocol/sdk/types.js"
        )).ProgressNotificationSchema,
        (n: unknown) => void quiet.push(n),
      );
      await client.callTool({ name: "grep", arguments: { pattern: "needle" } });
      assertEquals(quiet, []);
    } finally {
      await client.close();
      await serving.close();
    }
  },
});
