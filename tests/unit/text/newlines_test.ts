// Unit tests of src/text/newlines.ts (the SWAR line-feed counting behind C4.2) against naive
// byte-by-byte references, on random bytes, random ranges and unaligned views.

import assert from "node:assert/strict";
import fc from "fast-check";
import { countNewlines, firstNonAscii, isAscii, skipNewlines } from "../../../src/text/newlines.ts";

const LF = 0x0a;

function naiveCount(bytes: Uint8Array, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (bytes[i] === LF) count++;
  return count;
}

function naiveSkip(bytes: Uint8Array, n: number, start: number, end: number): number {
  let seen = 0;
  for (let i = start; i < end && seen < n; i++) {
    if (bytes[i] === LF && ++seen === n) return i + 1;
  }
  return n === 0 ? start : -1 - seen;
}

function naiveFirstNonAscii(bytes: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) if (bytes[i] >= 0x80) return i;
  return end;
}

/** Bytes rich in line feeds, the bytes next to them (0x09, 0x0b, 0x8a) and high bytes. */
const byte = fc.oneof(
  fc.constantFrom(LF, 0x09, 0x0b, 0x8a, 0x80, 0xff, 0x00, 0x7f),
  fc.integer({ min: 0, max: 255 }),
);

/** A view at a random offset into a larger buffer, so the word loop starts unaligned. */
const view = fc.tuple(fc.array(byte, { maxLength: 3000 }), fc.integer({ min: 0, max: 7 }))
  .map(([values, pad]) => {
    const buffer = new Uint8Array(values.length + pad);
    buffer.set(values, pad);
    return buffer.subarray(pad);
  });

/** A view and a range `start <= end` within it. */
const ranged = view.chain((bytes) =>
  fc.tuple(
    fc.constant(bytes),
    fc.integer({ min: 0, max: bytes.length }),
    fc.integer({ min: 0, max: bytes.length }),
  ).map(([b, x, y]) => [b, Math.min(x, y), Math.max(x, y)] as const)
);

Deno.test("newlines: countNewlines equals a byte-by-byte count on random bytes and ranges", () => {
  fc.assert(
    fc.property(ranged, ([bytes, start, end]) => {
      assert.equal(countNewlines(bytes, start, end), naiveCount(bytes, start, end));
    }),
    { numRuns: 500 },
  );
});

Deno.test("newlines: countNewlines counts dense line feeds past the 255-word lane limit", () => {
  for (const size of [0, 1, 3, 4, 5, 1019, 1020, 1021, 2040, 4096 + 3, 65537]) {
    for (const offset of [0, 1, 2, 3]) {
      const buffer = new Uint8Array(size + offset).fill(LF);
      const bytes = buffer.subarray(offset);
      assert.equal(countNewlines(bytes), size, `size ${size}, offset ${offset}`);
      bytes[size >> 1] = 0x0b;
      if (size > 0) assert.equal(countNewlines(bytes), size - 1, `size ${size}, offset ${offset}`);
    }
  }
});

Deno.test("newlines: skipNewlines lands just past the n-th line feed, or reports how many there are", () => {
  fc.assert(
    fc.property(ranged, fc.integer({ min: 0, max: 400 }), ([bytes, start, end], n) => {
      assert.equal(skipNewlines(bytes, n, start, end), naiveSkip(bytes, n, start, end));
    }),
    { numRuns: 500 },
  );
  // Across the 4 KiB blocks it counts word at a time:
  const bytes = new Uint8Array(3 * 4096 + 17);
  for (let i = 5; i < bytes.length; i += 7) bytes[i] = LF;
  for (const n of [1, 500, 585, 586, 1000, 1755, 1756, 1757, 5000]) {
    assert.equal(skipNewlines(bytes, n), naiveSkip(bytes, n, 0, bytes.length), `n ${n}`);
  }
});

Deno.test("newlines: firstNonAscii and isAscii agree with a byte-by-byte scan", () => {
  fc.assert(
    fc.property(ranged, ([bytes, start, end]) => {
      const expected = naiveFirstNonAscii(bytes, start, end);
      assert.equal(firstNonAscii(bytes, start, end), expected);
      assert.equal(isAscii(bytes, start, end), expected === end);
    }),
    { numRuns: 500 },
  );
  // One high byte anywhere in a long ASCII run, at every alignment:
  const bytes = new Uint8Array(1100).fill(0x61);
  for (const at of [0, 1, 2, 3, 4, 255, 256, 257, 1023, 1099]) {
    bytes[at] = 0xc3;
    assert.equal(firstNonAscii(bytes), at);
    assert.equal(firstNonAscii(bytes, at + 1), bytes.length);
    bytes[at] = 0x61;
  }
  assert.equal(isAscii(bytes), true);
});
