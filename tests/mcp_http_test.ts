/**
 * Drives the MCP server (`mcp.ts`) over Streamable HTTP with the official MCP SDK client, and
 * runs the official conformance scenarios that apply to a tools-only server against it (C13.3,
 * C13.4). Needs -A (see tests/_mcp_client.ts).
 */

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import {
  CONFORMANCE,
  CONFORMANCE_SCENARIOS,
  connectHttp,
  delay,
  exists,
  type HttpServer,
  rawStatus,
  runMcp,
  startHttp,
  test,
  withHttp,
} from "./_mcp_client.ts";
import { sandbox } from "./_sandbox.ts";

// C13.3 — Streamable HTTP

test("C13.3: over HTTP a result is exactly the text, and two sessions are two policy sessions", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { root } = box;
  await withHttp([root], async (server) => {
    assertEquals(server.url.startsWith("http://127.0.0.1:"), true);
    const first = await connectHttp(server);
    const second = await connectHttp(server);
    try {
      assertEquals(await first.call("read", { file_path: "a.txt" }), {
        content: [{
          type: "text",
          text: "<path>a.txt</path>\n<type>file</type>\n<content>\n1: a\n\n" +
            "(End of file - total 1 lines)\n</content>",
        }],
        isError: false,
      });
      assertEquals(
        (await second.call("edit", { file_path: "a.txt", old_string: "a", new_string: "b" }))
          .content[0].text,
        'Error: cannot edit "a.txt": read it first',
      );
      assertEquals(
        (await first.call("edit", { file_path: "a.txt", old_string: "a", new_string: "b" }))
          .content[0].text,
        "The file a.txt has been updated successfully.",
      );
      assertEquals(await Deno.readTextFile(join(root, "a.txt")), "b\n");
    } finally {
      await first.close();
      await second.close();
    }
  });
});

test("C13.3: a request without the token or with a wrong one gets 401", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  await withHttp([root], async (server) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    for (const authorization of [undefined, "Bearer wrong-token", "Basic dGVzdA=="]) {
      const response = await fetch(server.url, {
        method: "POST",
        headers: authorization ? { ...headers, authorization } : headers,
        body,
      });
      assertEquals(response.status, 401);
      const challenge = response.headers.get("www-authenticate")!;
      // RFC 6750: an error code only when a credential was sent.
      assertEquals(
        challenge.startsWith('Bearer realm="toolfs", error="invalid_token", error_description='),
        authorization !== undefined,
        challenge,
      );
      if (authorization === undefined) assertEquals(challenge, 'Bearer realm="toolfs"');
      assertEquals(
        (await response.json()).error.message,
        'unauthorized: missing or wrong bearer token; send the header "Authorization: Bearer <token>" with the token in TOOLFS_MCP_TOKEN or the one the server printed to stderr at start (Claude Code: claude mcp add --transport http toolfs <url> --header "Authorization: Bearer <token>")',
      );
    }
    // OAuth discovery finds no metadata (404), so a client does not try to register.
    for (const path of ["oauth-protected-resource/mcp", "oauth-authorization-server"]) {
      const metadata = await fetch(new URL(`/.well-known/${path}`, server.url));
      assertEquals(metadata.status, 404);
      await metadata.body?.cancel();
    }
  });
});

test("C13.3: a foreign Host or Origin gets 403 even with the token (DNS rebinding)", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  await withHttp([root], async (server) => {
    const url = new URL(server.url);
    const host = await rawStatus(url, "evil.example", server.token!);
    assertEquals(host, 403);
    assertEquals(await rawStatus(url, `localhost:${url.port}`, server.token!), 200);
    const origin = await fetch(server.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${server.token}`,
        origin: "http://evil.example",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    assertEquals(origin.status, 403);
    await origin.body?.cancel();
  });
});

test("C13.3: without TOOLFS_MCP_TOKEN a fresh token is printed; --no-auth only on loopback", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { root } = box;
  await withHttp([root], async (server) => {
    assert(server.token !== null && server.token.length >= 40, server.stderr());
    const client = await connectHttp(server);
    try {
      assertEquals((await client.call("read", { file_path: "a.txt" })).isError, false);
    } finally {
      await client.close();
    }
  }, {});
  const open = await runMcp([root, "--http", "0.0.0.0:0", "--no-auth"]);
  assertEquals(open.code, 2);
  assertEquals(
    open.stderr,
    "toolfs mcp: --no-auth is allowed only on a loopback host, not 0.0.0.0\n",
  );
});

test("C13.3: HTTP sessions take the client's roots", async () => {
  await using box = await sandbox("local", { "a/one.txt": "1\n", "b/two.txt": "2\n" });
  const { root } = box;
  await withHttp([root], async (server) => {
    const a = await connectHttp(server, { roots: [join(root, "a")] });
    const b = await connectHttp(server, { roots: [join(root, "b")] });
    try {
      assertEquals((await a.call("read", { file_path: "one.txt" })).isError, false);
      assertEquals((await b.call("read", { file_path: "two.txt" })).isError, false);
      // notifications/roots/list_changed over HTTP: the next call asks again.
      await a.setRoots([join(root, "b")]);
      assertEquals((await a.call("read", { file_path: "two.txt" })).isError, false);
      assertEquals(
        (await b.call("read", { file_path: "../a/one.txt" })).content[0].text,
        'Error: cannot read "../a/one.txt": outside the permitted roots',
      );
    } finally {
      await a.close();
      await b.close();
    }
  });
});

test("C13.4: an 11 MiB or malformed HTTP body gets a JSON-RPC error, the server keeps serving", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  await withHttp([root], async (server) => {
    const client = await connectHttp(server);
    try {
      let failure: unknown;
      try {
        await client.call("write", { file_path: "huge.txt", content: "x".repeat(11 << 20) });
      } catch (error) {
        failure = error;
      }
      assert(failure instanceof Error, "the oversize call must fail");
      assert(!(await exists(join(root, "huge.txt"))));
      const raw = await fetch(server.url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${server.token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: " ".repeat(11 << 20),
      });
      assertEquals(raw.status, 413);
      const answer = await raw.json();
      assertEquals(answer.jsonrpc, "2.0");
      assertEquals(typeof answer.error.code, "number");
      const malformed = await fetch(server.url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${server.token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: "not json",
      });
      assertEquals(malformed.status, 400);
      assertEquals((await malformed.json()).error.code, -32700);
      assertEquals((await client.call("list", {})).isError, false);
    } finally {
      await client.close();
    }
  });
});

test("C13.3: SIGTERM and SIGINT stop the HTTP server cleanly with exit code 0", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const server = await startHttp([root, "--http", "127.0.0.1:0", "--no-auth"]);
    const client = await connectHttp(server);
    assertEquals((await client.call("list", {})).isError, false);
    assertEquals(await server.stop(signal), 0);
    assert(server.stderr().includes("toolfs mcp: stopping"), server.stderr());
    await client.close().catch(() => {});
  }
});

test("C13.3: the official MCP conformance scenarios for a tools-only server pass", async () => {
  await using box = await sandbox("local");
  const { root, base: dir } = box;
  const server = await startHttp([root, "--http", "127.0.0.1:0", "--no-auth"]);
  try {
    for (const scenario of CONFORMANCE_SCENARIOS) {
      const out = await new Deno.Command(Deno.execPath(), {
        // Run outside the project, so the suite's own dependencies stay out of deno.lock.
        cwd: dir,
        args: [
          "run",
          "-A",
          "--no-lock",
          CONFORMANCE,
          "server",
          "--url",
          server.url,
          "--scenario",
          scenario,
        ],
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 0, `${scenario} failed:\n${text}`);
      assert(/Passed: (\d+)\/\1, 0 failed/.test(text), `${scenario}:\n${text}`);
    }
  } finally {
    await server.stop();
  }
});

test("C13.3: a session idle past sessionIdleMs is closed; its client gets 404 and can start anew", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { root } = box;
  const { serveHttp } = await import("../mcp.ts");
  const serving = await serveHttp([root], { token: null, sessionIdleMs: 1500, log: () => {} });
  const server: HttpServer = {
    url: serving.url,
    token: null,
    stderr: () => "",
    stop: () => Promise.resolve(0),
  };
  try {
    const first = await connectHttp(server);
    assertEquals((await first.call("read", { file_path: "a.txt" })).isError, false);
    await delay(3500);
    let failure: unknown;
    try {
      await first.call("list", {});
    } catch (error) {
      failure = error;
    }
    assert(
      failure instanceof Error && /404|session not found/i.test(failure.message),
      String(failure),
    );
    await first.close().catch(() => {});
    const second = await connectHttp(server);
    assertEquals((await second.call("list", {})).isError, false);
    await second.close();
  } finally {
    await serving.close();
  }
});
