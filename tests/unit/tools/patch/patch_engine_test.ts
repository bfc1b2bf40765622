// Unit tests of the V4A patch engine (src/tools/patch/patch_parse.ts, patch_locate.ts, patch_apply.ts),
// CONTRACT C16.1 and C16.2: parsing, locating as the reference implementation does, applying on
// bytes with line breaks and BOM kept, and a property test that a patch made from random edits
// applies to give exactly the edited text.

import assert from "node:assert/strict";
import fc from "fast-check";
import {
  parsePatch,
  type PatchOperation,
  PatchParseError,
} from "../../../../src/tools/patch/patch_parse.ts";
import {
  locateHunks,
  normalizeLine,
  PatchLocateError,
  seekAll,
  seekLines,
} from "../../../../src/tools/patch/patch_locate.ts";
import { addedText, applyHunks } from "../../../../src/tools/patch/patch_apply.ts";
import { concatBytes } from "../../../../src/text/bytes.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

function update(patch: string): PatchOperation & { kind: "update" } {
  const [op] = parsePatch(patch);
  assert.equal(op.kind, "update");
  return op as PatchOperation & { kind: "update" };
}

function apply(before: string | Uint8Array, patch: string): string {
  const bytes = typeof before === "string" ? encoder.encode(before) : before;
  return decoder.decode(concatBytes(applyHunks(bytes, update(patch).hunks).pieces));
}

function parseProblem(patch: string): { line: number; kind: string } {
  try {
    parsePatch(patch);
  } catch (error) {
    assert.ok(error instanceof PatchParseError);
    return { line: error.line, kind: error.problem.kind };
  }
  throw new Error("parsed");
}

Deno.test("parsePatch reads add, delete and update with a move, anchors and End of File", () => {
  const ops = parsePatch(
    [
      "*** Begin Patch",
      "*** Add File: src/new.ts",
      "+export const a = 1;",
      "+",
      "*** Delete File: src/old.ts",
      "*** Update File: src/a.ts",
      "*** Move to: src/b.ts",
      "@@ function f() {",
      " const x = 1;",
      "-return x;",
      "+return x + 1;",
      "@@",
      "-tail",
      "+end",
      "*** End of File",
      "*** End Patch",
    ].join("\n"),
  );
  assert.deepEqual(ops, [
    { kind: "add", path: "src/new.ts", lines: ["export const a = 1;", ""], patchLine: 2 },
    { kind: "delete", path: "src/old.ts", patchLine: 5 },
    {
      kind: "update",
      path: "src/a.ts",
      moveTo: "src/b.ts",
      patchLine: 6,
      hunks: [
        {
          anchors: ["function f() {"],
          lines: [
            { kind: " ", text: "const x = 1;" },
            { kind: "-", text: "return x;" },
            { kind: "+", text: "return x + 1;" },
          ],
          endOfFile: false,
          patchLine: 8,
        },
        {
          lines: [{ kind: "-", text: "tail" }, { kind: "+", text: "end" }],
          endOfFile: true,
          patchLine: 12,
        },
      ],
    },
  ]);
});

Deno.test("parsePatch accepts CRLF, padding around markers and a first hunk without @@", () => {
  const ops = parsePatch(
    "\n  *** Begin Patch \r\n*** Update File: a\r\n x\r\n+y\r\n*** End Patch  \n\n",
  );
  assert.deepEqual(ops, [{
    kind: "update",
    path: "a",
    patchLine: 3,
    hunks: [{
      lines: [{ kind: " ", text: "x" }, { kind: "+", text: "y" }],
      endOfFile: false,
      patchLine: 4,
    }],
  }]);
});

Deno.test("parsePatch names the line of each problem", () => {
  assert.deepEqual(parseProblem("hello"), { line: 1, kind: "begin" });
  assert.deepEqual(parseProblem("*** Begin Patch\n*** Delete File: a"), { line: 2, kind: "end" });
  assert.deepEqual(parseProblem("*** Begin Patch\n*** End Patch"), {
    line: 2,
    kind: "no-operations",
  });
  assert.deepEqual(parseProblem("*** Begin Patch\n*** Rename File: a\n*** End Patch"), {
    line: 2,
    kind: "header",
  });
  assert.deepEqual(parseProblem("*** Begin Patch\n*** Update File: a\n*** End Patch"), {
    line: 2,
    kind: "empty-update",
  });
  assert.deepEqual(parseProblem("*** Begin Patch\n*** Update File: a\n@@\nx\n*** End Patch"), {
    line: 4,
    kind: "hunk-line",
  });
  assert.deepEqual(
    parseProblem("*** Begin Patch\n*** Update File: a\n@@\n-x\nfoo\n*** End Patch"),
    { line: 5, kind: "no-anchor" },
  );
  assert.deepEqual(parseProblem("*** Begin Patch\n*** Delete File:\n*** End Patch"), {
    line: 2,
    kind: "no-path",
  });
  assert.deepEqual(
    parseProblem("*** Begin Patch\n*** Update File: a\n@@ x\n*** End of File\n*** End Patch"),
    { line: 4, kind: "empty-hunk" },
  );
});

Deno.test("parsePatch drops empty separator lines at the end of a hunk but keeps inner ones", () => {
  const op = update(
    "*** Begin Patch\n*** Update File: a\n@@\n a\n\n-b\n+c\n\n\n@@\n-d\n*** End Patch",
  );
  assert.deepEqual(op.hunks.map((h) => h.lines.length), [4, 1]);
});

Deno.test("seekLines tries exact, then trailing whitespace, then both ends, each over the whole file", () => {
  assert.equal(seekLines(["x ", "x"], ["x"], 0, false), 1);
  assert.equal(seekLines([" x", "x  "], ["x"], 0, false), 1);
  assert.equal(seekLines(["  x  "], ["x"], 0, false), 0);
  assert.equal(seekLines(["a", "b"], ["a"], 1, false), -1);
  assert.equal(seekLines(["a", "b", "a"], ["a"], 0, true), 2);
  assert.equal(seekLines(["a"], ["a", "b"], 0, false), -1);
});

Deno.test("C16.1a parsePatch removes a heredoc wrapper; line numbers stay those of the text given", () => {
  const body = "*** Begin Patch\n*** Delete File: a\n*** End Patch";
  for (const opener of ["<<EOF", "<<'EOF'", '<<"EOF"', "  <<EOF  "]) {
    assert.deepEqual(parsePatch(`\n${opener}\n${body}\nEOF\n\n`), [
      { kind: "delete", path: "a", patchLine: 4 },
    ]);
  }
  // The wrapper needs its closing line and a patch inside; the error names the given line.
  assert.deepEqual(parseProblem(`<<EOF\n${body}`), { line: 1, kind: "begin" });
  assert.deepEqual(parseProblem("<<EOF\n*** Begin Patch\n*** Delete File: a\nEOF"), {
    line: 3,
    kind: "end",
  });
  assert.deepEqual(
    parseProblem("<<EOF\n*** Begin Patch\n*** Update File: a\n@@\nbad\n*** End Patch\nEOF"),
    { line: 5, kind: "hunk-line" },
  );
});

Deno.test("C16.1a parsePatch reads stacked @@ anchors, and a range header as a bare @@", () => {
  const op = update(
    [
      "*** Begin Patch",
      "*** Update File: f",
      "@@ class A",
      "@@",
      "@@   def run():",
      "-x",
      "@@ -12,7 +12,8 @@ def other():",
      "@@ -3 +3 @@",
      "-y",
      "@@ -1,2 +1,2 @@",
      "@@ tail",
      "-z",
      "*** End Patch",
    ].join("\n"),
  );
  assert.deepEqual(op.hunks.map((h) => [h.anchors, h.patchLine]), [
    [["class A", "  def run():"], 3],
    [undefined, 7],
    [["tail"], 10],
  ]);
  // A stack of @@ lines still needs lines below it.
  assert.deepEqual(
    parseProblem("*** Begin Patch\n*** Update File: f\n@@ a\n@@ b\n*** End Patch"),
    { line: 3, kind: "empty-hunk" },
  );
});

Deno.test("C16.2 seekAll gives every match at the first level that has one, from the cursor", () => {
  assert.deepEqual(seekAll(["x", "y", "x", "y", "x"], ["x", "y"], 0, false), [0, 2]);
  assert.deepEqual(seekAll(["x", "y", "x", "y", "x"], ["x", "y"], 1, false), [2]);
  assert.deepEqual(seekAll(["a", "a", "a"], ["a", "a"], 0, false), [0, 1]);
  // An exact match later wins over a looser one earlier, and is then the only one.
  assert.deepEqual(seekAll(["x ", "x"], ["x"], 0, false), [1]);
  // End of File: only the position that ends the file, at whichever level matches it.
  assert.deepEqual(seekAll(["x", "x", " x "], ["x"], 0, true), [2]);
  assert.deepEqual(seekAll(["x", "y"], ["x"], 0, true), []);
  assert.deepEqual(seekAll(["x", "y"], ["y"], 2, true), []);
});

Deno.test("C16.2 the fourth level reads every listed dash, quote and space as ASCII, and only those", () => {
  const dashes = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212";
  const singles = "\u2018\u2019\u201a\u201b";
  const doubles = "\u201c\u201d\u201e\u201f";
  const spaces = "\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000";
  assert.equal(
    normalizeLine(` ${dashes}${singles}${doubles}x${spaces}x `),
    `-------''''""""x${" ".repeat(13)}x`,
  );
  assert.equal(normalizeLine("\u2016\u2020\u00ab"), "\u2016\u2020\u00ab");
  assert.equal(seekLines(["a \u2014 b"], ["a - b"], 0, false), 0);
  assert.equal(seekLines(["a \u2014 b"], ["a -- b"], 0, false), -1);
});

Deno.test("C16.2 a hunk without an anchor at several places is refused with their 1-based lines", () => {
  const hunks = update("*** Begin Patch\n*** Update File: f\n@@\n-x\n+y\n*** End Patch").hunks;
  assert.throws(
    () => locateHunks(["x", "a", "x", "b", "x"], hunks),
    (error) =>
      error instanceof PatchLocateError && error.hunk === 0 &&
      error.problem.kind === "ambiguous" && error.problem.lines.join() === "1,3,5",
  );
  // From the cursor only: after a first hunk, the rest of the file decides.
  const two = update(
    "*** Begin Patch\n*** Update File: f\n@@\n-a\n+A\n@@\n-x\n+y\n*** End Patch",
  ).hunks;
  assert.throws(() => locateHunks(["a", "x", "x"], two), PatchLocateError);
  assert.deepEqual(locateHunks(["x", "a", "x"], two).map((p) => p.start), [1, 2]);
  // With an anchor, the first match below it.
  const anchored = update("*** Begin Patch\n*** Update File: f\n@@ a\n-x\n+y\n*** End Patch").hunks;
  assert.equal(locateHunks(["a", "x", "x"], anchored)[0].start, 1);
});

Deno.test("C16.2 a pure addition leaves the cursor; placements come back in file order", () => {
  const patch =
    "*** Begin Patch\n*** Update File: f\n@@\n+end\n@@\n-a\n+A\n@@ b\n+below b\n@@\n-c\n*** End Patch";
  assert.deepEqual(
    locateHunks(["a", "b", "c"], update(patch).hunks).map((p) => [p.start, p.length]),
    [[0, 1], [2, 0], [2, 1], [3, 0]],
  );
  assert.equal(apply("a\nb\nc\n", patch), "A\nb\nbelow b\nend\n");
});

Deno.test("C16.2 a replaced line keeps its own break; an added one takes the break above it", () => {
  const patch = "*** Begin Patch\n*** Update File: f\n-a\n-b\n+A\n+B\n+C\n c\n+d\n*** End Patch";
  assert.equal(apply("a\nb\r\nc\r\n", patch), "A\nB\r\nC\r\nc\r\nd\r\n");
  assert.equal(apply("a\r\nb\nc\n", patch), "A\r\nB\nC\nc\nd\n");
  // At the top of the file an added line takes the majority break.
  assert.equal(
    apply("a\nb\r\nc\r\n", "*** Begin Patch\n*** Update File: f\n+top\n a\n*** End Patch"),
    "top\r\na\nb\r\nc\r\n",
  );
  // The old last line without a break gets one when lines follow it; the new last has none.
  assert.equal(
    apply("a\r\nb", "*** Begin Patch\n*** Update File: f\n b\n+c\n*** End Patch"),
    "a\r\nb\r\nc",
  );
});

Deno.test("an anchor moves the search below it; hunks never go backwards", () => {
  const lines = ["def a():", "  return 1", "def b():", "  return 1"];
  const placed = locateHunks(
    lines,
    update(
      "*** Begin Patch\n*** Update File: f\n@@ def b():\n-  return 1\n+  return 2\n*** End Patch",
    ).hunks,
  );
  assert.equal(placed[0].start, 3);
  assert.throws(
    () =>
      locateHunks(
        lines,
        update(
          "*** Begin Patch\n*** Update File: f\n@@ def b():\n-def a():\n@@ nowhere\n-x\n*** End Patch",
        ).hunks,
      ),
    (error) =>
      error instanceof PatchLocateError && error.hunk === 0 && error.problem.kind === "lines",
  );
  assert.throws(
    () =>
      locateHunks(
        lines,
        update(
          "*** Begin Patch\n*** Update File: f\n@@ def a():\n-  return 1\n@@ def c():\n-x\n*** End Patch",
        ).hunks,
      ),
    (error) =>
      error instanceof PatchLocateError && error.hunk === 1 &&
      error.problem.kind === "anchor" && error.problem.anchor === "def c():",
  );
});

Deno.test("applyHunks keeps CRLF breaks, the BOM and untouched bytes", () => {
  assert.equal(
    apply("a\r\nb\r\nc\r\n", "*** Begin Patch\n*** Update File: f\n a\n-b\n+B\n+B2\n*** End Patch"),
    "a\r\nB\r\nB2\r\nc\r\n",
  );
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode("x\ny\n")]);
  const out = concatBytes(
    applyHunks(bom, update("*** Begin Patch\n*** Update File: f\n-y\n+z\n*** End Patch").hunks)
      .pieces,
  );
  assert.deepEqual([...out], [0xef, 0xbb, 0xbf, ...encoder.encode("x\nz\n")]);
  const invalid = new Uint8Array([0xff, 0x0a, ...encoder.encode("a\n")]);
  const kept = concatBytes(
    applyHunks(invalid, update("*** Begin Patch\n*** Update File: f\n-a\n+b\n*** End Patch").hunks)
      .pieces,
  );
  assert.deepEqual([...kept], [0xff, 0x0a, ...encoder.encode("b\n")]);
});

Deno.test("applyHunks keeps context lines as the file has them when matched loosely", () => {
  assert.equal(
    apply("  a  \nb\n", "*** Begin Patch\n*** Update File: f\n a\n-b\n+c\n*** End Patch"),
    "  a  \nc\n",
  );
});

Deno.test("applyHunks keeps a missing final line break, and adds at the end or below an anchor", () => {
  assert.equal(
    apply("a\nb", "*** Begin Patch\n*** Update File: f\n b\n+c\n*** End Patch"),
    "a\nb\nc",
  );
  assert.equal(apply("a\nb", "*** Begin Patch\n*** Update File: f\n-b\n*** End Patch"), "a");
  assert.equal(
    apply("a\nb\n", "*** Begin Patch\n*** Update File: f\n@@\n+c\n*** End Patch"),
    "a\nb\nc\n",
  );
  assert.equal(
    apply("a\nb\n", "*** Begin Patch\n*** Update File: f\n@@ a\n+c\n*** End Patch"),
    "a\nc\nb\n",
  );
  assert.equal(apply("", "*** Begin Patch\n*** Update File: f\n@@\n+c\n*** End Patch"), "c\n");
});

Deno.test("End of File places the hunk at the end; a trailing empty old line may stand for the last break", () => {
  assert.equal(
    apply(
      "x\ny\nx\n",
      "*** Begin Patch\n*** Update File: f\n-x\n+z\n*** End of File\n*** End Patch",
    ),
    "x\ny\nz\n",
  );
  assert.equal(
    apply("a\nb\n", "*** Begin Patch\n*** Update File: f\n-b\n+c\n \n*** End Patch"),
    "a\nc\n",
  );
});

Deno.test("addedText ends every line with a line break", () => {
  assert.equal(addedText([]), "");
  assert.equal(addedText(["a", ""]), "a\n\n");
});

/** A random file: unique lines (so a hunk has one place), breaks, final break, BOM. */
const fileArb = fc.record({
  words: fc.array(fc.stringMatching(/^[ a+*@-]{0,6}$/), { maxLength: 30 }),
  crlf: fc.boolean(),
  finalBreak: fc.boolean(),
  bom: fc.boolean(),
});

/** Random edits: per line index a chance to replace a run of lines by random new lines. */
const editsArb = fc.array(
  fc.record({
    at: fc.nat(),
    remove: fc.nat({ max: 3 }),
    insert: fc.array(fc.stringMatching(/^[ a+*@-]{0,6}$/), { maxLength: 3 }),
  }),
  { maxLength: 5 },
);

Deno.test("a patch made from random edits of random text applies to give exactly the edited text", () => {
  fc.assert(
    fc.property(fileArb, editsArb, (file, rawEdits) => {
      const lines = file.words.map((w, i) => `${w}#${i}`);
      const eol = file.crlf ? "\r\n" : "\n";
      const original = lines.length === 0 ? "" : lines.join(eol) + (file.finalBreak ? eol : "");
      // Non-overlapping edits, each with a context line either side where there is one.
      const edits: { at: number; remove: number; insert: string[] }[] = [];
      let floor = 0;
      for (const edit of [...rawEdits].sort((a, b) => a.at - b.at)) {
        const at = lines.length === 0
          ? 0
          : floor + (edit.at % Math.max(1, lines.length - floor + 1));
        if (at > lines.length || (edits.length > 0 && at < floor)) continue;
        const remove = Math.min(edit.remove, lines.length - at);
        edits.push({ at, remove, insert: edit.insert });
        floor = at + remove + 2;
        if (floor > lines.length) break;
      }
      const expectedLines: string[] = [];
      let line = 0;
      const hunks: string[] = [];
      for (const { at, remove, insert } of edits) {
        while (line < at) expectedLines.push(lines[line++]);
        expectedLines.push(...insert);
        const body: string[] = [];
        if (at > 0) body.push(` ${lines[at - 1]}`);
        for (let i = 0; i < remove; i++) body.push(`-${lines[at + i]}`);
        body.push(...insert.map((text) => `+${text}`));
        if (at + remove < lines.length) body.push(` ${lines[at + remove]}`);
        line = at + remove;
        if (body.length > 0) hunks.push(["@@", ...body].join("\n"));
      }
      while (line < lines.length) expectedLines.push(lines[line++]);
      if (hunks.length === 0) return;
      const sawBreak = original.includes("\n");
      const outEol = sawBreak ? eol : "\n";
      const keepsFinal = original === "" || file.finalBreak;
      const expected = expectedLines.length === 0
        ? ""
        : expectedLines.join(outEol) + (keepsFinal ? outEol : "");
      const patch = ["*** Begin Patch", "*** Update File: f", ...hunks, "*** End Patch"].join("\n");
      const bom = file.bom ? [0xef, 0xbb, 0xbf] : [];
      const bytes = new Uint8Array([...bom, ...encoder.encode(original)]);
      const out = concatBytes(applyHunks(bytes, update(patch).hunks).pieces);
      assert.deepEqual([...out], [...bom, ...encoder.encode(expected)]);
    }),
    { numRuns: 2000 },
  );
});

/** Lines a model might send, the lenient forms included, for the parser and locator below. */
const pieceArb = fc.constantFrom(
  "*** Begin Patch",
  "*** End Patch",
  "*** Update File: f",
  "*** Add File: g",
  "*** Delete File: h",
  "*** Move to: m",
  "*** End of File",
  "<<EOF",
  "<<'EOF'",
  "EOF",
  "@@",
  "@@ a",
  "@@ -1,2 +1,2 @@",
  "@@ -3 +3 @@ b",
  " a",
  " b",
  "-a",
  "-b",
  "+c",
  "",
  "x",
  "  a  ",
  "a\u2013b",
);

Deno.test("C16.1a any sequence of patch-like lines parses or fails with a PatchParseError, never else", () => {
  fc.assert(
    fc.property(fc.array(pieceArb, { maxLength: 14 }), (pieces) => {
      for (const text of [pieces.join("\n"), ["*** Begin Patch", ...pieces].join("\n")]) {
        try {
          parsePatch(text);
        } catch (error) {
          if (!(error instanceof PatchParseError)) throw error;
          assert.ok(error.line >= 1 && error.line <= text.split("\n").length + 1);
        }
      }
    }),
    { numRuns: 3000 },
  );
});

Deno.test("C16.2 located hunks never overlap and come back ascending, or fail with a PatchLocateError", () => {
  const lineArb = fc.constantFrom("a", "b", " a", "a ", "c", "", "a\u2013b", "a-b");
  fc.assert(
    fc.property(
      fc.array(lineArb, { maxLength: 12 }),
      fc.array(fc.array(pieceArb, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
      (lines, bodies) => {
        const text = [
          "*** Begin Patch",
          "*** Update File: f",
          ...bodies.flatMap((body) => ["@@", ...body.filter((l) => /^[ +-]/.test(l))]),
          "*** End Patch",
        ].join("\n");
        let hunks;
        try {
          hunks = update(text).hunks;
        } catch {
          return; // not a patch; the parser test above covers it
        }
        try {
          const placed = locateHunks(lines, hunks);
          let end = 0;
          for (const { start, length } of placed) {
            assert.ok(start >= end && start + length <= lines.length, JSON.stringify(placed));
            end = start + length;
          }
        } catch (error) {
          if (!(error instanceof PatchLocateError)) throw error;
        }
      },
    ),
    { numRuns: 3000 },
  );
});
