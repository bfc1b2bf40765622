/**
 * Newline-delimited JSON-RPC over a byte stream (the MCP stdio binding), with a size limit
 * that answers instead of dying: a message over the limit, a line that is not JSON, or JSON
 * that is not a JSON-RPC message gets a JSON-RPC error response and the transport keeps reading
 * (C13.4). Structurally an MCP SDK `Transport`; it imports nothing from the SDK.
 *
 * @module
 */

import {
  INVALID_MESSAGE_MESSAGE,
  MCP_MAX_MESSAGE_BYTES,
  messageTooLargeMessage,
  parseErrorMessage,
} from "../render/mcp_render.ts";
import { concatBytes } from "../text/bytes.ts";

/** A JSON-RPC message as it travels: an object with `jsonrpc: "2.0"`. */
export type JsonRpcMessage = { jsonrpc: "2.0" } & Record<string, unknown>;

/** Options of {@linkcode LineTransport}. */
export interface LineTransportOptions {
  /** Where messages come from, one per line. */
  input: ReadableStream<Uint8Array>;
  /** Where messages go, one per line. */
  output: WritableStream<Uint8Array>;
  /**
   * The largest message in bytes, newline excluded.
   * @default {10485760}
   */
  maxMessageBytes?: number;
}

/** Bytes of a too-large line kept at each end to find its `id`. */
const KEEP = 512;

/** JSON-RPC error codes. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** Newline-delimited JSON-RPC over streams; see the module documentation. */
export class LineTransport {
  /** Called with each well-formed message. */
  onmessage?: (message: JsonRpcMessage) => void;
  /** Called once when the input ends or {@linkcode close} is called. */
  onclose?: () => void;
  /** Called with a failure to read or write. */
  onerror?: (error: Error) => void;

  #input: ReadableStream<Uint8Array>;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #max: number;
  #reader?: ReadableStreamDefaultReader<Uint8Array>;
  #closed = false;
  #encoder = new TextEncoder();

  /** @param options The streams and the size limit. */
  constructor(options: LineTransportOptions) {
    this.#input = options.input;
    this.#writer = options.output.getWriter();
    this.#max = options.maxMessageBytes ?? MCP_MAX_MESSAGE_BYTES;
  }

  /** Starts reading; resolves at once. */
  start(): Promise<void> {
    this.#reader = this.#input.getReader();
    this.#read().catch((error) => this.onerror?.(asError(error))).finally(() => this.close());
    return Promise.resolve();
  }

  /** Writes one message as one line. */
  async send(message: unknown): Promise<void> {
    if (this.#closed) return;
    await this.#writer.write(this.#encoder.encode(JSON.stringify(message) + "\n"));
  }

  /** Stops reading and calls `onclose` once. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#reader?.cancel();
    } catch {
      // Already released or errored: nothing left to stop.
    }
    this.onclose?.();
  }

  async #read(): Promise<void> {
    const reader = this.#reader!;
    let parts: Uint8Array[] = [];
    let size = 0;
    // Over the limit: the first KEEP bytes, the last KEEP bytes, and the true size.
    let head: Uint8Array | null = null;
    let tail: Uint8Array = new Uint8Array(0);
    const append = (bytes: Uint8Array) => {
      if (bytes.length === 0) return;
      size += bytes.length;
      if (head) {
        tail = lastBytes(tail, bytes);
        return;
      }
      parts.push(bytes);
      if (size > this.#max) {
        const all = concat(parts);
        head = all.subarray(0, KEEP).slice();
        tail = all.subarray(Math.max(0, all.length - KEEP)).slice();
        parts = [];
      }
    };
    while (!this.#closed) {
      const { value, done } = await reader.read();
      if (done) break;
      let from = 0;
      for (let nl = value.indexOf(10); nl !== -1; nl = value.indexOf(10, from)) {
        append(value.subarray(from, nl));
        from = nl + 1;
        if (head) await this.#tooLarge(size, head, tail);
        else await this.#line(concat(parts));
        parts = [];
        size = 0;
        head = null;
        tail = new Uint8Array(0);
      }
      append(value.subarray(from).slice());
    }
  }

  async #line(bytes: Uint8Array): Promise<void> {
    const text = new TextDecoder().decode(bytes).trim();
    if (text === "") return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      await this.#error(null, PARSE_ERROR, parseErrorMessage(asError(error).message));
      return;
    }
    if (!isMessage(message)) {
      const id = message !== null && typeof message === "object" && "id" in message
        ? validId((message as { id: unknown }).id)
        : null;
      await this.#error(id, INVALID_REQUEST, INVALID_MESSAGE_MESSAGE);
      return;
    }
    this.onmessage?.(message);
  }

  async #tooLarge(size: number, head: Uint8Array, tail: Uint8Array): Promise<void> {
    const id = idOf(new TextDecoder().decode(head), new TextDecoder().decode(tail));
    await this.#error(id, INVALID_REQUEST, messageTooLargeMessage(size, this.#max));
  }

  async #error(id: string | number | null, code: number, message: string): Promise<void> {
    try {
      await this.send({ jsonrpc: "2.0", id, error: { code, message } });
    } catch (error) {
      this.onerror?.(asError(error));
    }
  }
}

/**
 * The `id` of a JSON-RPC message known only by its two ends: SDKs write it first
 * (`{"jsonrpc":"2.0","id":7,…`) or last (`…,"jsonrpc":"2.0","id":7}`). `null` when neither end
 * shows it, which JSON-RPC allows for an error about a request whose id cannot be read.
 */
export function idOf(head: string, tail: string): string | number | null {
  const value = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
  const first = new RegExp(
    String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + value,
  ).exec(head);
  const last = new RegExp(String.raw`[{,]\s*"id"\s*:\s*` + value + String.raw`\s*\}\s*$`)
    .exec(tail);
  const found = first?.[1] ?? last?.[1];
  if (found === undefined) return null;
  try {
    return validId(JSON.parse(found));
  } catch {
    return null;
  }
}

function validId(id: unknown): string | number | null {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

function isMessage(value: unknown): value is JsonRpcMessage {
  return value !== null && typeof value === "object" && !Array.isArray(value) &&
    (value as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

/** The parts of a line as one buffer: a line read in one piece is not copied. */
function concat(parts: Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0] : concatBytes(parts);
}

function lastBytes(tail: Uint8Array, bytes: Uint8Array): Uint8Array {
  if (bytes.length >= KEEP) return bytes.subarray(bytes.length - KEEP).slice();
  const out = new Uint8Array(Math.min(KEEP, tail.length + bytes.length));
  const fromTail = out.length - bytes.length;
  out.set(tail.subarray(tail.length - fromTail), 0);
  out.set(bytes, fromTail);
  return out;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
