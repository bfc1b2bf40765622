// Unit tests of the pure `read` view (src/render/read_render.ts), CONTRACT C4.2.

import assert from "node:assert/strict";
import fc from "fast-check";
import {
  formatLine,
  lineCost,
  readFooter,
  renderRead,
  truncateLine,
} from "../../../src/render/read_render.ts";

const loneSurrogates = fc.array(
  fc.oneof(
    fc.constantFrom(0xd800, 0xdbff, 0xdc00, 0xdfff, 0x61),
    fc.integer({ min: 0, max: 0xffff }),
  ),
  { maxLength: 40 },
).map((codes) => String.fromCharCode(...codes));

Deno.test("read_render: a line within the limit is kept as is", () => {
  assert.equal(truncateLine("", 3), "");
  assert.equal(truncateLine("abc", 3), "abc");
  assert.equal(truncateLine("😀😀😀", 3), "😀😀😀"); // six UTF-16 units, three code points
});

Deno.test("read_render: a longer line keeps max code points and gains the marker", () => {
  assert.equal(truncateLine("abcd", 3), "abc... (line truncated to 3 chars)");
  assert.equal(truncateLine("😀😀😀😀", 3), "😀😀😀... (line truncated to 3 chars)");
  assert.equal(truncateLine("a😀b😀", 2), "a😀... (line truncated to 2 chars)");
  // A lone surrogate counts as one code point.
  assert.equal(truncateLine("\uD800ab", 1), "\uD800... (line truncated to 1 chars)");
  assert.equal(truncateLine("\uDC00\uD800ab", 2), "\uDC00\uD800... (line truncated to 2 chars)");
});

Deno.test("read_render: a line known to be long gets the marker even when its prefix fits", () => {
  assert.equal(truncateLine("abc", 3, true), "abc... (line truncated to 3 chars)");
  assert.equal(truncateLine("abcdef", 3, true), "abc... (line truncated to 3 chars)");
});

Deno.test("read_render: truncateLine agrees with a code-point split for any string", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), loneSurrogates),
      fc.integer({ min: 1, max: 30 }),
      (text, max) => {
        const points = Array.from(text);
        const expected = points.length > max
          ? `${points.slice(0, max).join("")}... (line truncated to ${max} chars)`
          : text;
        assert.equal(truncateLine(text, max), expected);
      },
    ),
  );
});

Deno.test("read_render: formatLine is '<number>: <text>'", () => {
  assert.equal(formatLine({ number: 12, text: "x" }), "12: x");
  assert.equal(formatLine({ number: 1, text: "" }), "1: ");
});

Deno.test("read_render: footers, first that applies: capped, more lines, end of file", () => {
  // C4.2: the design notes' texts by default, whatever is known.
  assert.equal(
    readFooter({ start: 5, end: 9, capped: true, maxBytes: 51200 }),
    "(Output capped. Showing lines 5-9. Use offset=10 to continue.)",
  );
  assert.equal(
    readFooter({ start: 1, end: 9, totalLines: 100, capped: true, maxBytes: 100 }),
    "(Output capped. Showing lines 1-9. Use offset=10 to continue.)",
  );
  assert.equal(
    readFooter({ start: 1, end: 1, totalLines: 1, capped: false, noFinalNewline: true }),
    "(End of file - total 1 lines)",
  );
  // C4.2a: detailedFooters names the cap and the total, `1 line`, and a missing final break.
  const detailed = true;
  assert.equal(
    readFooter({ start: 5, end: 9, capped: true, maxBytes: 51200, detailed }),
    "(Output capped at 51200 bytes. Showing lines 5-9. Use offset=10 to continue.)",
  );
  assert.equal(
    readFooter({ start: 1, end: 9, totalLines: 100, capped: true, maxBytes: 100, detailed }),
    "(Output capped at 100 bytes. Showing lines 1-9 of 100. Use offset=10 to continue.)",
  );
  assert.equal(
    readFooter({ start: 1, end: 1, totalLines: 1, capped: false, detailed }),
    "(End of file - total 1 line)",
  );
  assert.equal(
    readFooter({ start: 1, end: 1, totalLines: 1, capped: false, detailed, noFinalNewline: true }),
    "(End of file - total 1 line; no newline at end of file)",
  );
  assert.equal(
    readFooter({ start: 3, end: 4, totalLines: 4, capped: false, detailed, noFinalNewline: true }),
    "(End of file - total 4 lines; no newline at end of file)",
  );
  assert.equal(
    readFooter({ start: 1, end: 9, totalLines: 100, capped: false }),
    "(Showing lines 1-9 of 100. Use offset=10 to continue.)",
  );
  assert.equal(
    readFooter({ start: 91, end: 100, totalLines: 100, capped: false }),
    "(End of file - total 100 lines)",
  );
  assert.equal(
    readFooter({ start: 1, end: 0, totalLines: 0, capped: false }),
    "(End of file - total 0 lines)",
  );
});

Deno.test("read_render: renderRead lays out path, type, numbered lines, a blank line and the footer", () => {
  assert.equal(
    renderRead("src/a.ts", [{ number: 3, text: "const a = 1;" }, { number: 4, text: "" }], {
      start: 3,
      end: 4,
      totalLines: 10,
      capped: false,
    }),
    "<path>src/a.ts</path>\n<type>file</type>\n<content>\n3: const a = 1;\n4: \n\n" +
      "(Showing lines 3-4 of 10. Use offset=5 to continue.)\n</content>",
  );
  assert.equal(
    renderRead("e", [], { start: 1, end: 0, totalLines: 0, capped: false }),
    "<path>e</path>\n<type>file</type>\n<content>\n\n(End of file - total 0 lines)\n</content>",
  );
});

Deno.test("lineCost is the UTF-8 length of formatLine's line with its line break", () => {
  const encoder = new TextEncoder();
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1e9 }), fc.string({ unit: "grapheme" }), (n, text) => {
      const bytes = encoder.encode(text).length;
      const rendered = encoder.encode(`${formatLine({ number: n, text })}\n`).length;
      assert.equal(lineCost(n, bytes), rendered);
    }),
  );
});
