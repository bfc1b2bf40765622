// CONTRACT C11: every footer states the files searched; a search that searched nothing says so;
// "matching lines" in every mode; `offset` windows and out-of-range; C9.3 glob lists, `!`
// exclusions and a leading `/` in grep's `glob`. On both providers.

import { deepEqual, equal } from "node:assert/strict";
import { repeatBudgetMessage } from "../../src/render/search_render.ts";
import { expect, forEachProvider, outcome } from "../_sandbox.ts";

function grepText(path: string, lines: string[], footer: string): string {
  const body = lines.length ? lines.join("\n") + "\n" : "";
  return `<path>${path}</path>\n<type>grep</type>\n<content>\n${body}\n${footer}\n</content>`;
}

const TREE = {
  "src/a.ts": "x 404\ny\n404 z\n",
  "src/a.test.ts": "404\n",
  "src/b.ts": "none\n",
  "docs/c.md": "404 md\n",
  ".hidden/d.ts": "404\n",
  "bin.dat": new Uint8Array([0x34, 0x30, 0x34, 0, 1]),
};

forEachProvider(
  "C9.3/C11: grep glob lists and ! exclusions; footers count the files searched",
  TREE,
  async (box) => {
    await expect(
      box,
      "grep",
      { pattern: "404", glob: ["*.ts", "!*.test.ts"] },
      grepText(
        ".",
        ["src/a.ts", "1: x 404", "3: 404 z"],
        "(2 matching lines in 1 file; 2 files searched)",
      ),
    );
    // Only exclusions: every other file is taken (the binary one is skipped, not counted).
    await expect(
      box,
      "grep",
      { pattern: "404", glob: "!*.test.ts", output_mode: "files_with_matches" },
      grepText(".", ["docs/c.md", "src/a.ts"], '(2 files match "404"; 3 files searched)'),
    );
    await expect(
      box,
      "grep",
      { pattern: "404", glob: ["*.md", "*.ts"], output_mode: "count" },
      grepText(
        ".",
        ["docs/c.md: 1", "src/a.test.ts: 1", "src/a.ts: 2"],
        "(4 matching lines in 3 files; 4 files searched)",
      ),
    );
    // A leading / is the search directory.
    await expect(
      box,
      "grep",
      { pattern: "404", glob: "/src/*.ts", output_mode: "files_with_matches" },
      grepText(".", ["src/a.test.ts", "src/a.ts"], '(2 files match "404"; 3 files searched)'),
    );
    await expect(
      box,
      "grep",
      { pattern: "nothing", glob: "*.ts" },
      grepText(".", [], '(No matches for "nothing"; 3 files searched)'),
    );
  },
);

forEachProvider(
  "C11: a search that searched no file says so and points at path and glob",
  TREE,
  async (box) => {
    const none = '(No matches for "404"; no files were searched, so check path and glob)';
    await expect(box, "grep", { pattern: "404", glob: "*.py" }, grepText(".", [], none));
    await expect(box, "grep", { pattern: "404", glob: ["*.py", "!*.ts"] }, grepText(".", [], none));
    await expect(
      box,
      "grep",
      { pattern: "404", glob: "*.py", output_mode: "count" },
      grepText(".", [], none),
    );
    await expect(
      box,
      "grep",
      { pattern: "404", path: "src/a.ts", glob: "*.md" },
      grepText("src/a.ts", [], none),
    );
    await box.write("empty/.only-hidden", "404\n");
    await expect(box, "grep", { pattern: "404", path: "empty" }, grepText("empty", [], none));
  },
);

const PAGED = {
  "a.txt": "hit 1\nhit 2\n",
  "b.txt": "no\nhit 3\n",
  "c.txt": "hit 4\nx\nhit 5\n",
  "d.txt": "none\n",
};

forEachProvider("C11: grep offset pages matching lines in content mode", PAGED, async (box) => {
  const two = box.toolsWith({ config: { grepMaxMatches: 2 } });
  const run = async (args: Record<string, unknown>) =>
    outcome(box, await two.execute("grep", { pattern: "hit", ...args }));
  deepEqual(await run({}), [
    grepText(
      ".",
      ["a.txt", "1: hit 1", "2: hit 2"],
      "(Showing matching lines 1-2 of 5 in 3 files; 4 files searched. Use offset=3 to continue.)",
    ),
    undefined,
  ]);
  deepEqual(await run({ offset: 3 }), [
    grepText(
      ".",
      ["b.txt", "2: hit 3", "", "c.txt", "1: hit 4"],
      "(Showing matching lines 3-4 of 5 in 3 files; 4 files searched. Use offset=5 to continue.)",
    ),
    undefined,
  ]);
  deepEqual(await run({ offset: 5 }), [
    grepText(
      ".",
      ["c.txt", "3: hit 5"],
      "(Showing matching lines 5-5 of 5 in 3 files; 4 files searched.)",
    ),
    undefined,
  ]);
  deepEqual(await run({ offset: 6 }), [
    "Error: offset 6 is out of range (5 matching lines in 3 files; 4 files searched)",
    "FS_OFFSET_OUT_OF_RANGE",
  ]);
  // Context around the first shown line, never the lines of the skipped matches.
  deepEqual(await run({ offset: 5, context: 1 }), [
    grepText(
      ".",
      ["c.txt", "2- x", "3: hit 5"],
      "(Showing matching lines 5-5 of 5 in 3 files; 4 files searched.)",
    ),
    undefined,
  ]);
  const value = (await two.execute("grep", { pattern: "hit", offset: 4 })).value;
  deepEqual(value, {
    path: box.root,
    pattern: "hit",
    matches: [
      { path: box.path("c.txt"), line: 1, text: "hit 4" },
      { path: box.path("c.txt"), line: 3, text: "hit 5" },
    ],
    totalMatches: 5,
    totalFiles: 3,
  });
});

forEachProvider(
  "C11: grep offset pages files in the files_with_matches and count modes",
  PAGED,
  async (box) => {
    const one = box.toolsWith({ config: { globMaxFiles: 1 } });
    const run = async (args: Record<string, unknown>) =>
      outcome(box, await one.execute("grep", { pattern: "hit", ...args }));
    deepEqual(await run({ output_mode: "files_with_matches", offset: 2 }), [
      grepText(
        ".",
        ["b.txt"],
        '(Showing files 2-2 of 3 matching "hit"; 4 files searched. Use offset=3 to continue.)',
      ),
      undefined,
    ]);
    deepEqual(await run({ output_mode: "count", offset: 3 }), [
      grepText(".", ["c.txt: 2"], '(Showing files 3-3 of 3 matching "hit"; 4 files searched.)'),
      undefined,
    ]);
    deepEqual(await run({ output_mode: "files_with_matches", offset: 4 }), [
      'Error: offset 4 is out of range (3 files match "hit"; 4 files searched)',
      "FS_OFFSET_OUT_OF_RANGE",
    ]);
    deepEqual(await run({ output_mode: "count", offset: 4 }), [
      "Error: offset 4 is out of range (5 matching lines in 3 files; 4 files searched)",
      "FS_OFFSET_OUT_OF_RANGE",
    ]);
    // Offset 1 with everything shown: the plain footers, singular forms included.
    await expect(
      box,
      "grep",
      { pattern: "hit 3", output_mode: "count" },
      grepText(".", ["b.txt: 1"], "(1 matching line in 1 file; 4 files searched)"),
    );
    await expect(
      box,
      "grep",
      { pattern: "hit 3", path: "b.txt", output_mode: "files_with_matches" },
      grepText("b.txt", ["b.txt"], '(1 file matches "hit 3"; 1 file searched)'),
    );
  },
);

forEachProvider(
  "C12.12: a construct RE2 lacks is named; other syntax errors keep the engine's message",
  {},
  async (box) => {
    const lacks = (construct: string) =>
      `Error: invalid pattern: ${construct} is not supported (RE2 syntax: no look-around, no back-references, repeat counts up to 1000)`;
    const cases: [string, string][] = [
      ["foo(?=bar)", lacks("(?=")],
      ["foo(?!bar)", lacks("(?!")],
      ["(?<=a)b", lacks("(?<=")],
      ["(?<!a)b", lacks("(?<!")],
      ["(\\w+) \\1", lacks("\\1")],
      ["a{1001}", lacks("{1001}")],
      ["a{2,5000}", lacks("{2,5000}")],
      // C11: within-limit counts whose nesting exceeds the budget name the total and the limit.
      ["(a{60}){20}", `Error: ${repeatBudgetMessage(1200)}`],
      ["^(?:.{1000}){60}", `Error: ${repeatBudgetMessage(60000)}`],
      ["((a{10}){10}b{5}){11}", `Error: ${repeatBudgetMessage(1100)}`],
      ["a(b", "Error: invalid pattern: error parsing regexp: missing closing ): `a(b`"],
    ];
    for (const [pattern, content] of cases) {
      await expect(box, "grep", { pattern }, content, "FS_INVALID_ARGUMENT");
    }
    equal(
      repeatBudgetMessage(60000),
      "invalid pattern: its nested repeat counts multiply to 60000, over RE2's limit of 1000 (nesting included); use smaller counts or a shorter pattern",
    );
    // Escaped, the same characters are literal and fine.
    await expect(
      box,
      "grep",
      { pattern: "\\(\\?=[{2000}]" },
      grepText(
        ".",
        [],
        '(No matches for "\\\\(\\\\?=[{2000}]"; no files were searched, so check path and glob)',
      ),
    );
  },
);
