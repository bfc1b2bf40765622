/**
 * The SDK-free parts of the MCP server: the stdio line transport (C13.4), roots in force
 * (C13.2) and the HTTP gate (C13.3), on in-memory streams and requests.
 */

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { idOf, LineTransport } from "../src/mcp/line_transport.ts";
import { rootsInForce } from "../src/mcp/roots.ts";
import { guardRequest, isLoopback, parseListen } from "../src/http/http_guard.ts";
import { messageTooLargeMessage, rootsInForceLine } from "../src/render/mcp_render.ts";

/** Feeds `chunks` to a transport and collects what it delivers and answers. */
async function run(
  chunks: (string | Uint8Array)[],
  maxMessageBytes?: number,
): Promise<{ messages: unknown[]; answers: unknown[] }> {
  const encoder = new TextEncoder();
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      }
      controller.close();
    },
  });
  let written = "";
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      written += new TextDecoder().decode(chunk);
    },
  });
  const transport = new LineTransport({ input, output, maxMessageBytes });
  const messages: unknown[] = [];
  const closed = new Promise<void>((resolve) => transport.onclose = resolve);
  transport.onmessage = (message) => messages.push(message);
  await transport.start();
  await closed;
  const answers = written.split("\n").filter((line) => line !== "").map((l) => JSON.parse(l));
  return { messages, answers };
}

Deno.test("C13.4: messages split across chunks and several in one chunk all arrive", async () => {
  const { messages, answers } = await run([
    '{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n{"jsonrpc":"2.0",',
    '"id":2,"method":"ping"}\n',
    "\n",
    '{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
  ]);
  assertEquals(messages, [
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", id: 2, method: "ping" },
    { jsonrpc: "2.0", method: "notifications/initialized" },
  ]);
  assertEquals(answers, []);
});

Deno.test("C13.4: an oversize message is answered with its id and the next one still arrives", async () => {
  const big = `{"jsonrpc":"2.0","method":"tools/call","params":{"x":"${"y".repeat(300)}"},"id":42}`;
  const { messages, answers } = await run(
    [big.slice(0, 100), big.slice(100) + "\n", '{"jsonrpc":"2.0","id":43,"method":"ping"}\n'],
    200,
  );
  assertEquals(answers, [{
    jsonrpc: "2.0",
    id: 42,
    error: { code: -32600, message: messageTooLargeMessage(big.length, 200) },
  }]);
  assertEquals(messages, [{ jsonrpc: "2.0", id: 43, method: "ping" }]);
});

Deno.test("C13.4: the id of an oversize message is read from either end, else null", () => {
  assertEquals(idOf('{"jsonrpc":"2.0","id":"a-1","method":"x"', ""), "a-1");
  assertEquals(idOf('{"id":7,', ""), 7);
  assertEquals(idOf('{"method":"tools/call"', '"content":"…"}},"jsonrpc":"2.0","id":9}\n'), 9);
  assertEquals(idOf('{"method":"x","params":{"id":3', 'zzz"}}'), null);
  assertEquals(idOf("[1,2", "3]"), null);
});

Deno.test("C13.4: a JSON value that is not a message gets -32600 with its id when it has one", async () => {
  const { messages, answers } = await run(['{"id":5,"method":"ping"}\n', "[1]\n", "nope\n"]);
  assertEquals(messages, []);
  assertEquals(
    (answers as { id: unknown; error: { code: number } }[]).map((a) => [a.id, a.error.code]),
    [
      [5, -32600],
      [null, -32600],
      [null, -32700],
    ],
  );
});

Deno.test("C13.2: roots in force: client roots alone, inside the command line's, or neither", () => {
  const cli = [{ path: "/w", write: true }, { path: "/w/docs", write: false }, {
    path: "/r",
    write: false,
  }];
  assertEquals(rootsInForce(cli, null), { roots: cli, source: "command line" });
  assertEquals(rootsInForce([], ["/a", "/b", "/a"]), {
    roots: [{ path: "/a", write: true }, { path: "/b", write: true }],
    source: "client",
  });
  assertEquals(rootsInForce([], []), { roots: [], source: "client" });
  // The most specific command-line root decides the access; /w2 is not inside /w.
  assertEquals(rootsInForce(cli, ["/w/src", "/w/docs/api", "/w2", "/r"]), {
    roots: [
      { path: "/w/src", write: true },
      { path: "/w/docs/api", write: false },
      { path: "/r", write: false },
    ],
    source: "client",
  });
  assertEquals(rootsInForce(cli, ["/elsewhere"]), { roots: cli, source: "command line" });
  assertEquals(rootsInForce(cli, []), { roots: cli, source: "command line" });
});

Deno.test("C13.2: the roots line names each root and its access", () => {
  assertEquals(
    rootsInForceLine([{ path: "/w", write: true }, { path: "/d", write: false }], "client"),
    "toolfs mcp: roots in force (from the client): /w (read-write), /d (read-only)",
  );
  assertEquals(
    rootsInForceLine([], "client"),
    "toolfs mcp: no roots in force; tool calls fail until a root is given",
  );
});

Deno.test("C13.3: --http takes [host:]port with 127.0.0.1 as the default host", () => {
  assertEquals(parseListen("8080"), { hostname: "127.0.0.1", port: 8080 });
  assertEquals(parseListen("0.0.0.0:9"), { hostname: "0.0.0.0", port: 9 });
  assertEquals(parseListen("[::1]:0"), { hostname: "::1", port: 0 });
  assertEquals(parseListen("localhost:70000"), {
    problem: '--http "localhost:70000": expected [host:]port, e.g. 127.0.0.1:8080',
  });
  assertEquals(isLoopback("127.0.0.2"), true);
  assertEquals(isLoopback("::1"), true);
  assertEquals(isLoopback("0.0.0.0"), false);
});

Deno.test("C13.3: the gate: 403 for a foreign Host or Origin, 401 for a missing or wrong token", async () => {
  const request = (headers: Record<string, string>) =>
    new Request("http://127.0.0.1:8080/mcp", { method: "POST", headers });
  const options = { hostnames: ["127.0.0.1", "box.internal"], token: "t0k" };
  const status = (headers: Record<string, string>) =>
    guardRequest(request(headers), options)?.status ?? 200;
  const auth = { authorization: "Bearer t0k" };
  assertEquals(status({ host: "127.0.0.1:8080", ...auth }), 200);
  assertEquals(status({ host: "localhost:8080", origin: "http://localhost:3000", ...auth }), 200);
  assertEquals(status({ host: "[::1]:8080", ...auth }), 200);
  assertEquals(status({ host: "box.internal:8080", ...auth }), 200);
  assertEquals(status({ host: "evil.example:8080", ...auth }), 403);
  assertEquals(status({ host: "127.0.0.1.evil.example", ...auth }), 403);
  assertEquals(status({ host: "127.0.0.1:8080", origin: "https://evil.example", ...auth }), 403);
  assertEquals(status({ host: "127.0.0.1:8080", origin: "null", ...auth }), 403);
  assertEquals(status({ host: "127.0.0.1:8080" }), 401);
  assertEquals(status({ host: "127.0.0.1:8080", authorization: "Bearer t0k2" }), 401);
  assertEquals(status({ host: "127.0.0.1:8080", authorization: "bearer t0k" }), 200);
  const refused = guardRequest(request({ host: "evil.example" }), options)!;
  assertEquals(await refused.json(), {
    jsonrpc: "2.0",
    id: null,
    error: { code: -32000, message: 'forbidden: Host "evil.example" is not this server' },
  });
  assertEquals(guardRequest(request({ host: "127.0.0.1" }), { ...options, token: null }), null);
});

Deno.test("C13.3: with the port known, Host and Origin must name it too (issue 19.12)", () => {
  const request = (headers: Record<string, string>) =>
    new Request("http://127.0.0.1:8080/mcp", { method: "POST", headers });
  const options = {
    hostnames: ["127.0.0.1", "box.internal", "proxy.example:443"],
    token: null,
    port: 8080,
  };
  const status = (headers: Record<string, string>) =>
    guardRequest(request(headers), options)?.status ?? 200;
  assertEquals(status({ host: "127.0.0.1:8080" }), 200);
  assertEquals(status({ host: "localhost:8080", origin: "http://localhost:8080" }), 200);
  assertEquals(status({ host: "127.0.0.1:8081" }), 403);
  assertEquals(status({ host: "127.0.0.1" }), 403);
  assertEquals(status({ host: "[::1]:9999" }), 403);
  assertEquals(status({ host: "127.0.0.1:8080", origin: "http://localhost:3000" }), 403);
  assertEquals(status({ host: "127.0.0.1:8080", origin: "http://127.0.0.1" }), 403);
  // An extra host without a port (a proxy in front) matches any port; with one, only that port.
  assertEquals(status({ host: "box.internal" }), 200);
  assertEquals(status({ host: "proxy.example", origin: "https://proxy.example" }), 403);
  assertEquals(status({ host: "proxy.example:443", origin: "https://proxy.example" }), 200);
});
