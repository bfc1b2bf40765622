// CONTRACT C9.3 (glob lists, `!` exclusions, a leading `/`) and C10 (`sort`, `offset`, the
// windowed footers, sizes), on both providers.

import { deepEqual, equal } from "node:assert/strict";
import { formatSize } from "../../src/render/glob_render.ts";
import { expect, forEachProvider, outcome } from "../_sandbox.ts";

function globText(path: string, lines: string[], footer: string): string {
  const body = lines.length ? lines.join("\n") + "\n" : "";
  return `<path>${path}</path>\n<type>glob</type>\n<content>\n${body}\n${footer}\n</content>`;
}

const SIZED = {
  "small.txt": "12345",
  "mid/mid.txt": "m".repeat(2000),
  "big.lock": "b".repeat(264249),
  "tie.txt": "abcde",
};

forEachProvider(
  "C10: glob sort size lists the largest first with sizes, ties in path order",
  SIZED,
  async (box) => {
    await expect(
      box,
      "glob",
      { pattern: "**/*", sort: "size" },
      globText(".", [
        "big.lock (258.1 KiB)",
        "mid/mid.txt (2.0 KiB)",
        "small.txt (5 B)",
        "tie.txt (5 B)",
      ], '(4 files match "**/*")'),
    );
    const value = (await box.run("glob", { pattern: "*.txt", sort: "size" })).value;
    deepEqual(value, {
      path: box.root,
      pattern: "*.txt",
      files: [box.path("mid/mid.txt"), box.path("small.txt"), box.path("tie.txt")],
      total: 3,
    });
  },
);

forEachProvider(
  "C10: glob offset pages with 'Use offset=N to continue.' in every order",
  SIZED,
  async (box) => {
    const two = box.toolsWith({ config: { globMaxFiles: 2 } });
    const run = async (args: unknown) => outcome(box, await two.execute("glob", args));
    deepEqual(await run({ pattern: "**/*", sort: "size" }), [
      globText(
        ".",
        ["big.lock (258.1 KiB)", "mid/mid.txt (2.0 KiB)"],
        '(Showing files 1-2 of 4 matching "**/*", largest first. Use offset=3 to continue.)',
      ),
      undefined,
    ]);
    deepEqual(await run({ pattern: "**/*", sort: "size", offset: 3 }), [
      globText(
        ".",
        ["small.txt (5 B)", "tie.txt (5 B)"],
        '(Showing files 3-4 of 4 matching "**/*", largest first.)',
      ),
      undefined,
    ]);
    deepEqual(await run({ pattern: "**/*", offset: 2 }), [
      globText(
        ".",
        ["mid/mid.txt", "small.txt"],
        '(Showing files 2-3 of 4 matching "**/*", in path order. Use offset=4 to continue.)',
      ),
      undefined,
    ]);
    // Everything from offset 1 fits: the plain footer.
    await expect(
      box,
      "glob",
      { pattern: "*.txt", offset: 1 },
      globText(".", [
        "mid/mid.txt",
        "small.txt",
        "tie.txt",
      ], '(3 files match "*.txt")'),
    );
    // Past the last file.
    await expect(
      box,
      "glob",
      { pattern: "**/*", offset: 5 },
      'Error: offset 5 is out of range (4 files match "**/*")',
      "FS_OFFSET_OUT_OF_RANGE",
    );
    await expect(
      box,
      "glob",
      { pattern: "*.py", offset: 2 },
      'Error: offset 2 is out of range (0 files match "*.py")',
      "FS_OFFSET_OUT_OF_RANGE",
    );
    await expect(
      box,
      "glob",
      { pattern: "*.py", offset: 1 },
      globText(".", [], '(No files match "*.py")'),
    );
  },
);

forEachProvider("C10: glob sort modified lists the newest first", {}, async (box) => {
  for (const name of ["old.txt", "mid.txt", "new.txt"]) {
    await box.write(name, name);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  await expect(
    box,
    "glob",
    { pattern: "*.txt", sort: "modified" },
    globText(".", ["new.txt", "mid.txt", "old.txt"], '(3 files match "*.txt")'),
  );
  const one = box.toolsWith({ config: { globMaxFiles: 1 } });
  deepEqual(
    outcome(box, await one.execute("glob", { pattern: "*.txt", sort: "modified", offset: 2 })),
    [
      globText(
        ".",
        ["mid.txt"],
        '(Showing files 2-2 of 3 matching "*.txt", newest first. Use offset=3 to continue.)',
      ),
      undefined,
    ],
  );
});

const TS = { "src/a.ts": "", "src/a.test.ts": "", "b.ts": "", "c.md": "", "src/d/e.test.ts": "" };

forEachProvider(
  "C9.3: glob takes a list; ! excludes; the footer quotes the list as given",
  TS,
  async (box) => {
    await expect(
      box,
      "glob",
      { pattern: ["*.ts", "!*.test.ts"] },
      globText(".", ["b.ts", "src/a.ts"], '(2 files match ["*.ts","!*.test.ts"])'),
    );
    await expect(
      box,
      "glob",
      { pattern: ["*.md", "src/**/*.ts", "!src/d/**"] },
      globText(
        ".",
        ["c.md", "src/a.test.ts", "src/a.ts"],
        '(3 files match ["*.md","src/**/*.ts","!src/d/**"])',
      ),
    );
    const value = (await box.run("glob", { pattern: ["*.md"] })).value as { pattern: unknown };
    deepEqual(value.pattern, ["*.md"]);
    await expect(
      box,
      "glob",
      { pattern: ["!*.test.ts"] },
      'Error: pattern needs at least one pattern without "!"',
      "FS_INVALID_ARGUMENT",
    );
    await expect(
      box,
      "glob",
      { pattern: "!*.ts" },
      'Error: pattern needs at least one pattern without "!"',
      "FS_INVALID_ARGUMENT",
    );
  },
);

forEachProvider(
  "C9.3: a leading / in a glob is the search directory, not the file system's root",
  TS,
  async (box) => {
    await expect(
      box,
      "glob",
      { pattern: "/src/*.ts" },
      globText(".", ["src/a.test.ts", "src/a.ts"], '(2 files match "/src/*.ts")'),
    );
    await expect(
      box,
      "glob",
      { pattern: "/*.ts", path: "src" },
      globText("src", ["src/a.test.ts", "src/a.ts"], '(2 files match "/*.ts")'),
    );
  },
);

forEachProvider("C10: glob validation — pattern lists, sort, offset, in order", TS, async (box) => {
  const list = "pattern must be a non-empty string or an array of 1 to 20 non-empty strings";
  const cases: [Record<string, unknown>, string][] = [
    [{ pattern: 3 }, "pattern must be a non-empty string"],
    [{ pattern: [] }, list],
    [{ pattern: ["*.ts", 1] }, list],
    [{ pattern: ["*.ts", ""] }, list],
    [{ pattern: Array(21).fill("*.ts") }, list],
    [{ pattern: [], path: "" }, list],
    [{ pattern: "*", path: "" }, "path must be a non-empty string when given"],
    [{ pattern: "*", sort: "name" }, 'sort must be one of "path", "size", "modified"'],
    [{ pattern: "*", sort: "name", offset: 0 }, 'sort must be one of "path", "size", "modified"'],
    [{ pattern: "*", offset: 0 }, "offset must be a positive integer"],
    [{ pattern: "*", offset: 1.5 }, "offset must be a positive integer"],
    [{ pattern: "!*", offset: 0 }, "offset must be a positive integer"],
  ];
  for (const [args, message] of cases) {
    await expect(box, "glob", args, `Error: ${message}`, "FS_INVALID_ARGUMENT");
  }
  equal((await box.run("glob", { pattern: "*", sort: null, offset: null })).isError, false);
  equal((await box.run("glob", { pattern: Array(20).fill("*.ts") })).isError, false);
});

Deno.test("C10: sizes are <n> B below 1024, else one decimal and KiB, MiB or GiB", () => {
  deepEqual(
    [0, 1023, 1024, 1536, 264249, 1048575, 1048576, 5 * 2 ** 30, 2 ** 40].map(formatSize),
    [
      "0 B",
      "1023 B",
      "1.0 KiB",
      "1.5 KiB",
      "258.1 KiB",
      "1.0 MiB",
      "1.0 MiB",
      "5.0 GiB",
      "1024.0 GiB",
    ],
  );
});
