import { deepEqual } from "node:assert/strict";
import fc from "fast-check";
import { pairSkipSearch, skipSearch } from "../../../src/text/skip_search.ts";

/** Every start of `needle` in `haystack`; non-overlapping ones skip past each find. */
function naive(haystack: Uint8Array, needle: Uint8Array, overlapping: boolean): number[] {
  const found: number[] = [];
  for (let i = 0; i + needle.length <= haystack.length;) {
    let j = 0;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) {
      found.push(i);
      i += overlapping ? 1 : needle.length;
    } else i++;
  }
  return found;
}

Deno.test("skipSearch finds what a naive search finds, and hands back the rest when over budget", () => {
  const bytes = fc.uint8Array({ minLength: 0, maxLength: 300 }).map((a) => a.map((b) => b % 3));
  fc.assert(
    fc.property(
      bytes,
      fc.uint8Array({ minLength: 1, maxLength: 6 }).map((a) => a.map((b) => b % 3)),
      fc.boolean(),
      fc.integer({ min: 0, max: 400 }),
      (haystack, needle, overlapping, budget) => {
        const found: number[] = [];
        const rest = skipSearch(haystack, needle, { budget, overlapping }, (at) => {
          found.push(at);
          return false;
        });
        const all = naive(haystack, needle, overlapping);
        // Over budget, every start before `rest` was searched and none after it.
        deepEqual(found, rest === -1 ? all : all.filter((at) => at < rest));
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("skipSearch stops when visit says so", () => {
  const haystack = new TextEncoder().encode("abcabcabc");
  const needle = new TextEncoder().encode("abc");
  const found: number[] = [];
  const rest = skipSearch(haystack, needle, { budget: 1e6, overlapping: false }, (at) => {
    found.push(at);
    return found.length === 2;
  });
  deepEqual([rest, found], [-1, [0, 3]]);
});

Deno.test("pairSkipSearch finds what a naive search finds, and hands back the rest when over budget", () => {
  // Few distinct bytes, so pairs repeat inside needles and haystacks (the shifts' edge cases).
  const bytes = (max: number, min: number) =>
    fc.uint8Array({ minLength: min, maxLength: max }).map((a) => a.map((b) => 0x30 + (b % 3)));
  fc.assert(
    fc.property(
      bytes(300, 0),
      bytes(8, 2),
      fc.boolean(),
      fc.integer({ min: 0, max: 400 }),
      (haystack, needle, overlapping, budget) => {
        const found: number[] = [];
        const rest = pairSkipSearch(haystack, needle, { budget, overlapping }, (at) => {
          found.push(at);
          return false;
        });
        const all = naive(haystack, needle, overlapping);
        deepEqual(found, rest === -1 ? all : all.filter((at) => at < rest));
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("pairSkipSearch finds a line number among lines of digits (the bench's needle)", () => {
  let text = "";
  for (let i = 0; i < 2000; i++) text += `${String(i).padStart(9, "0")} 2026-01-01 ${i % 97}\n`;
  const haystack = new TextEncoder().encode(text);
  const needle = new TextEncoder().encode("000001234 2026-");
  const found: number[] = [];
  const rest = pairSkipSearch(
    haystack,
    needle,
    { budget: haystack.length / 2, overlapping: false },
    (at) => {
      found.push(at);
      return false;
    },
  );
  deepEqual([rest, found], [-1, [text.indexOf("000001234 2026-")]]);
});
