/**
 * The gate in front of the MCP server's HTTP endpoint (C13.3): the listen address, DNS
 * rebinding protection (`Host` and `Origin` must name the bound host or loopback, and the
 * port listened on) and the bearer token. SDK-free.
 *
 * @module
 */

/** Where the HTTP server listens. */
export interface ListenAddress {
  /** Host name or IP address. */
  hostname: string;
  /** TCP port; 0 picks a free one. */
  port: number;
}

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1"];

/**
 * Parses `--http [host:]port` (`8080`, `127.0.0.1:8080`, `[::1]:8080`, `0.0.0.0:8080`); the
 * default host is 127.0.0.1.
 *
 * @param text The option's value.
 * @returns The address, or a problem to print.
 */
export function parseListen(text: string): ListenAddress | { problem: string } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:\s]+):)?(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) {
    return { problem: `--http ${JSON.stringify(text)}: expected [host:]port, e.g. 127.0.0.1:8080` };
  }
  const host = match[1] ?? "127.0.0.1";
  return { hostname: host.startsWith("[") ? host.slice(1, -1) : host, port };
}

/** Whether a host name or address is the loopback interface. */
export function isLoopback(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return LOOPBACK_NAMES.includes(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** Options of {@linkcode guardRequest}. */
export interface GuardOptions {
  /** The host names a request may name in `Host` and `Origin` besides loopback. */
  hostnames: readonly string[];
  /** The bearer token every request needs, or `null` for none (`--no-auth`). */
  token: string | null;
  /**
   * The port the server listens on: `Host` and `Origin` naming loopback or the bound host must
   * name this port too (a missing one is the scheme's default). An entry of `hostnames` with a
   * port (`example.com:443`) must match it; one without matches any port (a proxy in front).
   * Absent or 0: ports are not compared.
   */
  port?: number;
  /**
   * Take the host a request names from its URL rather than its `Host` header (behind a
   * framework whose in-process requests carry none, as the playground's Hono app).
   * @default {false}
   */
  urlHost?: boolean;
}

/** The check a request fails: its `Host`, its `Origin`, or its bearer token. */
export type GuardFailure = "host" | "origin" | "token";

/**
 * Which check of {@linkcode guardRequest} a request fails, for a server that words its own
 * refusals (the playground, C14.1): `Host` and `Origin` must name loopback or an allowed host
 * (and the port listened on), and the bearer token must match.
 *
 * @param request The request.
 * @param options Allowed host names, the port and the token.
 * @returns The failed check, or `null` when the request may pass.
 */
export function guardFailure(request: Request, options: GuardOptions): GuardFailure | null {
  const port = options.port ?? 0;
  const [bound, ...others] = options.hostnames;
  const allowed = (named: HostPort | null): boolean => {
    if (named === null) return false;
    const name = named.hostname.toLowerCase();
    const samePort = port === 0 || named.port === port;
    if (isLoopback(name) || name === bound?.toLowerCase()) return samePort;
    return others.some((entry) => {
      const given = hostnameOf(entry);
      if (given === null || given.hostname.toLowerCase() !== name) return false;
      return !/:\d+$/.test(entry) || given.port === named.port;
    });
  };
  const host = options.urlHost ? new URL(request.url).host : request.headers.get("host");
  if (host === null || !allowed(hostnameOf(host))) return "host";
  const origin = request.headers.get("origin");
  if (origin !== null && !allowed(originHostname(origin))) return "origin";
  if (options.token !== null) {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    if (given === undefined || !sameToken(given, options.token)) return "token";
  }
  return null;
}

/**
 * Checks one request: 403 when its `Host` or `Origin` names another host (DNS rebinding), 401
 * when the bearer token is missing or wrong; `null` when it may pass.
 *
 * @param request The request.
 * @param options Allowed host names and the token.
 * @returns The refusal to send, or `null`.
 */
export function guardRequest(request: Request, options: GuardOptions): Response | null {
  const failure = guardFailure(request, options);
  if (failure === "host") {
    const host = request.headers.get("host");
    return refusal(403, `forbidden: Host ${JSON.stringify(host ?? "")} is not this server`);
  }
  if (failure === "origin") {
    const origin = request.headers.get("origin");
    return refusal(403, `forbidden: Origin ${JSON.stringify(origin)} is not this server`);
  }
  if (failure === "token") {
    // OAuth discovery (RFC 9728) finds nothing here: 404, so a client stops looking for an
    // authorization server and shows the 401's hint instead of a registration error.
    if (new URL(request.url).pathname.startsWith("/.well-known/")) {
      return new Response("not found: this server takes a bearer token, not OAuth\n", {
        status: 404,
      });
    }
    const response = refusal(401, UNAUTHORIZED_MESSAGE);
    response.headers.set("www-authenticate", bearerChallenge(request.headers.has("authorization")));
    return response;
  }
  return null;
}

/**
 * The 401's message: what is wrong and how to pass the token, so a client that shows the body
 * tells its user the fix (issue 24).
 */
export const UNAUTHORIZED_MESSAGE =
  "unauthorized: missing or wrong bearer token; send the header " +
  '"Authorization: Bearer <token>" with the token in TOOLFS_MCP_TOKEN or the one the server ' +
  "printed to stderr at start (Claude Code: claude mcp add --transport http toolfs <url> " +
  '--header "Authorization: Bearer <token>")';

/**
 * The `WWW-Authenticate` challenge (RFC 6750 section 3): `Bearer realm="toolfs"`, with
 * `error="invalid_token"` and a description when a credential was sent and refused.
 */
function bearerChallenge(credentialSent: boolean): string {
  if (!credentialSent) return 'Bearer realm="toolfs"';
  return 'Bearer realm="toolfs", error="invalid_token", ' +
    'error_description="send Authorization: Bearer <token>, the token from TOOLFS_MCP_TOKEN ' +
    "or the server's stderr\"";
}

/** A fresh URL-safe token of 256 random bits. */
export function generateToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** A host name and port as a request names them. */
interface HostPort {
  hostname: string;
  /** The port given, else the scheme's default. */
  port: number;
}

/** The host name and port of a `Host` header value (`example.com:80`, `[::1]:8080`). */
function hostnameOf(host: string): HostPort | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:\[\]\s]+)(?::(\d{0,5}))?$/.exec(host.trim());
  if (!match) return null;
  const hostname = match[1].startsWith("[") ? match[1].slice(1, -1) : match[1];
  return { hostname, port: match[2] ? Number(match[2]) : 80 };
}

function originHostname(origin: string): HostPort | null {
  try {
    const url = new URL(origin);
    const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    if (!hostname) return null;
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    return { hostname, port };
  } catch {
    return null;
  }
}

/** Compares in time independent of where the strings differ. */
/**
 * Whether a raw request head (its header lines as text) carries `Authorization: Bearer <token>`
 * with this token, for `serveBounded`'s `mayWait`: a caller with the token may wait
 * for a long call's answer, one without it may not hold a connection. `false` when `token` is
 * `null` (no token is asked for).
 *
 * @param head The request head.
 * @param token The server's token, or `null`.
 * @returns Whether the head carries the token.
 */
export function headCarriesToken(head: string, token: string | null): boolean {
  if (token === null) return false;
  for (const line of head.split("\r\n")) {
    const given = /^authorization:\s*Bearer\s+(\S+)\s*$/i.exec(line)?.[1];
    if (given !== undefined) return sameToken(given, token);
  }
  return false;
}

function sameToken(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

function refusal(status: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }, {
    status,
  });
}
