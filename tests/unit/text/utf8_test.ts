// Unit tests of src/text/utf8.ts: UTF-8 lengths without encoding.

import assert from "node:assert/strict";
import fc from "fast-check";
import { utf8Length } from "../../../src/text/utf8.ts";

Deno.test("utf8: utf8Length equals the encoded length, lone surrogates as U+FFFD", () => {
  const units = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 50 })
    .map((codes) => String.fromCharCode(...codes));
  fc.assert(
    fc.property(fc.oneof(units, fc.string({ unit: "binary" })), (text) => {
      assert.equal(utf8Length(text), new TextEncoder().encode(text).length);
    }),
    { numRuns: 500 },
  );
  assert.equal(utf8Length("a\uD800"), 4);
  assert.equal(utf8Length("\uDC00\uD800"), 6);
  assert.equal(utf8Length("😀"), 4);
});
