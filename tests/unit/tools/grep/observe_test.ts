// C9.6's check of a rendered file's lines (src/tools/grep/observe.ts), against the reference it
// replaced: decode the whole file (its BOM dropped), split at `\n`, drop each line's `\r`.

import { equal } from "node:assert/strict";
import fc from "fast-check";
import { LineCheck } from "../../../../src/tools/grep/observe.ts";

const decoder = new TextDecoder("utf-8", { ignoreBOM: false });

function referenceLines(bytes: Uint8Array): string[] {
  return decoder.decode(bytes).split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/** The check's verdict on `bytes` fed in pieces cut at `cuts`. */
function verdict(
  bytes: Uint8Array,
  wanted: { number: number; text: string }[],
  cuts: number[],
): boolean {
  const check = new LineCheck(wanted);
  let at = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    const said = check.feed(bytes.slice(at, cut));
    if (said !== undefined) return said;
    at = cut;
  }
  const said = check.feed(bytes.slice(at));
  return said !== undefined ? said : check.end();
}

// Bytes that make lines, CRs, BOMs (at the start and inside), a euro sign and bad UTF-8.
const piece = fc.constantFrom(
  [0x61],
  [0x62, 0x63],
  [0x0a],
  [0x0d],
  [0x0d, 0x0a],
  [0xef, 0xbb, 0xbf],
  [0xe2, 0x82, 0xac],
  [0xe2, 0x82],
  [0xff],
);
const file = fc.array(piece, { maxLength: 60 }).map((p) => new Uint8Array(p.flat()));

Deno.test("C9.6 the line check agrees with decoding and splitting the whole file, however chunked", () => {
  fc.assert(
    fc.property(
      file,
      fc.array(fc.record({ number: fc.integer({ min: 1, max: 25 }), wrong: fc.boolean() }), {
        minLength: 1,
        maxLength: 4,
      }),
      fc.array(fc.nat(), { maxLength: 6 }),
      (bytes, picks, cuts) => {
        const lines = referenceLines(bytes);
        const byNumber = new Map<number, string>();
        for (const { number, wrong } of picks) {
          const real = lines[number - 1];
          byNumber.set(number, real === undefined || wrong ? (real ?? "") + "x" : real);
        }
        const wanted = [...byNumber].map(([number, text]) => ({ number, text }));
        const expected = wanted.every(({ number, text }) => lines[number - 1] === text);
        equal(verdict(bytes, wanted, cuts), expected);
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("C9.6 the line check finds line 25,000 of a file fed in 64 KiB chunks", () => {
  const text = Array.from({ length: 30_000 }, (_, i) => `line ${i + 1}\r`).join("\n");
  const bytes = new TextEncoder().encode("\uFEFF" + text);
  for (
    const [number, line, expected] of [
      [25_000, "line 25000", true],
      [25_000, "line 2500", false],
      [
        1,
        "line 1",
        true,
      ],
      [30_000, "line 30000", true],
      [30_001, "", false],
    ] as const
  ) {
    const check = new LineCheck([{ number, text: line }]);
    let said: boolean | undefined;
    for (let at = 0; at < bytes.length && said === undefined; at += 65536) {
      said = check.feed(bytes.subarray(at, at + 65536));
    }
    equal(said ?? check.end(), expected, `${number} ${line}`);
  }
});
