/**
 * An HTTP server that stays up when file descriptors run out and that neither a half-open nor a
 * slow client can fill (MCP over HTTP and the playground). `Deno.serve` stops for good when
 * `accept` fails with EMFILE and has neither a connection cap nor a deadline for a request, so a
 * peer sending a byte now and then holds its connection as long as it likes. Here the public
 * socket is accepted by a loop of our own, which:
 *
 * - keeps at most `maxConnections` connections open;
 * - closes a connection whose request head has not fully arrived within `headerTimeoutMs` (or is
 *   larger than 64 KiB), whose head and body together have not within `requestTimeoutMs`, or
 *   whose client has not taken a byte of the response for `requestTimeoutMs`, or that has had
 *   no response byte from the handler within `requestTimeoutMs` of opening (unless its request
 *   head passed `mayWait`: a caller with the server's token may wait for a long call);
 * - answers a request head with a bare `\n` line ending with 400 and closes it (the relay
 *   frames by CRLF; the inner server must never see a different head end);
 * - when full, makes room for a new connection by closing the one that is slowest: among those
 *   open for a second or more that are still sending their request, the fewest bytes a second
 *   since they opened (the oldest on a tie), or else one whose client has not taken the response
 *   for a second; with neither, the new connection waits for room (2 s at most, 64 such at
 *   most; then it is closed). A connection that sends its request in its first second (any
 *   ordinary client) is never closed this way, and once its request is in, only the deadlines
 *   above apply;
 * - rewrites the head to `Connection: close`, so every request on the wire gets those deadlines
 *   (one request a connection: a kept-alive idle connection cannot wait for free);
 * - waits and retries when `accept` fails (EMFILE, ENFILE), closing the slowest connection as
 *   above to free a descriptor, and closes a connection it cannot carry on instead of failing.
 *
 * A request whose head arrived is handed, bytes untouched but that header, to `Deno.serve` on a
 * Unix socket in a private temporary directory (0700), restarted if it ever stops; without
 * permission for that directory, on a loopback port instead; without permission for that either
 * (`--allow-net=127.0.0.1:8080` only), `Deno.serve` serves the address itself, unbounded, and
 * `log` says so.
 *
 * @module
 */

import { bodyEnd, closeConnection } from "./_http_framing.ts";
import { pumpDown, pumpUp, readHead, type Slot, writeAll } from "./_http_relay.ts";

/** Options of {@linkcode serveBounded}. */
export interface BoundedServeOptions {
  /** The interface to listen on. */
  hostname: string;
  /** The port; 0 picks a free one. */
  port: number;
  /**
   * Open connections at most; one more closes the slowest (see the module) or is closed.
   * @default {256}
   */
  maxConnections?: number;
  /**
   * How long a connection may take to send a request's head, in ms.
   * @default {10000}
   */
  headerTimeoutMs?: number;
  /**
   * How long a connection may take to send a whole request (head and body), and how long a
   * client may leave the response untaken, in ms.
   * @default {30000}
   */
  requestTimeoutMs?: number;
  /**
   * Whether a request, by its head (the header lines as Latin-1 text), may wait past
   * `requestTimeoutMs` for its first response byte: one that carries the server's token may (a
   * long tool call); without it, a connection with no response byte by then is closed, so
   * connections without the token never hold slots.
   * @default {() => false}
   */
  mayWait?: (head: string) => boolean;
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

const LATIN1 = new TextDecoder("latin1");
/** A connection younger than this, or a response untaken for less, is never evicted. */
const EVICT_AFTER_MS = 1000;
/** How often the deadlines are checked. */
const SWEEP_MS = 250;
/** Connections accepted while full that wait for room, at most, and for how long. */
const MAX_WAITING = 64;
const WAIT_MS = 2 * EVICT_AFTER_MS;

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
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const log = options.log ?? (() => {});
  preloadSignals();
  const inner = new InnerServer(handler, options.onError, log);
  try {
    await inner.start();
  } catch (error) {
    if (!isPermission(error)) throw error;
    log(
      "serving without connection bounds: grant --allow-net=127.0.0.1 (any port), or write " +
        "access to the temporary directory and --allow-net (a Unix socket), for them",
    );
    return serveDirect(options, handler);
  }
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const open = new Map<Deno.Conn, Slot>();
  /** Accepted while full with nothing to evict yet: connections and when they came. */
  const waiting = new Map<Deno.Conn, number>();
  let stopped = false;

  const drop = (slot: Slot): void => {
    open.delete(slot.conn);
    closeQuietly(slot.conn);
  };

  // The deadlines: a head, a whole request, a response the client does not take.
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const slot of open.values()) {
      const age = now - slot.since;
      if (
        (slot.phase === "head" && age > headerTimeoutMs) ||
        (slot.phase !== "response" && age > requestTimeoutMs) ||
        (slot.writing !== null && now - slot.writing > requestTimeoutMs) ||
        (!slot.answered && !slot.mayWait && age > requestTimeoutMs)
      ) drop(slot);
    }
    for (const [conn, since] of waiting) {
      if (now - since > WAIT_MS) {
        waiting.delete(conn);
        closeQuietly(conn);
      }
    }
    admitWaiting();
  }, SWEEP_MS);

  /** Closes the slowest connection that may be closed for another; whether there was one. */
  const evict = (): boolean => {
    const now = Date.now();
    let victim: Slot | undefined;
    let lowest = Infinity;
    for (const slot of open.values()) {
      let rate: number;
      if (slot.phase !== "response") {
        const age = now - slot.since;
        if (age < EVICT_AFTER_MS) continue;
        rate = slot.bytes / (age / 1000);
      } else if (slot.writing !== null && now - slot.writing >= EVICT_AFTER_MS) {
        rate = 0; // its client takes nothing
      } else continue;
      if (rate < lowest || (rate === lowest && slot.since < victim!.since)) {
        victim = slot;
        lowest = rate;
      }
    }
    if (!victim) return false;
    drop(victim);
    return true;
  };

  const admit = (conn: Deno.Conn): void => {
    const slot: Slot = { conn, since: Date.now(), bytes: 0, phase: "head", writing: null };
    open.set(conn, slot);
    carry(slot);
  };

  /** Gives waiting connections, oldest first, the room there is or can be made. */
  const admitWaiting = (): void => {
    for (const conn of waiting.keys()) {
      if (stopped || (open.size >= maxConnections && !evict())) return;
      waiting.delete(conn);
      admit(conn);
    }
  };

  const carry = async (slot: Slot): Promise<void> => {
    const { conn } = slot;
    let upstream: Deno.Conn | undefined;
    try {
      const head = await readHead(slot);
      if (head === null || stopped) return;
      slot.mayWait = options.mayWait?.(LATIN1.decode(head.head)) ?? false;
      upstream = await inner.connect();
      const end = bodyEnd(head.head);
      slot.phase = end ? "body" : "response";
      await writeAll(upstream, closeConnection(head.head));
      const up = upstream;
      // Response down (from the start: a 100 Continue, an early refusal); its end ends the
      // connection. Request body up, until it is complete; the client gone ends the call (the
      // inner server sees its connection close).
      const down = pumpDown(up, slot);
      pumpUp(slot, up, end, head.rest).catch(() => {}).finally(() => closeQuietly(up));
      await down;
    } catch {
      // a peer gone, a descriptor refused: this connection ends, the server goes on
    } finally {
      if (open.get(conn) === slot) open.delete(conn);
      closeQuietly(conn);
      if (upstream) closeQuietly(upstream);
      admitWaiting();
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
        evict(); // a descriptor for the next one, if a slow connection holds one
        await delay(50);
        continue;
      }
      warned = false;
      if (open.size < maxConnections || evict()) admit(conn);
      else if (waiting.size < MAX_WAITING) waiting.set(conn, Date.now());
      else closeQuietly(conn);
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
      clearInterval(sweeper);
      closeQuietly(listener);
      for (const conn of [...open.keys(), ...waiting.keys()]) closeQuietly(conn);
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
      // No Unix socket (Deno asks --allow-net for one too): its directory goes at once.
      if (this.#dir) await Deno.remove(this.#dir, { recursive: true }).catch(() => {});
      this.#dir = undefined;
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
