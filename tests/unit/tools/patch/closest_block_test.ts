// The closest block of a file for a hunk that was not found (CONTRACT C16.2).

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { closestBlock } from "../../../../src/tools/patch/closest_block.ts";

Deno.test("closestBlock: the window sharing the most lines, and its first differing line", () => {
  const file = ["a", "function f() {", "  x = 1;", "  y = 2;", "}", "function g() {", "  x = 1;"];
  assertEquals(closestBlock(file, ["function f() {", "  x = 1;", "  y = 3;", "}"]), {
    first: 2,
    last: 5,
    line: 4,
    text: "  y = 2;",
  });
  // Ties: the first window wins.
  assertEquals(closestBlock(["x", "b", "x", "c"], ["x", "z"]), {
    first: 1,
    last: 2,
    line: 2,
    text: "b",
  });
});

Deno.test("closestBlock: one line is matched by edit distance within a third of its length", () => {
  assertEquals(closestBlock(["const port = 8080;", "serve();"], ["const port = 8000;"]), {
    first: 1,
    last: 1,
    line: 1,
    text: "const port = 8080;",
  });
  assertEquals(closestBlock(["something else entirely"], ["const port = 8000;"]), undefined);
  assertEquals(closestBlock([], ["x"]), undefined);
});

Deno.test("closestBlock: lines that are all there are no hint (the hunk failed for its place)", () => {
  assertEquals(closestBlock(["a", "b", "c"], ["a", "b"]), undefined);
  assertEquals(closestBlock(["a long line", "b"], ["a long line"]), undefined);
});
