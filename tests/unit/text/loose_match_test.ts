import assert from "node:assert/strict";
import fc from "fast-check";
import { findLoose } from "../../../src/text/loose_match.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const slice = (text: string, needle: string) => {
  const m = findLoose(bytes(text), needle);
  return m && text.slice(m.start, m.end);
};

Deno.test("findLoose matches any run of spaces and tabs for any other", () => {
  assert.equal(
    slice("if (a) {\n\treturn 1;\n}\n", "if (a) {\n    return 1;\n}"),
    "if (a) {\n\treturn 1;\n}",
  );
  assert.equal(slice("f(a,  b)", "f(a, b)"), "f(a,  b)");
  assert.equal(slice("x\n  \t y = 1", " y = 1"), "  \t y = 1");
});

Deno.test("findLoose never lets a run match nothing", () => {
  assert.equal(slice("f(a,b)", "f(a, b)"), undefined);
  assert.equal(slice("f(a, b)", "f(a,b)"), undefined);
  assert.equal(slice("{\n  x\n}", "{\nx\n}"), undefined);
  assert.equal(slice("{\nx\n}", "{\n  x\n}"), undefined);
});

Deno.test("findLoose ignores trailing whitespace on each line and CR before LF", () => {
  assert.equal(slice("a = 1;   \nb = 2;\n", "a = 1;\nb = 2;"), "a = 1;   \nb = 2;");
  assert.equal(slice("a = 1;\nb = 2;\n", "a = 1;  \nb = 2;"), "a = 1;\nb = 2;");
  assert.equal(slice("a = 1; \r\nb = 2;\r\n", "a = 1;\nb = 2;\n"), "a = 1; \r\nb = 2;\r\n");
  assert.equal(slice("a\n\t\nb", "a\n\nb"), "a\n\t\nb");
});

Deno.test("findLoose finds the first match and nothing in a needle of only whitespace", () => {
  const m = findLoose(bytes("x  y\nx y\n"), "x y");
  assert.deepEqual(m, { start: 0, end: 4 });
  assert.equal(findLoose(bytes("a b"), " \t\n "), undefined);
  assert.equal(findLoose(bytes("abc"), "abd"), undefined);
});

/** The reference: a substring search after normalizing both sides. */
function normalize(text: string): string {
  return text.replace(/\r\n/g, "\n").split("\n").map((line) => line.replace(/[ \t]+$/, ""))
    .join("\n").replace(/[ \t]+/g, " ");
}

Deno.test("findLoose agrees with a search of the normalized texts", () => {
  const text = fc.stringMatching(/^[ab \t\r\n]{0,40}$/);
  fc.assert(
    fc.property(text, text, (haystack, needle) => {
      const expected = /[^ \t\n]/.test(normalize(needle)) &&
        normalize(haystack).includes(normalize(needle));
      const found = findLoose(bytes(haystack), needle);
      assert.equal(found !== undefined, expected, JSON.stringify({ haystack, needle }));
    }),
    { numRuns: 5000 },
  );
});

Deno.test("findLoose finds a match in a haystack much like its longest word", () => {
  const text = "a".repeat(20000) + " b\n";
  assert.deepEqual(findLoose(bytes(text), "aaaaaaaaaa\tb"), { start: 19990, end: 20002 });
  assert.equal(findLoose(bytes(text), "aaaaaaaaaa\tc"), undefined);
});
