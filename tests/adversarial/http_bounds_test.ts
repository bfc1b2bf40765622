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
import { serveBounded } from "../../src/http/bounded_serve.ts";
import { headCarriesToken } from "../../src/http/http_guard.ts";
import { PLAYGROUND_PERMISSIONS, startPlayground } from "../_playground_process.ts";
import { sandbox } from "../_sandbox.ts";
import { RAW_INITIALIZE } from "../_mcp_client.ts";
import { figure, slowCase } from "./_harness.ts";

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

/** An MCP `initialize` over fetch (a `ping` within `session`), unread. */
function postInitialize(
  port: number,
  token: string | null,
  session?: string,
  signal: AbortSignal = AbortSignal.timeout(10_000),
): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  if (token) headers.authorization = `Bearer ${token}`;
  if (session) headers["mcp-session-id"] = session;
  const body = session ? JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }) : RAW_INITIALIZE;
  return fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers,
    body,
    signal,
  });
}

/** An MCP `initialize` over fetch; its status and session id. */
async function initialize(port: number, token: string | null, session?: string) {
  const response = await postInitialize(port, token, session);
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
      // Past the cap, a connection waits for room (a slower one evicted, or dropped); every
      // half-open one is dropped once its head is overdue.
      const extra = await halfOpen(port, 5);
      const dropped = await Promise.all([...held, ...extra].map((c) => closedWithin(c, 10_000)));
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

/** The request each slow client sends, a byte at a time: 18 bytes. */
const TRICKLED = new TextEncoder().encode("GET / HTTP/1.1\r\n\r\n");

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * `n` slow clients: each sends {@linkcode TRICKLED} one byte every 100–500 ms, reads the answer
 * and starts over on a new connection, and reconnects whenever the server closes it.
 */
function trickle(port: number, n: number) {
  let stopped = false;
  const counts = { completed: 0, closed: 0 };
  const open = new Set<Deno.Conn>();
  const client = async () => {
    while (!stopped) {
      let conn: Deno.Conn;
      try {
        conn = await Deno.connect({ hostname: "127.0.0.1", port });
      } catch {
        await pause(100);
        continue;
      }
      open.add(conn);
      try {
        for (const byte of TRICKLED) {
          await pause(100 + Math.random() * 400);
          if (stopped) return;
          await conn.write(Uint8Array.of(byte));
        }
        const answer = new Uint8Array(64);
        const read = await conn.read(answer);
        const text = new TextDecoder().decode(answer.subarray(0, read ?? 0));
        if (text.startsWith("HTTP/1.1 ")) counts.completed++;
        else counts.closed++;
      } catch {
        counts.closed++; // closed by the server (evicted)
      } finally {
        open.delete(conn);
        conn.close();
      }
    }
  };
  const clients = Array.from({ length: n }, client);
  return {
    counts,
    /** Stops every client; resolves once they have ended. */
    async stop(): Promise<void> {
      stopped = true;
      for (const conn of open) conn.close();
      await Promise.allSettled(clients);
    },
  };
}

/** Asserts `request` answers 200 within 5 s; how long it took, in ms. */
async function answersPromptly(request: (signal: AbortSignal) => Promise<Response>) {
  const started = performance.now();
  const response = await request(AbortSignal.timeout(5_000));
  await response.body?.cancel();
  assertEquals(response.status, 200);
  return Math.round(performance.now() - started);
}

/**
 * Fills a server (cap 256) with 256 slow clients for `ms`, then asks `legit` three times, a
 * second apart; the slow clients go on throughout. The times `legit` took, and the counts.
 */
async function underSlowClients(
  port: number,
  legit: (signal: AbortSignal) => Promise<Response>,
) {
  const slow = trickle(port, 256);
  try {
    await pause(1_500); // every slot taken, each for over a second
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      times.push(await answersPromptly(legit));
      await pause(1_000);
    }
    await pause(4_000); // time for slow requests to complete
    return { times, counts: { ...slow.counts } };
  } finally {
    await slow.stop();
  }
}

Deno.test({
  name: "issue 19.6: 256 slow clients completing requests do not keep a new MCP client out",
  ignore: netAndRun || slowCase().ignore,
  async fn() {
    await using box = await sandbox("local", { "a.txt": "a\n" });
    const serving = await serveHttp([box.root], { token: "tok", log: () => {} });
    const port = Number(new URL(serving.url).port);
    let stopped = false;
    serving.finished.then(() => stopped = true);
    try {
      const { times, counts } = await underSlowClients(
        port,
        (signal) => postInitialize(port, "tok", undefined, signal),
      );
      figure(
        "http-bounds",
        `MCP: answered in ${
          times.join(", ")
        } ms beside 256 slow clients (${counts.completed} slow requests completed, ${counts.closed} connections closed)`,
      );
      assert(counts.completed > 0, "no slow request completed");
      assertEquals(stopped, false);
      assertEquals((await initialize(port, "tok")).status, 200);
    } finally {
      await serving.close();
    }
  },
});

Deno.test({
  name: "issue 19.6: 256 slow clients completing requests do not keep a new playground client out",
  ignore: netAndRun || slowCase().ignore,
  async fn() {
    const playground = await startPlayground([
      "run",
      "--no-prompt",
      ...PLAYGROUND_PERMISSIONS,
      new URL("../../playground/server/main.ts", import.meta.url).pathname,
      "--port",
      "0",
      "--no-build",
    ]);
    try {
      assert(playground.url, playground.output);
      const url = new URL(playground.url);
      const token = url.searchParams.get("token")!;
      const definitions = (signal: AbortSignal) =>
        fetch(`${url.origin}/api/definitions`, {
          headers: { authorization: `Bearer ${token}` },
          signal,
        });
      // Started: it loads its tokenizers once listening, which keeps it busy for a moment.
      await definitions(AbortSignal.timeout(30_000)).then((r) => r.body?.cancel());
      const { times, counts } = await underSlowClients(Number(url.port), definitions);
      figure(
        "http-bounds",
        `playground: answered in ${
          times.join(", ")
        } ms beside 256 slow clients (${counts.completed} slow requests completed, ${counts.closed} connections closed)`,
      );
      assert(counts.completed > 0, "no slow request completed");
      await answersPromptly(definitions); // still up
      assertEquals(playground.code, undefined, playground.output);
    } finally {
      await playground.stop();
    }
  },
});

Deno.test({
  name: "issue 19.6: a body has a deadline too; chunked and sized bodies pass whole",
  ignore: netAndRun,
  async fn() {
    const server = await serveBounded(
      // onError: the handler of the request cut off throws (its body is gone).
      { hostname: "127.0.0.1", port: 0, requestTimeoutMs: 1_500, onError: () => new Response() },
      async (request) => new Response(String((await request.arrayBuffer()).byteLength)),
    );
    const url = `http://127.0.0.1:${server.addr.port}/`;
    try {
      const sized = await fetch(url, { method: "POST", body: "x".repeat(100_000) });
      assertEquals(await sized.text(), "100000");
      const stream = ReadableStream.from([new Uint8Array(70_000), new Uint8Array(30_000)]);
      const chunked = await fetch(url, { method: "POST", body: stream });
      assertEquals(await chunked.text(), "100000");
      // A complete head, then a body a byte at a time: closed once head and body are overdue.
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
      await conn.write(new TextEncoder().encode("POST / HTTP/1.1\r\nContent-Length: 50\r\n\r\n"));
      const started = Date.now();
      let closed = false;
      for (let i = 0; i < 50 && !closed; i++) {
        await pause(200);
        closed = await conn.write(Uint8Array.of(120)).then(() => false, () => true);
      }
      conn.close();
      assert(closed, "a body trickled for 10 s was never cut off");
      assert(Date.now() - started < 5_000, `cut off after ${Date.now() - started} ms`);
      assertEquals(await (await fetch(url, { method: "POST", body: "ok" })).text(), "2");
    } finally {
      await server.shutdown();
    }
  },
});

/** Sends `bytes` on a fresh connection; what comes back until the server closes (10 s at most). */
async function exchange(port: number, bytes: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const timer = setTimeout(() => conn.close(), 10_000);
  try {
    await conn.write(new TextEncoder().encode(bytes)).catch(() => {});
    const chunks: Uint8Array[] = [];
    const buffer = new Uint8Array(16 * 1024);
    for (;;) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) break;
      chunks.push(buffer.slice(0, n));
    }
    return new TextDecoder().decode(
      chunks.reduce((a, b) => new Uint8Array([...a, ...b]), new Uint8Array()),
    );
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // closed by the timer
    }
  }
}

Deno.test({
  name: "issue 30.6: a head with bare \\n line endings gets 400 and never reaches the handler",
  ignore: netAndRun,
  async fn() {
    let calls = 0;
    const server = await serveBounded({ hostname: "127.0.0.1", port: 0 }, () => {
      calls++;
      return new Response("ok");
    });
    try {
      const pipelined = "GET /a HTTP/1.1\nHost: 127.0.0.1\n\n".repeat(20) +
        "GET /b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
      const answer = await exchange(server.addr.port, pipelined);
      assert(answer.startsWith("HTTP/1.1 400"), `answered ${JSON.stringify(answer.slice(0, 40))}`);
      assertEquals(calls, 0);
      const mixed = await exchange(server.addr.port, "GET / HTTP/1.1\r\nHost: x\n\r\n");
      assert(mixed.startsWith("HTTP/1.1 400"), `answered ${JSON.stringify(mixed.slice(0, 40))}`);
      assertEquals(calls, 0);
      // A CRLF request still passes, one a connection.
      const fine = await exchange(server.addr.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
      assert(fine.startsWith("HTTP/1.1 200"), `answered ${JSON.stringify(fine.slice(0, 40))}`);
      assertEquals(calls, 1);
    } finally {
      await server.shutdown();
    }
  },
});

Deno.test({
  name: "issue 30.6: a connection with no response byte is closed at the request deadline",
  ignore: netAndRun,
  async fn() {
    const never = Promise.withResolvers<Response>();
    const server = await serveBounded(
      { hostname: "127.0.0.1", port: 0, requestTimeoutMs: 1_000 },
      () => never.promise,
    );
    try {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
      await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
      const closed = await closedWithin(conn, 8_000);
      conn.close();
      assert(closed, "a connection whose response never began held its slot for 8 s");
      assertEquals(server.connections, 0);
    } finally {
      never.resolve(new Response("late"));
      await server.shutdown();
    }
  },
});

Deno.test({
  name:
    "issue 30.6: a call with the token may take longer than the deadline; one without it may not",
  ignore: netAndRun,
  async fn() {
    const token = "t0ken";
    // A handler that answers after 2.5 s, past the 1 s deadline (a long grep in the playground).
    const server = await serveBounded(
      {
        hostname: "127.0.0.1",
        port: 0,
        requestTimeoutMs: 1_000,
        mayWait: (head) => headCarriesToken(head, token),
      },
      async () => {
        await pause(2_500);
        return new Response("done");
      },
    );
    try {
      const url = `http://127.0.0.1:${server.addr.port}/`;
      const slow = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      assertEquals(await slow.text(), "done");
      for (const authorization of [undefined, "Bearer wrong", `Basic ${token}`]) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
        const header = authorization ? `Authorization: ${authorization}\r\n` : "";
        await conn.write(new TextEncoder().encode(`GET / HTTP/1.1\r\nHost: x\r\n${header}\r\n`));
        const answer = await exchangeOn(conn);
        assertEquals(answer, "", `${authorization ?? "no token"}: answered ${answer.slice(0, 40)}`);
      }
    } finally {
      await server.shutdown();
    }
  },
});

/** What comes back on `conn` until the server closes it (10 s at most). */
async function exchangeOn(conn: Deno.Conn): Promise<string> {
  const timer = setTimeout(() => conn.close(), 10_000);
  const chunks: string[] = [];
  const buffer = new Uint8Array(16 * 1024);
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) break;
      chunks.push(decoder.decode(buffer.subarray(0, n)));
    }
    return chunks.join("");
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // closed by the timer
    }
  }
}

Deno.test({
  name: "issue 30.13: no toolfs-http-* directory is left behind, with or without a Unix socket",
  ignore: netAndRun,
  async fn() {
    const tmp = await Deno.makeTempDir({ prefix: "toolfs-tmpdir-" });
    const scripts = await Deno.makeTempDir({ prefix: "toolfs-script-" });
    const script = `${scripts}/serve.ts`;
    await Deno.writeTextFile(
      script,
      `import { serveBounded } from ${
        JSON.stringify(new URL("../../src/http/bounded_serve.ts", import.meta.url).href)
      };
const server = await serveBounded({ hostname: "127.0.0.1", port: 0 }, () => new Response("ok"));
const answer = await (await fetch("http://127.0.0.1:" + server.addr.port + "/")).text();
const during = [...Deno.readDirSync(Deno.env.get("TMPDIR")!)].map((e) => e.name);
await server.shutdown();
const after = [...Deno.readDirSync(Deno.env.get("TMPDIR")!)].map((e) => e.name);
console.log(JSON.stringify({ answer, during, after }));`,
    );
    try {
      // --allow-net=127.0.0.1: a loopback inner port, so no socket directory may stay;
      // --allow-net: a Unix socket, its directory gone once the server stops.
      for (const [net, during] of [["--allow-net=127.0.0.1", 0], ["--allow-net", 1]] as const) {
        const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--no-prompt",
            `--allow-read=${PROJECT},${tmp},${scripts}`,
            `--allow-write=${tmp}`,
            "--allow-env=TMPDIR",
            net,
            script,
          ],
          env: { TMPDIR: tmp },
        }).output();
        const line = new TextDecoder().decode(stdout).trim();
        assert(line, new TextDecoder().decode(stderr));
        const seen = JSON.parse(line);
        assertEquals(seen.answer, "ok");
        assertEquals(seen.during.length, during, `${net}: ${seen.during}`);
        assertEquals(seen.after, [], `${net}: left behind`);
      }
    } finally {
      await Deno.remove(tmp, { recursive: true });
      await Deno.remove(scripts, { recursive: true });
    }
  },
});
