import assert from "node:assert/strict";
import fc from "fast-check";
import { editDistance } from "../../../src/text/edit_distance.ts";

Deno.test("editDistance counts insertions, deletions and substitutions", () => {
  assert.equal(editDistance("", "", 2), 0);
  assert.equal(editDistance("abc", "abc", 2), 0);
  assert.equal(editDistance("abc", "abd", 2), 1);
  assert.equal(editDistance("abc", "ab", 2), 1);
  assert.equal(editDistance("offest", "offset", 2), 2);
  assert.equal(editDistance("kitten", "sitting", 5), 3);
});

Deno.test("editDistance stops at max + 1", () => {
  assert.equal(editDistance("path", "file_path", 2), 3);
  assert.equal(editDistance("abcdef", "uvwxyz", 2), 3);
  assert.equal(editDistance("a", "abcd", 2), 3);
});

Deno.test("editDistance is symmetric and agrees with the uncapped distance below the cap", () => {
  const full = (a: string, b: string) => editDistance(a, b, Infinity);
  fc.assert(
    fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
      const d = full(a, b);
      assert.equal(full(b, a), d);
      assert.equal(editDistance(a, b, 2), Math.min(d, 3));
    }),
  );
});
