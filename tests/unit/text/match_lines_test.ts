import assert from "node:assert/strict";
import { lineRange, linesOf } from "../../../src/text/match_lines.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("linesOf lists distinct lines, ascending, capped with more", () => {
  const text = bytes("x x\nx\n\nx\n");
  assert.deepEqual(linesOf(text, [0, 2, 4, 7], 10), { lines: [1, 2, 4], more: false });
  assert.deepEqual(linesOf(text, [0, 2, 4, 7], 2), { lines: [1, 2], more: true });
  assert.deepEqual(linesOf(text, [0, 2], 1), { lines: [1], more: false });
});

Deno.test("lineRange puts a line feed on the line it ends", () => {
  const text = bytes("a\nb\nc\n");
  assert.deepEqual(lineRange(text, 0, 1), { first: 1, last: 1 });
  assert.deepEqual(lineRange(text, 0, 2), { first: 1, last: 1 });
  assert.deepEqual(lineRange(text, 0, 3), { first: 1, last: 2 });
  assert.deepEqual(lineRange(text, 4, 6), { first: 3, last: 3 });
});

Deno.test("linesOf scans a long line once for many positions on it", () => {
  const text = bytes("a".repeat(4_000_000) + "\nb");
  const positions = Array.from({ length: 200_000 }, (_, i) => i * 20);
  assert.deepEqual(linesOf(text, [...positions, 4_000_001], 10), { lines: [1, 2], more: false });
});
