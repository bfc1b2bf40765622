// CONTRACT C10 and C11 (issue 32 item 2): `limit` on `glob` and `grep` shows at most that many
// files (or matching lines in grep's content mode), never more than the caps; the windowed
// footer applies whenever more remain; `limit must be a positive integer`. Both providers.

import { deepEqual, equal } from "node:assert/strict";
import { expect, forEachProvider, outcome } from "../_sandbox.ts";

function view(type: "glob" | "grep", lines: string[], footer: string): string {
  const body = lines.length ? lines.join("\n") + "\n" : "";
  return `<path>.</path>\n<type>${type}</type>\n<content>\n${body}\n${footer}\n</content>`;
}

const TREE = {
  "a.ts": "hit 1\nmiss\nhit 2\nhit 3\n",
  "b.ts": "hit 4\n",
  "c.ts": "miss\n",
  "d.ts": "hit 5\nhit 6\n",
  "big.bin": "x".repeat(5000),
  "e.ts": "e".repeat(3000),
};

forEachProvider(
  "C10: glob limit shows that many files, with the windowed footer while more remain",
  TREE,
  async (box) => {
    await expect(
      box,
      "glob",
      { pattern: "*.ts", limit: 2 },
      view(
        "glob",
        ["a.ts", "b.ts"],
        '(Showing files 1-2 of 5 matching "*.ts", in path order. Use offset=3 to continue.)',
      ),
    );
    await expect(
      box,
      "glob",
      { pattern: "*.ts", offset: 3, limit: 2 },
      view(
        "glob",
        ["c.ts", "d.ts"],
        '(Showing files 3-4 of 5 matching "*.ts", in path order. Use offset=5 to continue.)',
      ),
    );
    await expect(
      box,
      "glob",
      { pattern: "*.ts", offset: 4, limit: 2 },
      view("glob", ["d.ts", "e.ts"], '(Showing files 4-5 of 5 matching "*.ts", in path order.)'),
    );
    // Every file shown from offset 1: the plain footer, whatever the limit.
    for (const limit of [5, 6, 1000, null]) {
      await expect(
        box,
        "glob",
        { pattern: "*.ts", limit },
        view("glob", ["a.ts", "b.ts", "c.ts", "d.ts", "e.ts"], '(5 files match "*.ts")'),
      );
    }
    // "The largest file": one line, not the whole listing (issue 32 item 2).
    await expect(
      box,
      "glob",
      { pattern: "**/*", sort: "size", limit: 1 },
      view(
        "glob",
        ["big.bin (4.9 KiB)"],
        '(Showing files 1-1 of 6 matching "**/*", largest first. Use offset=2 to continue.)',
      ),
    );
    const value = (await box.run("glob", { pattern: "*.ts", limit: 2 })).value;
    deepEqual(value, {
      path: box.root,
      pattern: "*.ts",
      files: [box.path("a.ts"), box.path("b.ts")],
      total: 5,
    });
  },
);

forEachProvider(
  "C10: a glob limit over globMaxFiles shows globMaxFiles files",
  TREE,
  async (box) => {
    const two = box.toolsWith({ config: { globMaxFiles: 2 } });
    deepEqual(outcome(box, await two.execute("glob", { pattern: "*.ts", limit: 3 })), [
      view(
        "glob",
        ["a.ts", "b.ts"],
        '(Showing files 1-2 of 5 matching "*.ts", in path order. Use offset=3 to continue.)',
      ),
      undefined,
    ]);
  },
);

forEachProvider(
  "C11: grep limit shows that many matching lines in content mode",
  TREE,
  async (box) => {
    await expect(
      box,
      "grep",
      { pattern: "hit", limit: 2 },
      view(
        "grep",
        ["a.ts", "1: hit 1", "3: hit 2"],
        "(Showing matching lines 1-2 of 6 in 3 files; 6 files searched. Use offset=3 to continue.)",
      ),
    );
    await expect(
      box,
      "grep",
      { pattern: "hit", offset: 3, limit: 2 },
      view(
        "grep",
        ["a.ts", "4: hit 3", "", "b.ts", "1: hit 4"],
        "(Showing matching lines 3-4 of 6 in 3 files; 6 files searched. Use offset=5 to continue.)",
      ),
    );
    await expect(
      box,
      "grep",
      { pattern: "hit", offset: 5, limit: 5 },
      view(
        "grep",
        ["d.ts", "1: hit 5", "2: hit 6"],
        "(Showing matching lines 5-6 of 6 in 3 files; 6 files searched.)",
      ),
    );
    await expect(
      box,
      "grep",
      { pattern: "hit", limit: 6 },
      view(
        "grep",
        [
          "a.ts",
          "1: hit 1",
          "3: hit 2",
          "4: hit 3",
          "",
          "b.ts",
          "1: hit 4",
          "",
          "d.ts",
          "1: hit 5",
          "2: hit 6",
        ],
        "(6 matching lines in 3 files; 6 files searched)",
      ),
    );
    const result = await box.run("grep", { pattern: "hit", limit: 1, context: 1 });
    equal(
      outcome(box, result)[0],
      view(
        "grep",
        ["a.ts", "1: hit 1", "2- miss"],
        "(Showing matching lines 1-1 of 6 in 3 files; 6 files searched. Use offset=2 to continue.)",
      ),
    );
    deepEqual((result.value as { matches: unknown[] }).matches, [
      { path: box.path("a.ts"), line: 1, text: "hit 1" },
    ]);
    // A limit over grepMaxMatches shows grepMaxMatches lines.
    const three = box.toolsWith({ config: { grepMaxMatches: 3 } });
    deepEqual(outcome(box, await three.execute("grep", { pattern: "hit", limit: 5 })), [
      view(
        "grep",
        ["a.ts", "1: hit 1", "3: hit 2", "4: hit 3"],
        "(Showing matching lines 1-3 of 6 in 3 files; 6 files searched. Use offset=4 to continue.)",
      ),
      undefined,
    ]);
  },
);

forEachProvider(
  "C11: grep limit shows that many files in the files_with_matches and count modes",
  TREE,
  async (box) => {
    await expect(
      box,
      "grep",
      { pattern: "hit", output_mode: "files_with_matches", limit: 2 },
      view(
        "grep",
        ["a.ts", "b.ts"],
        '(Showing files 1-2 of 3 matching "hit"; 6 files searched. Use offset=3 to continue.)',
      ),
    );
    await expect(
      box,
      "grep",
      { pattern: "hit", output_mode: "count", offset: 2, limit: 1 },
      view(
        "grep",
        ["b.ts: 1"],
        '(Showing files 2-2 of 3 matching "hit"; 6 files searched. Use offset=3 to continue.)',
      ),
    );
    await expect(
      box,
      "grep",
      { pattern: "hit", output_mode: "count", limit: 3 },
      view(
        "grep",
        ["a.ts: 3", "b.ts: 1", "d.ts: 2"],
        "(6 matching lines in 3 files; 6 files searched)",
      ),
    );
    const two = box.toolsWith({ config: { globMaxFiles: 2 } });
    deepEqual(
      outcome(
        box,
        await two.execute("grep", { pattern: "hit", output_mode: "files_with_matches", limit: 3 }),
      ),
      [
        view(
          "grep",
          ["a.ts", "b.ts"],
          '(Showing files 1-2 of 3 matching "hit"; 6 files searched. Use offset=3 to continue.)',
        ),
        undefined,
      ],
    );
  },
);

forEachProvider(
  "C10/C11: limit must be a positive integer (after offset's check)",
  TREE,
  async (box) => {
    for (const tool of ["glob", "grep"]) {
      for (const limit of [0, -1, 1.5, "2", true, []]) {
        await expect(
          box,
          tool,
          { pattern: "*.ts", limit },
          "Error: limit must be a positive integer",
          "FS_INVALID_ARGUMENT",
        );
      }
      await expect(
        box,
        tool,
        { pattern: "*.ts", offset: 0, limit: 0 },
        "Error: offset must be a positive integer",
        "FS_INVALID_ARGUMENT",
      );
    }
  },
);

forEachProvider(
  "C9.6/C11: a limited grep content view counts as a read of the files it shows only",
  TREE,
  async (box) => {
    await box.run("grep", { pattern: "hit", limit: 3 }); // a.ts's three lines; b.ts not shown
    equal(
      (await box.run("edit", { file_path: "a.ts", old_string: "hit 1", new_string: "one" }))
        .content,
      "The file a.ts has been updated successfully.",
    );
    await expect(
      box,
      "edit",
      { file_path: "b.ts", old_string: "hit 4", new_string: "four" },
      'Error: cannot edit "b.ts": read it first',
      "FS_NOT_OBSERVED",
    );
  },
);
