// Unit tests of the grep engine glue (src/text/grep_scan.ts): the literal prefilter must never
// reject a line the regex engine accepts.

import { deepEqual, equal } from "node:assert/strict";
import fc from "fast-check";
import { RE2JS } from "re2js";
import { indexOfBytes } from "../../../src/text/byte_search.ts";
import { requiredLiteral } from "../../../src/text/grep_literals.ts";
import { compileGrepPattern, GrepScanner } from "../../../src/text/grep_scan.ts";

Deno.test("requiredLiteral reads only what every match must contain", () => {
  equal(requiredLiteral("func\\w+\\(signal"), "(signal");
  equal(requiredLiteral("foo|barbaz"), null);
  equal(requiredLiteral("(?i)hello"), null);
  equal(requiredLiteral("abcd?"), "abc");
  equal(requiredLiteral("x\\d{3}yz"), null);
  equal(requiredLiteral("\\x41BCD"), null);
  equal(requiredLiteral("\\p{Greek}abc"), null);
  equal(requiredLiteral("[abc]def(ghij)?"), "def");
  equal(requiredLiteral("ab\\dcd"), null);
  equal(requiredLiteral("export function \\w+"), "export function ");
});

const ALPHABET = [
  "a",
  "b",
  "c",
  "ab",
  "(",
  ")",
  "?",
  "*",
  "+",
  "|",
  ".",
  "\\d",
  "\\(",
  "[ab]",
  "{2}",
  " ",
  "^",
  "$",
];

Deno.test("the compiled pattern agrees with re2js on generated patterns and lines", () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 8 }),
      fc.array(fc.stringMatching(/^[ab(c1 ]{0,12}$/), { minLength: 1, maxLength: 6 }),
      (parts, lines) => {
        const pattern = parts.join("");
        let reference: RE2JS;
        try {
          reference = RE2JS.compile(pattern);
        } catch {
          return;
        }
        const compiled = compileGrepPattern(pattern, false);
        for (const line of lines) equal(compiled.testLine(line), reference.test(line), pattern);
        const text = lines.join("\n");
        if (lines.some((l) => reference.test(l))) equal(compiled.testBlock(text), true, pattern);
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("GrepScanner numbers lines across segments and keeps context", () => {
  const pattern = compileGrepPattern("x", false);
  const scanner = new GrepScanner({ pattern, context: 1, keep: 10 });
  scanner.feed("a\nb\n");
  scanner.feed("x\nc\nd\n");
  scanner.feed("e\nx");
  equal(scanner.matches, 2);
  deepEqual(scanner.lines, [
    { number: 2, text: "b", match: false },
    { number: 3, text: "x", match: true },
    { number: 4, text: "c", match: false },
    { number: 6, text: "e", match: false },
    { number: 7, text: "x", match: true },
  ]);
});

Deno.test("scanChunks gives the same lines whatever the chunk boundaries (C11 streaming)", async () => {
  const { scanChunks } = await import("../../../src/tools/grep/scan.ts");
  const text = "\uFEFFalpha x\r\nbeta\n\nx gamma é\nlong " + "y".repeat(300) + " x\nlast x";
  const bytes = new TextEncoder().encode(text);
  for (const context of [0, 2]) {
    const run = async (size: number) => {
      const pattern = compileGrepPattern("x", false);
      const scanner = new GrepScanner({ pattern, context, keep: 100 });
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.slice(i, i + size));
      await scanChunks(chunks, scanner, { pattern, context });
      return { matches: scanner.matches, lines: scanner.lines };
    };
    const whole = await run(bytes.length);
    equal(whole.matches, 4);
    for (const size of [1, 2, 3, 7, 64]) deepEqual(await run(size), whole, `size ${size}`);
  }
});

Deno.test("indexOfBytes finds the first occurrence as a naive search does, at any offset and alignment", () => {
  const naive = (hay: Uint8Array, needle: Uint8Array, from: number) => {
    for (let s = Math.max(0, from); s + needle.length <= hay.length; s++) {
      let j = 0;
      while (j < needle.length && hay[s + j] === needle[j]) j++;
      if (j === needle.length) return s;
    }
    return needle.length === 0 && from <= hay.length ? from : -1;
  };
  // Few distinct bytes, so needles occur often and straddle every alignment; long enough
  // haystacks (≥ 256 bytes) take the 16-bit pair scan, short ones the byte scan.
  const byteArb = fc.constantFrom(0x61, 0x62, 0x28, 0x0a);
  fc.assert(
    fc.property(
      fc.array(byteArb, { minLength: 0, maxLength: 900 }),
      fc.array(byteArb, { minLength: 1, maxLength: 9 }),
      fc.nat(3),
      fc.nat(1000),
      (hay, needle, shift, from) => {
        const buffer = new Uint8Array(hay.length + shift + 1);
        buffer.set(hay, shift);
        const bytes = buffer.subarray(shift, shift + hay.length);
        const n = new Uint8Array(needle);
        const start = Math.min(from, hay.length);
        equal(indexOfBytes(bytes, n, start), naive(bytes, n, start));
      },
    ),
    { numRuns: 3000 },
  );
  // A needle only at the very start and the very end of an odd-offset view.
  const bytes = new Uint8Array(1001).subarray(1);
  bytes.set([0x28, 0x73, 0x69], 0);
  bytes.set([0x28, 0x73, 0x69], 997);
  const needle = new Uint8Array([0x28, 0x73, 0x69]);
  equal(indexOfBytes(bytes, needle, 0), 0);
  equal(indexOfBytes(bytes, needle, 1), 997);
  equal(indexOfBytes(bytes, needle, 998), -1);
});
