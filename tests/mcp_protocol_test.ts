// MCP protocol revisions (issue 24): the server negotiates every revision the SDK in deno.json
// (`@modelcontextprotocol/server` 2.4.0) supports for sessions — its SUPPORTED_PROTOCOL_VERSIONS
// — and answers a client asking for a newer one (2026-07-28) with the latest of those, as the
// specification's version negotiation requires.
//
//   deno test -A tests/mcp_protocol_test.ts

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "npm:@modelcontextprotocol/server@2.4.0";
import { serveHttp } from "../mcp.ts";
import { sandbox } from "./_sandbox.ts";

const canServe = Deno.permissions.querySync({ name: "net" }).state === "granted";

Deno.test({
  name: "MCP initialize: each supported revision is kept, a newer or unknown one gets the latest",
  ignore: !canServe,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    assertEquals(LATEST_PROTOCOL_VERSION, "2025-11-25");
    await using box = await sandbox("local");
    const { root } = box;
    const serving = await serveHttp([root], { token: null, log: () => {} });
    try {
      const negotiated = async (version: string): Promise<string | undefined> => {
        const response = await fetch(serving.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: version,
              capabilities: {},
              clientInfo: { name: "t", version: "0" },
            },
          }),
        });
        const text = await response.text();
        return /"protocolVersion":"([^"]+)"/.exec(text)?.[1];
      };
      for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
        assertEquals(await negotiated(version), version);
      }
      assertEquals(await negotiated("2026-07-28"), LATEST_PROTOCOL_VERSION);
      assertEquals(await negotiated("1999-01-01"), LATEST_PROTOCOL_VERSION);
    } finally {
      await serving.close();
    }
  },
});
