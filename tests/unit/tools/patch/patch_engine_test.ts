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
  PatchLocateError,
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
