import assert from "node:assert/strict";
import { hasLinePrefixes } from "../../../src/text/line_prefixes.ts";

Deno.test("hasLinePrefixes needs every non-empty line to carry a read prefix", () => {
  assert.equal(hasLinePrefixes("12: const a = 1;"), true);
  assert.equal(hasLinePrefixes("  9: a\n 10: b\n\n 11: c\n"), true);
  assert.equal(hasLinePrefixes("12: a\r\n13: b\r\n"), true);
  assert.equal(hasLinePrefixes("12: a\nb"), false);
  assert.equal(hasLinePrefixes("12:a"), false);
  assert.equal(hasLinePrefixes("a: 1"), false);
  assert.equal(hasLinePrefixes(""), false);
  assert.equal(hasLinePrefixes("\n\n"), false);
});
