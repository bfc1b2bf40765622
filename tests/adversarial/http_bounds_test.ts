// Issue 19, findings 6 and 12 (CONTRACT C13.3): the MCP HTTP server — and the playground, which
// serves through the same `serveBounded` — must not stop when file descriptors run out, must
// bound connections and the time a request's head may take (half-open "slowloris" connections
// are dropped), and caps its sessions, evicting the least recently used. Loopback only, bounded
// counts; needs -A (net, run).

import {
  deepEqual as assertEquals,
  notEqual as assertNotEquals,
  ok as assert,
} from "node:assert/strict";
import { serveHttp } from "../../mcp.ts";
import { sandbox } from "../_sandbox.ts";

const PROJECT = new URL("../../", import.meta.url).pathname;
const HALF = new TextEncoder().encode("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
const netAndRun = Deno.permissions.querySync({ name: "run" }).state !== "granted" ||
  Deno.permissions.querySync({ name: "net" }).state !== "granted";

/** Opens `n` connections that send half a request head and never the rest. */
async function halfOpen(port: number, n: number): Promise<Deno.Conn[]> {
  const conns: Deno.Conn[] = [];
  for (let i = 0; i < n; i++) {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(HALF).catch(() => {});
    conns.push(conn);
  }
  return conns;
}

/** Resolves `true` when the server closed the connection, `false` after `ms` without. */
async function closedWithin(conn: Deno.Conn, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  const closed = conn.read(new Uint8Array(64)).then((n) => n === null, () => true);
  try {
    return await Promise.race([closed, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** An MCP `initialize` over fetch; its status and session id. */
async function initialize(port: number, token: string | null, session?: string) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  if (token) headers.authorization = `Bearer ${token}`;
  if (session) headers["mcp-session-id"] = session;
  const body = session ? { jsonrpc: "2.0", id: 2, method: "ping" } : {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "0" },
    },
  };
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
  return { status: response.status, session: response.headers.get("mcp-session-id") };
}

Deno.test({
  name: "issue 19.6: half-open connections are capped and dropped after the header timeout",
  ignore: netAndRun,
  fn: async () => {
    await using box = await sandbox("local", { "a.txt": "a\n" });
    const { root } = box;
    const serving = await serveHttp([root], {
      token: "tok",
      maxConnections: 16,
      headerTimeoutMs: 800,
      log: () => {},
    });
    const port = Number(new URL(serving.url).port);
    try {
      const held = await halfOpen(port, 15);
      // A real request still gets through beside them.
      assertEquals((await initialize(port, "tok")).status, 200);
      // Past the cap, a connection is closed at once (long before the header timeout).
      const extra = await halfOpen(port, 5);
      const refused = await Promise.all(extra.map((c) => closedWithin(c, 400)));
      assert(refused.filter(Boolean).length >= 4, `closed at once: ${refused}`);
      // The half-open ones are dropped once the head is overdue.
      const dropped = await Promise.all(held.map((c) => closedWithin(c, 10_000)));
      assertEquals(dropped.every(Boolean), true);
      for (const conn of [...held, ...extra]) conn.close();
      assertEquals((await initialize(port, "tok")).status, 200);
    } finally {
      await serving.close();
    }
  },
});

Deno.test({
  name: "issue 19.12: MCP HTTP sessions are capped; the least recently used is evicted",
  ignore: netAndRun,
  fn: async () => {
    await using box = await sandbox("local", { "a.txt": "a\n" });
    const { root } = box;
    const serving = await serveHttp([root], { token: null, maxSessions: 3, log: () => {} });
    const port = Number(new URL(serving.url).port);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await initialize(port, null)).session!);
      // Using the first makes the second the least recently used.
      assertEquals((await initialize(port, null, ids[0])).status, 200);
      for (let i = 0; i < 2; i++) ids.push((await initialize(port, null)).session!);
      assertEquals((await initialize(port, null, ids[1])).status, 404);
      assertEquals((await initialize(port, null, ids[2])).status, 404);
      for (const id of [ids[0], ids[3], ids[4]]) {
        assertEquals((await initialize(port, null, id)).status, 200);
      }
    } finally {
      await serving.close();
    }
  },
});

Deno.test({
  name: "issue 19.6: out of file descriptors, the MCP HTTP server keeps serving",
  ignore: netAndRun,
  fn: async () => {
    await using box = await sandbox("local", { "a.txt": "a\n" });
    const { root } = box;
    const script = new URL("./_http_child.ts", import.meta.url).pathname;
    // Under 64 descriptors, with a connection cap above it: accept fails with EMFILE.
    const child = new Deno.Command("bash", {
      args: [
        "-c",
        `ulimit -n 64 && exec "${Deno.execPath()}" run --no-prompt -A "${script}" "${root}" 500`,
      ],
      cwd: PROJECT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let stderr = "";
    const errors = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (text) => void (stderr += text) }),
    );
    try {
      const first = await lines.read();
      const { port } = JSON.parse(first.value ?? "{}");
      assertNotEquals(port, undefined, stderr);
      const conns: Deno.Conn[] = [];
      for (let i = 0; i < 120; i++) {
        try {
          conns.push(...await halfOpen(port, 1));
        } catch {
          break; // the backlog is full: enough
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (const conn of conns) conn.close();
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (let i = 0; i < 2; i++) {
        const status = await initialize(port, "tok").then((r) => r.status, (e) => String(e));
        assertEquals(status, 200, stderr);
      }
      assert(/accept failed|Too many open files/i.test(stderr), `no EMFILE seen: ${stderr}`);
    } finally {
      try {
        child.kill();
      } catch {
        // it ended on its own: the assertions above say why
      }
      await child.status;
      await lines.cancel().catch(() => {});
      await errors.catch(() => {});
    }
  },
});
