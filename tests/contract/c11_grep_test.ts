// CONTRACT C11 (`grep`) and the shared search rules of C9 as grep shows them.

import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { failed, granted, ok } from "../_helpers.ts";
import { sandbox } from "../_sandbox.ts";

function grepText(path: string, lines: string[], footer: string): string {
  const body = lines.length ? lines.join("\n") + "\n" : "";
  return `<path>${path}</path>\n<type>grep</type>\n<content>\n${body}\n${footer}\n</content>`;
}

const TREE = {
  "src/a.ts": "export function foo() {}\nconst x = foo();\n",
  "src/b.ts": "// nothing here\n",
  "lib/c.js": "foo\nbar\nFOO\n",
  "notes.md": "one foo\n",
};

Deno.test("C11: grep content mode groups lines by file in path order", async () => {
  await using box = await sandbox("local", TREE);
  const { root, tools } = box;
  const result = await tools.execute("grep", { pattern: "foo" });
  equal(
    ok(result),
    grepText(".", [
      "lib/c.js",
      "1: foo",
      "",
      "notes.md",
      "1: one foo",
      "",
      "src/a.ts",
      "1: export function foo() {}",
      "2: const x = foo();",
    ], "(4 matching lines in 3 files; 4 files searched)"),
  );
  deepEqual(result.value, {
    path: root,
    pattern: "foo",
    matches: [
      { path: join(root, "lib/c.js"), line: 1, text: "foo" },
      { path: join(root, "notes.md"), line: 1, text: "one foo" },
      { path: join(root, "src/a.ts"), line: 1, text: "export function foo() {}" },
      { path: join(root, "src/a.ts"), line: 2, text: "const x = foo();" },
    ],
    totalMatches: 4,
    totalFiles: 3,
  });
});

Deno.test("C11: grep footers — none, singular, ignore_case, glob filter", async () => {
  await using box = await sandbox("local", TREE);
  const { tools } = box;
  equal(
    ok(await tools.execute("grep", { pattern: "zzz" })),
    grepText(".", [], '(No matches for "zzz"; 4 files searched)'),
  );
  equal(
    ok(await tools.execute("grep", { pattern: "zzz", output_mode: "count" })),
    grepText(".", [], '(No matches for "zzz"; 4 files searched)'),
  );
  equal(
    ok(await tools.execute("grep", { pattern: "bar" })),
    grepText(".", ["lib/c.js", "2: bar"], "(1 matching line in 1 file; 4 files searched)"),
  );
  equal(
    ok(await tools.execute("grep", { pattern: "^foo$", ignore_case: true, path: "lib" })),
    grepText(
      "lib",
      ["lib/c.js", "1: foo", "3: FOO"],
      "(2 matching lines in 1 file; 1 file searched)",
    ),
  );
  equal(
    ok(await tools.execute("grep", { pattern: "foo", glob: "*.ts" })),
    grepText(".", [
      "src/a.ts",
      "1: export function foo() {}",
      "2: const x = foo();",
    ], "(2 matching lines in 1 file; 2 files searched)"),
  );
});

Deno.test("C11: grep files_with_matches and count modes, uncapped and capped", async () => {
  await using box = await sandbox("local", TREE);
  const { root, tools } = box;
  equal(
    ok(await tools.execute("grep", { pattern: "foo", output_mode: "files_with_matches" })),
    grepText(
      ".",
      ["lib/c.js", "notes.md", "src/a.ts"],
      '(3 files match "foo"; 4 files searched)',
    ),
  );
  equal(
    ok(await tools.execute("grep", { pattern: "bar", output_mode: "files_with_matches" })),
    grepText(".", ["lib/c.js"], '(1 file matches "bar"; 4 files searched)'),
  );
  const result = await tools.execute("grep", { pattern: "foo", output_mode: "count" });
  equal(
    ok(result),
    grepText(
      ".",
      ["lib/c.js: 1", "notes.md: 1", "src/a.ts: 2"],
      "(4 matching lines in 3 files; 4 files searched)",
    ),
  );
  deepEqual((result.value as { matches: unknown[] }).matches[2], {
    path: join(root, "src/a.ts"),
    line: 0,
    text: "2",
  });
  const capped = box.toolsWith({ config: { globMaxFiles: 1 } });
  equal(
    ok(await capped.execute("grep", { pattern: "foo", output_mode: "files_with_matches" })),
    grepText(
      ".",
      ["lib/c.js"],
      '(Showing files 1-1 of 3 matching "foo"; 4 files searched. Use offset=2 to continue.)',
    ),
  );
  const countCapped = await capped.execute("grep", { pattern: "foo", output_mode: "count" });
  equal(
    ok(countCapped),
    grepText(
      ".",
      ["lib/c.js: 1"],
      '(Showing files 1-1 of 3 matching "foo"; 4 files searched. Use offset=2 to continue.)',
    ),
  );
  equal((countCapped.value as { totalMatches: number }).totalMatches, 4);
  const oneFile = box.toolsWith({ config: { globMaxFiles: 1 } });
  equal(
    ok(await oneFile.execute("grep", { pattern: "bar", output_mode: "files_with_matches" })),
    grepText(".", ["lib/c.js"], '(1 file matches "bar"; 4 files searched)'),
  );
});

Deno.test("C9.7/C9.8: grep content capped by grepMaxMatches and by readMaxBytes", async () => {
  await using box = await sandbox("local", TREE);
  const { root } = box;
  const tools = box.toolsWith({ config: { grepMaxMatches: 1 } });
  const result = await tools.execute("grep", { pattern: "foo" });
  equal(
    ok(result),
    grepText(
      ".",
      ["lib/c.js", "1: foo"],
      "(Showing matching lines 1-1 of 4 in 3 files; 4 files searched. Use offset=2 to continue.)",
    ),
  );
  deepEqual(result.value, {
    path: root,
    pattern: "foo",
    matches: [{ path: join(root, "lib/c.js"), line: 1, text: "foo" }],
    totalMatches: 4,
    totalFiles: 3,
  });
  // "lib/c.js\n" + "1: foo\n" = 16 bytes; the next group needs "\n", "notes.md\n", "1: one foo\n".
  const bytes = box.toolsWith({ config: { readMaxBytes: 30 } });
  equal(
    ok(await bytes.execute("grep", { pattern: "foo" })),
    grepText(
      ".",
      ["lib/c.js", "1: foo"],
      "(Showing matching lines 1-1 of 4 in 3 files; 4 files searched. Use offset=2 to continue.)",
    ),
  );
  // A path line is never rendered without a line of its group.
  const tiny = box.toolsWith({ config: { readMaxBytes: 10 } });
  equal(
    ok(await tiny.execute("grep", { pattern: "bar" })),
    grepText(
      ".",
      [],
      "(Showing matching lines 1-0 of 1 in 1 file; 4 files searched. Use offset=1 to continue.)",
    ),
  );
});

Deno.test("C11: grep context lines, merging of touching groups and -- separators", async () => {
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
  lines[2] = "hit 3";
  lines[5] = "hit 6";
  lines[15] = "hit 16";
  await using box = await sandbox("local", { "f.txt": lines.join("\n") + "\n", "g.txt": "hit\n" });
  const { tools } = box;
  equal(
    ok(await tools.execute("grep", { pattern: "hit", context: 2 })),
    grepText(".", [
      "f.txt",
      "1- line 1",
      "2- line 2",
      "3: hit 3",
      "4- line 4",
      "5- line 5",
      "6: hit 6",
      "7- line 7",
      "8- line 8",
      "--",
      "14- line 14",
      "15- line 15",
      "16: hit 16",
      "17- line 17",
      "18- line 18",
      "",
      "g.txt",
      "1: hit",
    ], "(4 matching lines in 2 files; 2 files searched)"),
  );
  // Touching groups (no line between them) merge: lines 4-5 after 3 reach 6's before-context.
  equal(
    ok(await tools.execute("grep", { pattern: "hit [36]$", context: 1, path: "f.txt" })),
    grepText("f.txt", [
      "f.txt",
      "2- line 2",
      "3: hit 3",
      "4- line 4",
      "5- line 5",
      "6: hit 6",
      "7- line 7",
    ], "(2 matching lines in 1 file; 1 file searched)"),
  );
});

Deno.test("C11: grep validation messages, in order", async () => {
  await using box = await sandbox("local", TREE);
  const { tools } = box;
  const cases: [Record<string, unknown>, string][] = [
    [{}, "pattern must be a non-empty string"],
    [{ pattern: "" }, "pattern must be a non-empty string"],
    [{ pattern: "a", path: "" }, "path must be a non-empty string when given"],
    [{ pattern: "a", glob: "" }, "glob must be a non-empty string when given"],
    [{ pattern: "a", glob: 1 }, "glob must be a non-empty string when given"],
    [
      { pattern: "a", glob: [] },
      "glob must be a non-empty string or an array of 1 to 20 non-empty strings",
    ],
    [
      { pattern: "a", glob: ["*.ts", ""] },
      "glob must be a non-empty string or an array of 1 to 20 non-empty strings",
    ],
    [
      { pattern: "a", glob: Array(21).fill("*.ts") },
      "glob must be a non-empty string or an array of 1 to 20 non-empty strings",
    ],
    [{ pattern: "a", ignore_case: "yes" }, "ignore_case must be a boolean when given"],
    [
      { pattern: "a", output_mode: "lines" },
      'output_mode must be one of "content", "files_with_matches", "count"',
    ],
    [{ pattern: "a", context: 11 }, "context must be an integer from 0 to 10"],
    [{ pattern: "a", context: -1 }, "context must be an integer from 0 to 10"],
    [{ pattern: "a", context: 1.5 }, "context must be an integer from 0 to 10"],
    [{ pattern: "a", offset: 0 }, "offset must be a positive integer"],
    [{ pattern: "a", offset: "2" }, "offset must be a positive integer"],
    [{ pattern: "a(b", offset: 0 }, "offset must be a positive integer"],
    [{ pattern: "a(b" }, "invalid pattern: error parsing regexp: missing closing ): `a(b`"],
    [
      { pattern: "(?=a)" },
      "invalid pattern: (?= is not supported (RE2 syntax: no look-around, no back-references, repeat counts up to 1000)",
    ],
    [{ pattern: "a(b", path: "" }, "path must be a non-empty string when given"],
    [{ pattern: "a", path: "x\0" }, "path must not contain a NUL byte"],
  ];
  for (const [args, message] of cases) {
    deepEqual(failed(await tools.execute("grep", args)), [
      `Error: ${message}`,
      "FS_INVALID_ARGUMENT",
    ], JSON.stringify(args));
  }
  // null counts as absent for every optional argument.
  assert(
    !(await tools.execute("grep", {
      pattern: "foo",
      path: null,
      glob: null,
      ignore_case: null,
      output_mode: null,
      context: null,
      offset: null,
    })).isError,
  );
});

Deno.test("C11: grep errors — not found, not a regular file, binary, outside the roots", async () => {
  await using box = await sandbox("local", {
    ...TREE,
    "bin.dat": new Uint8Array([0x66, 0x6f, 0x6f, 0, 1]),
  });
  const { root, tools } = box;
  deepEqual(failed(await tools.execute("grep", { pattern: "a", path: "nope" })), [
    'Error: cannot grep "nope": not found',
    "FS_NOT_FOUND",
  ]);
  deepEqual(failed(await tools.execute("grep", { pattern: "a", path: "bin.dat" })), [
    'Error: cannot grep "bin.dat": binary file',
    "FS_BINARY",
  ]);
  deepEqual(failed(await tools.execute("grep", { pattern: "a", path: "/etc" })), [
    'Error: cannot grep "/etc": outside the permitted roots',
    "FS_OUTSIDE_ROOT",
  ]);
  // In a directory search the binary file is skipped.
  equal(
    ok(await tools.execute("grep", { pattern: "foo", output_mode: "files_with_matches" })),
    grepText(
      ".",
      ["lib/c.js", "notes.md", "src/a.ts"],
      '(3 files match "foo"; 4 files searched)',
    ),
  );
  if (Deno.build.os !== "windows" && granted("run")) {
    const fifo = join(root, "pipe");
    const mk = new Deno.Command("mkfifo", { args: [fifo] });
    if ((await mk.output()).success) {
      deepEqual(failed(await tools.execute("grep", { pattern: "a", path: "pipe" })), [
        'Error: cannot grep "pipe": not a regular file',
        "FS_NOT_REGULAR_FILE",
      ]);
    }
  }
});

Deno.test("C11: grep on a single file — hidden or ignored, glob applies to its name", async () => {
  await using box = await sandbox("local", {
    ".gitignore": "secret.txt\n",
    "secret.txt": "foo\n",
    ".hidden": "foo\n",
  });
  const { tools } = box;
  equal(
    ok(await tools.execute("grep", { pattern: "foo" })),
    grepText(
      ".",
      [],
      '(No matches for "foo"; no files were searched, so check path and glob)',
    ),
  );
  equal(
    ok(await tools.execute("grep", { pattern: "foo", path: "secret.txt" })),
    grepText(
      "secret.txt",
      ["secret.txt", "1: foo"],
      "(1 matching line in 1 file; 1 file searched)",
    ),
  );
  equal(
    ok(await tools.execute("grep", { pattern: "foo", path: ".hidden" })),
    grepText(".hidden", [".hidden", "1: foo"], "(1 matching line in 1 file; 1 file searched)"),
  );
  equal(
    ok(await tools.execute("grep", { pattern: "foo", path: "secret.txt", glob: "*.md" })),
    grepText(
      "secret.txt",
      [],
      '(No matches for "foo"; no files were searched, so check path and glob)',
    ),
  );
  equal(
    ok(await tools.execute("grep", { pattern: "foo", path: "secret.txt", glob: "*.txt" })),
    grepText(
      "secret.txt",
      ["secret.txt", "1: foo"],
      "(1 matching line in 1 file; 1 file searched)",
    ),
  );
});

Deno.test("C11: grep lines as read sees them — CRLF, BOM, invalid UTF-8, no final newline", async () => {
  await using box = await sandbox("local", {
    "crlf.txt": "a foo\r\nb\r\nfoo$\r\n",
    "bom.txt": "\uFEFFfoo first\n",
    "bad.txt": new Uint8Array([0x66, 0x6f, 0x6f, 0xff, 0x0a]),
    "tail.txt": "x\nfoo",
  });
  const { tools } = box;
  equal(
    ok(await tools.execute("grep", { pattern: "foo" })),
    grepText(".", [
      "bad.txt",
      "1: foo\uFFFD",
      "",
      "bom.txt",
      "1: foo first",
      "",
      "crlf.txt",
      "1: a foo",
      "3: foo$",
      "",
      "tail.txt",
      "2: foo",
    ], "(5 matching lines in 4 files; 4 files searched)"),
  );
  equal(
    ok(await tools.execute("grep", { pattern: "^foo", path: "bom.txt" })),
    grepText(
      "bom.txt",
      ["bom.txt", "1: foo first"],
      "(1 matching line in 1 file; 1 file searched)",
    ),
  );
  equal(
    ok(await tools.execute("grep", { pattern: "foo\\$$", path: "crlf.txt" })),
    grepText("crlf.txt", ["crlf.txt", "3: foo$"], "(1 matching line in 1 file; 1 file searched)"),
  );
});

Deno.test("C11: grep truncates long lines as read does", async () => {
  await using box = await sandbox("local", { "long.txt": "foo" + "x".repeat(20) + "\n" });
  const tools = box.toolsWith({ config: { readMaxLineLength: 5 } });
  equal(
    ok(await tools.execute("grep", { pattern: "foo" })),
    grepText(
      ".",
      ["long.txt", "1: fooxx... (line truncated to 5 chars)"],
      "(1 matching line in 1 file; 1 file searched)",
    ),
  );
});

Deno.test("C11: grep RE2 semantics — classes, \\b, Unicode classes, anchors per line", async () => {
  await using box = await sandbox("local", { "u.txt": "Straße\nfoobar\nfoo bar\n12 ab\n" });
  const { tools } = box;
  const lines = async (pattern: string) =>
    ((await tools.execute("grep", { pattern })).value as { matches: { line: number }[] })
      .matches.map((m) => m.line);
  deepEqual(await lines("\\bbar\\b"), [3]);
  deepEqual(await lines("^\\d+ "), [4]);
  deepEqual(await lines("\\p{L}+ße$"), [1]);
  deepEqual(await lines("o\\sb"), [3]);
  deepEqual(await lines("r\\s+1"), []); // never across lines
  deepEqual(await lines("(?i)STRASSE|FOOBAR"), [2]);
});

Deno.test("C11: grep's ReDoS guard — (a+)+$ over long a…! lines finishes quickly", async () => {
  const line = "a".repeat(5000) + "!";
  await using box = await sandbox("local", { "evil.txt": (line + "\n").repeat(200) });
  const { tools } = box;
  // Exponential in a backtracking engine at 30 characters; linear here. No timing assertion:
  // the test would never finish with a backtracking engine.
  equal(
    ok(await tools.execute("grep", { pattern: "(a+)+$" })),
    grepText(".", [], '(No matches for "(a+)+$"; 1 file searched)'),
  );
});

Deno.test("C9.2: grep skips .git, hidden files, symlinks and .gitignored paths", async () => {
  await using box = await sandbox("local", {
    ".git/x": "foo\n",
    ".hidden/y": "foo\n",
    ".gitignore": "ignored/\n",
    "ignored/z": "foo\n",
    "real.txt": "foo\n",
  });
  const { root } = box;
  await Deno.symlink(join(root, "real.txt"), join(root, "link.txt"));
  const { tools } = box;
  equal(
    ok(await tools.execute("grep", { pattern: "foo" })),
    grepText(".", ["real.txt", "1: foo"], "(1 matching line in 1 file; 1 file searched)"),
  );
  equal(
    ok(await tools.execute("grep", { pattern: "foo", glob: ".hidden/*" })),
    grepText(".", [".hidden/y", "1: foo"], "(1 matching line in 1 file; 1 file searched)"),
  );
});

Deno.test("C3.9: grep shows an unsafe file name as a JSON string", async () => {
  await using box = await sandbox("local", { "a\u202Eb.txt": "foo\n" });
  const { tools } = box;
  equal(
    ok(await tools.execute("grep", { pattern: "foo" })),
    grepText(
      ".",
      [JSON.stringify("a\u202Eb.txt"), "1: foo"],
      "(1 matching line in 1 file; 1 file searched)",
    ),
  );
});

Deno.test("C9.6: a files_with_matches grep records no read observation; an aborted grep gives FS_ABORTED", async () => {
  await using box = await sandbox("local", { "a.txt": "foo\n" });
  const { tools } = box;
  // (A content view is an observation: tests/contract/c9_6_grep_observation_test.ts.)
  ok(
    await tools.execute("grep", {
      pattern: "foo",
      path: "a.txt",
      output_mode: "files_with_matches",
    }),
  );
  deepEqual(
    failed(
      await tools.execute("edit", { file_path: "a.txt", old_string: "foo", new_string: "x" }),
    )[1],
    "FS_NOT_OBSERVED",
  );
  const controller = new AbortController();
  controller.abort();
  deepEqual(
    failed(await tools.execute("grep", { pattern: "foo" }, { signal: controller.signal })),
    [
      'Error: cannot grep ".": aborted',
      "FS_ABORTED",
    ],
  );
});

Deno.test("C11: grep streams a file over readStreamMinSize with the same result", async () => {
  const body = Array.from({ length: 5000 }, (_, i) => i % 1000 === 7 ? `hit ${i + 1}` : `l${i + 1}`)
    .join("\r\n");
  await using box = await sandbox("local", { "big.txt": "\uFEFF" + body });
  const whole = await box.toolsWith().execute("grep", { pattern: "hit", context: 1 });
  const streamed = await box.toolsWith(
    { config: { readStreamMinSize: 1 } },
    { chunkSize: 64 } as never,
  )
    .execute("grep", { pattern: "hit", context: 1 });
  equal(ok(streamed), ok(whole));
  equal((whole.value as { totalMatches: number }).totalMatches, 5);
});

Deno.test("C9.4: grep reports files in path order while the walk streams, nested names around '/'", async () => {
  const names = ["a/b/c", "a/b.c", "a/b-c/d", "a.b/x", "a0", "a-/y", "a/b/c0/z", "B/q", "a/bc"];
  const tree = Object.fromEntries(names.map((n) => [n, "hit\n"]));
  await using box = await sandbox("local", tree);
  const { root, tools } = box;
  const result = await tools.execute("grep", { pattern: "hit" });
  const paths = (result.value as { matches: { path: string }[] }).matches
    .map((m) => m.path.slice(root.length + 1));
  deepEqual(paths, [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  const n = names.length;
  assert(
    ok(result).endsWith(
      `(${n} matching lines in ${n} files; ${n} files searched)\n</content>`,
    ),
  );
});
