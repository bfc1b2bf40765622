/**
 * An HTTP server that stays up when file descriptors run out and holds no connection forever
 * (MCP over HTTP and the playground). `Deno.serve` stops for good when `accept` fails with
 * EMFILE and has neither a connection cap nor a deadline for a request's head, so a half-open
 * connection (slowloris) is held as long as the peer likes. Here the public socket is accepted
 * by a loop of our own, which:
 *
 * - keeps at most `maxConnections` connections open (one more is closed at once);
 * - closes a connection whose request head has not fully arrived within `headerTimeoutMs`, or
 *   is larger than 64 KiB;
 * - rewrites the head to `Connection: close`, so every request on the wire gets that deadline
 *   (one request a connection: a kept-alive idle connection cannot wait for free);
 * - waits and retries when `accept` fails (EMFILE, ENFILE), and closes a connection it cannot
 *   carry on instead of failing.
 *
 * A request whose head arrived is handed, bytes untouched but that header, to `Deno.serve` on a
 * Unix socket in a private temporary directory (0700), restarted if it ever stops; without
 * permission for that directory, on a loopback port instead; without permission for that either
 * (`--allow-net=127.0.0.1:8080` only), `Deno.serve` serves the address itself, unbounded, and
 * `log` says so.
 *
 * @module
 */

/** Options of {@linkcode serveBounded}. */
export interface BoundedServeOptions {
  /** The interface to listen on. */
  hostname: string;
  /** The port; 0 picks a free one. */
  port: number;
  /**
   * Open connections at most; one more is closed at once.
   * @default {256}
   */
  maxConnections?: number;
  /**
   * How long a connection may take to send a request's head, in ms.
   * @default {10000}
   */
  headerTimeoutMs?: number;
  /** Answers a request the handler threw on. */
  onError?: (error: unknown) => Response | Promise<Response>;
  /** Where events worth a line go (accept failures, a restarted inner server). */
  log?: (line: string) => void;
}

/** A running bounded server. */
export interface BoundedServer {
  /** The address listened on. */
  addr: Deno.NetAddr;
  /** Connections open now. */
  readonly connections: number;
  /** Resolves once the server has stopped. */
  finished: Promise<void>;
  /** Stops accepting, closes every connection and the inner server. */
  shutdown(): Promise<void>;
}

const MAX_HEAD_BYTES = 64 * 1024;
const HEAD_END = [13, 10, 13, 10];

/**
 * Serves `handler` on `hostname:port` with the bounds above.
 *
 * @param options Address and bounds.
 * @param handler The request handler.
 * @returns The running server.
 *
 * @example Serve with at most 64 connections
 * ```ts ignore
 * import { serveBounded } from "./bounded_serve.ts";
 *
 * const server = await serveBounded(
 *   { hostname: "127.0.0.1", port: 0, maxConnections: 64 },
 *   () => new Response("ok"),
 * );
 * await server.shutdown();
 * ```
 */
export async function serveBounded(
  options: BoundedServeOptions,
  handler: (request: Request) => Response | Promise<Response>,
): Promise<BoundedServer> {
  const maxConnections = options.maxConnections ?? 256;
  const headerTimeoutMs = options.headerTimeoutMs ?? 10_000;
  const log = options.log ?? (() => {});
  preloadSignals();
  const inner = new InnerServer(handler, options.onError, log);
  try {
    await inner.start();
  } catch (error) {
    if (!isPermission(error)) throw error;
    log(
      "serving without connection bounds: grant write access to the temporary directory or " +
        "--allow-net=127.0.0.1 (any port) for them",
    );
    return serveDirect(options, handler);
  }
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const open = new Set<Deno.Conn>();
  let stopped = false;

  const carry = async (conn: Deno.Conn): Promise<void> => {
    let upstream: Deno.Conn | undefined;
    try {
      const head = await readHead(conn, headerTimeoutMs);
      if (head === null || stopped) return;
      upstream = await inner.connect();
      await writeAll(upstream, closeConnection(head.head));
      if (head.rest.length) await writeAll(upstream, head.rest);
      const up = upstream;
      // Request body up, response down; the response's end ends the connection.
      conn.readable.pipeTo(up.writable).catch(() => {});
      await up.readable.pipeTo(conn.writable).catch(() => {});
    } catch {
      // a peer gone, a descriptor refused: this connection ends, the server goes on
    } finally {
      open.delete(conn);
      closeQuietly(conn);
      if (upstream) closeQuietly(upstream);
    }
  };

  const acceptLoop = async (): Promise<void> => {
    let warned = false;
    while (!stopped) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (stopped || error instanceof Deno.errors.BadResource) break;
        if (!warned) log(`accept failed, retrying: ${(error as Error).message}`);
        warned = true;
        await delay(50);
        continue;
      }
      warned = false;
      if (open.size >= maxConnections) {
        closeQuietly(conn);
        continue;
      }
      open.add(conn);
      carry(conn);
    }
  };
  const finished = acceptLoop();

  return {
    addr: listener.addr as Deno.NetAddr,
    get connections() {
      return open.size;
    },
    finished,
    async shutdown() {
      if (stopped) return finished;
      stopped = true;
      closeQuietly(listener);
      for (const conn of open) closeQuietly(conn);
      await finished;
      await inner.stop();
    },
  };
}

/** `Deno.serve` on a private Unix socket (or a loopback port), restarted when it stops. */
class InnerServer {
  #handler: (request: Request) => Response | Promise<Response>;
  #onError?: (error: unknown) => Response | Promise<Response>;
  #log: (line: string) => void;
  #server?: Deno.HttpServer;
  #dir?: string;
  #addr?: { path: string } | { hostname: string; port: number };
  #generation = 0;
  #stopping = false;

  constructor(
    handler: (request: Request) => Response | Promise<Response>,
    onError: ((error: unknown) => Response | Promise<Response>) | undefined,
    log: (line: string) => void,
  ) {
    this.#handler = handler;
    this.#onError = onError;
    this.#log = log;
  }

  async start(): Promise<void> {
    const generation = ++this.#generation;
    let server: Deno.HttpServer;
    try {
      this.#dir ??= await Deno.makeTempDir({ prefix: "toolfs-http-" });
      const path = `${this.#dir}/${generation}.sock`;
      await Deno.remove(path).catch(() => {});
      server = Deno.serve({
        path,
        onListen: () => {},
        onError: this.#onError,
      }, this.#handler);
      this.#addr = { path };
    } catch (error) {
      if (isPermission(error)) {
        const { promise, resolve } = Promise.withResolvers<number>();
        server = Deno.serve({
          hostname: "127.0.0.1",
          port: 0,
          onListen: ({ port }) => resolve(port),
          onError: this.#onError,
        }, this.#handler);
        this.#addr = { hostname: "127.0.0.1", port: await promise };
      } else throw error;
    }
    this.#server = server;
    server.finished.then(
      () => this.#restart(generation, "stopped"),
      (error) => this.#restart(generation, (error as Error).message),
    );
  }

  #restart(generation: number, why: string): void {
    if (this.#stopping || generation !== this.#generation) return;
    this.#log(`inner HTTP server ${why}: restarting it`);
    const retry = (): void => {
      if (this.#stopping) return;
      this.start().catch(() => setTimeout(retry, 100));
    };
    setTimeout(retry, 10);
  }

  async connect(): Promise<Deno.Conn> {
    const addr = this.#addr!;
    if ("path" in addr) return await Deno.connect({ transport: "unix", path: addr.path });
    return await Deno.connect(addr);
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#server?.shutdown().catch(() => {});
    if (this.#dir) await Deno.remove(this.#dir, { recursive: true }).catch(() => {});
  }
}

/** `Deno.serve` on the public address itself: the fallback without any inner server. */
async function serveDirect(
  options: BoundedServeOptions,
  handler: (request: Request) => Response | Promise<Response>,
): Promise<BoundedServer> {
  const { promise, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    hostname: options.hostname,
    port: options.port,
    onListen: (addr) => resolve(addr as Deno.NetAddr),
    onError: options.onError,
  }, handler);
  return {
    addr: await promise,
    connections: 0,
    finished: server.finished,
    shutdown: () => server.shutdown(),
  };
}

/**
 * Deno sets up its signal handling on first use and panics when that finds no free descriptor,
 * so it is set up now, while descriptors are free (a listener for SIGWINCH, which is ignored by
 * default, kept for the life of the process).
 */
function preloadSignals(): void {
  if (Deno.build.os === "windows" || signalsLoaded) return;
  signalsLoaded = true;
  try {
    Deno.addSignalListener("SIGWINCH", () => {});
  } catch {
    // no signals here: nothing to preload
  }
}
let signalsLoaded = false;

function isPermission(error: unknown): boolean {
  return error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied;
}

/**
 * The request head (through the blank line) and the bytes read past it, or `null` when the
 * peer closed, was too slow or sent a head over 64 KiB.
 */
async function readHead(
  conn: Deno.Conn,
  timeoutMs: number,
): Promise<{ head: Uint8Array; rest: Uint8Array } | null> {
  const timer = setTimeout(() => closeQuietly(conn), timeoutMs);
  try {
    let buffer = new Uint8Array(0);
    const chunk = new Uint8Array(16 * 1024);
    for (;;) {
      const n = await conn.read(chunk);
      if (n === null) return null;
      const joined = new Uint8Array(buffer.length + n);
      joined.set(buffer);
      joined.set(chunk.subarray(0, n), buffer.length);
      const from = Math.max(0, buffer.length - 3);
      buffer = joined;
      const end = indexOfHeadEnd(buffer, from);
      if (end >= 0) return { head: buffer.subarray(0, end), rest: buffer.subarray(end) };
      if (buffer.length > MAX_HEAD_BYTES) return null;
    }
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

function indexOfHeadEnd(bytes: Uint8Array, from: number): number {
  outer: for (let i = from; i + 4 <= bytes.length; i++) {
    for (let k = 0; k < 4; k++) if (bytes[i + k] !== HEAD_END[k]) continue outer;
    return i + 4;
  }
  return -1;
}

/** The head with its `Connection` and `Keep-Alive` headers replaced by `Connection: close`. */
function closeConnection(head: Uint8Array): Uint8Array {
  let text = "";
  for (const byte of head) text += String.fromCharCode(byte);
  const lines = text.slice(0, -4).split("\r\n");
  const kept = lines.filter((line, i) => i === 0 || !/^(connection|keep-alive)\s*:/i.test(line));
  kept.push("Connection: close");
  const out = kept.join("\r\n") + "\r\n\r\n";
  const bytes = new Uint8Array(out.length);
  for (let i = 0; i < out.length; i++) bytes[i] = out.charCodeAt(i);
  return bytes;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.length) at += await conn.write(bytes.subarray(at));
}

function closeQuietly(resource: { close(): void }): void {
  try {
    resource.close();
  } catch {
    // already closed
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
