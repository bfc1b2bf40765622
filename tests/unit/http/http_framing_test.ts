// The request framing serveBounded bounds requests by (issue 19.6): where a body ends, for a
// Content-Length, chunked encoding fed in any pieces, or no body at all.

import { deepEqual as assertEquals } from "node:assert/strict";
import { bodyEnd, closeConnection, indexOfHeadEnd } from "../../../src/http/_http_framing.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `body` one piece of `size` bytes at a time; the overall index past its end, or -1. */
function endOf(head: string, body: string, size: number): number {
  const end = bodyEnd(bytes(head))!;
  const all = bytes(body);
  for (let at = 0; at < all.length; at += size) {
    const found = end.feed(all.subarray(at, at + size));
    if (found >= 0) return at + found;
  }
  return -1;
}

Deno.test("serveBounded framing: a request head ends at its blank line", () => {
  const head = bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\nrest");
  assertEquals(indexOfHeadEnd(head, 0), head.length - 4);
  assertEquals(indexOfHeadEnd(bytes("GET / HTTP/1.1\r\nHost: a\r\n"), 0), -1);
});

Deno.test("serveBounded framing: no Content-Length and no chunked encoding is no body", () => {
  assertEquals(bodyEnd(bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n")), null);
  assertEquals(bodyEnd(bytes("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n")), null);
});

Deno.test("serveBounded framing: a Content-Length body ends after that many bytes", () => {
  const head = "POST / HTTP/1.1\r\ncontent-length: 5\r\n\r\n";
  for (const size of [1, 2, 5, 9]) assertEquals(endOf(head, "hello, and more", size), 5);
  assertEquals(endOf(head, "hell", 1), -1);
});

Deno.test("serveBounded framing: a chunked body ends after its last chunk and trailers", () => {
  const head = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  const body = "5;ext=1\r\nhello\r\n1a\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: 1\r\n\r\n";
  for (const size of [1, 3, 7, body.length]) {
    assertEquals(endOf(head, `${body}next`, size), body.length);
  }
  assertEquals(endOf(head, "5\r\nhello\r\n0\r\n", 1), -1); // the blank line is still to come
  assertEquals(endOf(head, "0\r\n\r\n", 1), 5);
});

Deno.test("serveBounded framing: the head is rewritten to Connection: close", () => {
  const head = bytes(
    "GET / HTTP/1.1\r\nConnection: keep-alive\r\nKeep-Alive: 5\r\nHost: a\r\n\r\n",
  );
  assertEquals(
    new TextDecoder().decode(closeConnection(head)),
    "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
  );
});
