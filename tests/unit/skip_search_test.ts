import { deepEqual } from "node:assert/strict";
import fc from "fast-check";
import { skipSearch } from "../../src/text/skip_search.ts";

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
