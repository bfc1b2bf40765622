// Unit tests of the byte-level replacement behind `edit` (src/text/edit_apply.ts), CONTRACT
// C4.4 and C6: the fast searches agree with a plain one, and the shared decoding of the value's
// texts agrees with decoding each buffer whole.

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { applyEdit, editTexts, MatchError, planEdit } from "../../../src/text/edit_apply.ts";
import { isAscii } from "../../../src/text/newlines.ts";

const decoder = new TextDecoder();

/** The replacement done the slow, obvious way (`Buffer#indexOf`, left to right). */
function reference(bytes: Uint8Array, oldString: string, newString: string): Uint8Array | number {
  const haystack = Buffer.from(bytes);
  const needle = Buffer.from(oldString);
  const found: number[] = [];
  for (
    let at = haystack.indexOf(needle);
    at >= 0;
    at = haystack.indexOf(needle, at + needle.length)
  ) {
    found.push(at);
  }
  if (found.length === 0) return 0;
  const parts: Buffer[] = [];
  let from = 0;
  for (const at of found) {
    parts.push(haystack.subarray(from, at), Buffer.from(newString));
    from = at + needle.length;
  }
  parts.push(haystack.subarray(from));
  return new Uint8Array(Buffer.concat(parts));
}

function attempt(bytes: Uint8Array, oldString: string, newString: string): Uint8Array | number {
  try {
    return applyEdit(bytes, { oldString, newString, replaceAll: true });
  } catch (error) {
    if (error instanceof MatchError) return error.count;
    throw error;
  }
}

// Bytes and strings drawn from a few symbols, so matches, BOMs, CRs and broken UTF-8 are common.
const byteArb = fc.constantFrom(0x61, 0x62, 0x0a, 0x0d, 0x20, 0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0x80);
const bytesArb = fc.array(byteArb, { maxLength: 64 }).map((b) => new Uint8Array(b));
const pieceArb = fc.constantFrom("a", "b", "ab", " ", "\n", "\r", "\uFEFF", "é", "😀", "\uD800");
const stringArb = fc.array(pieceArb, { minLength: 1, maxLength: 4 }).map((p) => p.join(""));

Deno.test("edit_apply: the replacement equals a plain Buffer search, for any bytes", () => {
  fc.assert(
    fc.property(bytesArb, stringArb, stringArb, (bytes, oldString, newString) => {
      // The CRLF rule (a `\n` in either string) is the contract tests'.
      if ((oldString + newString).includes("\n")) return;
      const expected = reference(bytes, oldString, newString);
      const got = attempt(bytes, oldString, newString);
      assert.deepEqual(got, expected);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("edit_apply: a long haystack, rare and common anchors, many matches", () => {
  const line = "000123 2026-01-01T00:00:00Z INFO request id=ab12 status=200\n";
  const bytes = new TextEncoder().encode(line.repeat(20_000) + "needle é\n" + line);
  for (const [oldString, count] of [["needle", 1], ["2026-", 20_001], ["é\n0", 1]] as const) {
    const plan = planEdit(bytes, { oldString, newString: "X", replaceAll: true });
    assert.equal(plan.positions.length, count, oldString);
    assert.deepEqual(plan.after, reference(bytes, oldString, "X"), oldString);
  }
  assert.throws(
    () => planEdit(bytes, { oldString: "absent", newString: "X", replaceAll: false }),
    (error) => error instanceof MatchError && error.count === 0,
  );
});

Deno.test("edit_apply: long needles (the skip search and its fallback) equal a plain search", () => {
  // Few symbols, long needles: many near misses, and matches that overlap or touch.
  const symbolArb = fc.constantFrom("a", "b", "\n", "é");
  const textArb = (min: number, max: number) =>
    fc.array(symbolArb, { minLength: min, maxLength: max }).map((p) => p.join(""));
  fc.assert(
    fc.property(textArb(0, 200), textArb(8, 16), textArb(0, 3), (haystack, oldString, n) => {
      if ((oldString + n).includes("\n") || oldString === n) return;
      const bytes = new TextEncoder().encode(haystack);
      assert.deepEqual(attempt(bytes, oldString, n), reference(bytes, oldString, n));
    }),
    { numRuns: 3000 },
  );
  // A haystack so like the needle that skipping gives up half way: the rest is still found.
  const bytes = new TextEncoder().encode("a".repeat(100_000) + "baaaaaaa" + "a".repeat(50));
  for (const oldString of ["baaaaaaa", "aaaaaaaa", "aaaaaaab"]) {
    assert.deepEqual(attempt(bytes, oldString, "X"), reference(bytes, oldString, "X"), oldString);
  }
});

Deno.test("edit_apply: the value's texts equal decoding before and after whole", () => {
  fc.assert(
    fc.property(bytesArb, stringArb, fc.array(pieceArb, { maxLength: 3 }), (bytes, o, n) => {
      const newString = n.join("");
      if (o === newString) return;
      let plan;
      try {
        plan = planEdit(bytes, { oldString: o, newString, replaceAll: true });
      } catch (error) {
        if (error instanceof MatchError) return;
        throw error;
      }
      const texts = editTexts(bytes, plan);
      assert.equal(texts.before, decoder.decode(bytes));
      assert.equal(texts.after, decoder.decode(plan.after));
    }),
    { numRuns: 3000 },
  );
});

Deno.test("edit_apply: isAscii at every alignment", () => {
  const bytes = new Uint8Array(67).fill(0x61);
  for (let start = 0; start < 5; start++) {
    for (let at = start; at < bytes.length; at++) {
      const copy = bytes.slice();
      assert.equal(isAscii(copy.subarray(start)), true);
      copy[at] = 0x80;
      assert.equal(isAscii(copy.subarray(start)), false, `${start} ${at}`);
    }
  }
});
