// Unit tests of root containment and display paths (src/provider/roots.ts), CONTRACT C3.2-C3.7.

import assert from "node:assert/strict";
import { displayPath, findRoot, isInside } from "../../../src/provider/roots.ts";

Deno.test("roots: a root contains itself and what lies below it", () => {
  assert.equal(isInside("/w", "/w"), true);
  assert.equal(isInside("/w", "/w/a"), true);
  assert.equal(isInside("/w", "/w/a/b.txt"), true);
  assert.equal(isInside("/w/", "/w/a"), true);
  assert.equal(isInside("/", "/etc/passwd"), true);
});

Deno.test("roots: containment is separator-aware: /w does not contain /w2, /w_evil or /", () => {
  assert.equal(isInside("/w", "/w2"), false);
  assert.equal(isInside("/w", "/w_evil/a"), false);
  assert.equal(isInside("/w", "/w.bak"), false);
  assert.equal(isInside("/w", "/"), false);
  assert.equal(isInside("/w/a", "/w"), false);
});

Deno.test("roots: findRoot picks the most specific root containing the path", () => {
  const outer = { path: "/w", writable: true };
  const inner = { path: "/w/docs", writable: false };
  const other = { path: "/x", writable: true };
  const roots = [inner, outer, other];
  assert.equal(findRoot(roots, "/w/docs/a.md"), inner);
  assert.equal(findRoot(roots, "/w/docs"), inner);
  assert.equal(findRoot(roots, "/w/docs2/a.md"), outer);
  assert.equal(findRoot(roots, "/w"), outer);
  assert.equal(findRoot(roots, "/x/y"), other);
  assert.equal(findRoot(roots, "/y"), undefined);
  assert.equal(findRoot([outer, inner], "/w/docs/a.md"), inner);
});

Deno.test("roots: the display path is relative inside the cwd, '.' for it, else absolute", () => {
  assert.equal(displayPath("/w", "/w"), ".");
  assert.equal(displayPath("/w", "/w/a.txt"), "a.txt");
  assert.equal(displayPath("/w", "/w/src/a.ts"), "src/a.ts");
  assert.equal(displayPath("/w/src", "/w/a.txt"), "/w/a.txt");
  assert.equal(displayPath("/w", "/w2/a.txt"), "/w2/a.txt");
  assert.equal(displayPath("/", "/etc"), "etc");
  assert.equal(displayPath("/", "/"), ".");
});
