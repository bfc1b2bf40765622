import assert from "node:assert/strict";
import { closeNames, closestKey } from "../../../src/text/close_names.ts";

const EDIT = ["file_path", "old_string", "new_string", "replace_all"];
const READ = ["file_path", "offset", "limit"];

Deno.test("closestKey matches ignoring case, _ and -", () => {
  assert.equal(closestKey("replaceAll", EDIT), "replace_all");
  assert.equal(closestKey("FilePath", EDIT), "file_path");
  assert.equal(closestKey("old-string", EDIT), "old_string");
});

Deno.test("closestKey matches within edit distance 2, smallest distance then schema order", () => {
  assert.equal(closestKey("ofset", READ), "offset");
  assert.equal(closestKey("limits", READ), "limit");
  assert.equal(closestKey("filepath", READ), "file_path");
  // "ab" is 1 from "a" and 1 from "abc": the earlier property wins.
  assert.equal(closestKey("ab", ["abc", "a"]), "abc");
  assert.equal(closestKey("ab", ["x", "a", "abc"]), "a");
});

Deno.test("closestKey finds nothing for an unrelated key", () => {
  assert.equal(closestKey("start_line", READ), undefined);
  assert.equal(closestKey("path", READ), undefined);
});

Deno.test("closeNames ranks case, extension and typos, ties in the given order", () => {
  const names = ["README.md", "main.ts", "mian.rs", "readme.txt", "utils.ts"];
  assert.deepEqual(closeNames("readme.md", names), ["README.md", "readme.txt"]);
  // A same-stem name with another extension counts as 1, a two-letter swap as 2.
  assert.deepEqual(closeNames("mian.ts", names), ["mian.rs", "main.ts"]);
  assert.deepEqual(closeNames("util.ts", names), ["utils.ts"]);
  assert.deepEqual(closeNames("config.json", names), []);
});

Deno.test("closeNames counts a same-stem name with another extension as 1", () => {
  assert.deepEqual(closeNames("config", ["config.json", "conflg"]), ["config.json", "conflg"]);
  assert.deepEqual(closeNames("config", ["confgi", "config.json"]), ["config.json", "confgi"]);
});

Deno.test("closeNames returns at most max names", () => {
  assert.deepEqual(closeNames("a.ts", ["a.js", "b.ts", "c.ts", "d.ts"], 3), [
    "a.js",
    "b.ts",
    "c.ts",
  ]);
});
