// CONTRACT C10 (`glob`) and the shared search rules of C9 as glob shows them.

import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { failed, ok } from "../_helpers.ts";
import { sandbox } from "../_sandbox.ts";

function globText(path: string, lines: string[], footer: string): string {
  const body = lines.length ? lines.join("\n") + "\n" : "";
  return `<path>${path}</path>\n<type>glob</type>\n<content>\n${body}\n${footer}\n</content>`;
}

const TREE = {
  "src/a.ts": "a",
  "src/b.js": "b",
  "src/deep/c.ts": "c",
  "README.md": "r",
  "x.ts": "x",
};

Deno.test("C10: glob lists matching files in path order with the complete count", async () => {
  await using box = await sandbox("local", TREE);
  const { root, tools } = box;
  const result = await tools.execute("glob", { pattern: "*.ts" });
  equal(
    ok(result),
    globText(".", ["src/a.ts", "src/deep/c.ts", "x.ts"], '(3 files match "*.ts")'),
  );
  deepEqual(result.value, {
    path: root,
    pattern: "*.ts",
    files: [join(root, "src/a.ts"), join(root, "src/deep/c.ts"), join(root, "x.ts")],
    total: 3,
  });
});

Deno.test("C10: glob footers — none, singular, capped by count and by bytes", async () => {
  await using box = await sandbox("local", TREE);
  const { tools } = box;
  equal(
    ok(await tools.execute("glob", { pattern: "*.py" })),
    globText(".", [], '(No files match "*.py")'),
  );
  equal(
    ok(await tools.execute("glob", { pattern: "*.md" })),
    globText(".", ["README.md"], '(1 file matches "*.md")'),
  );
  const capped = box.toolsWith({ config: { globMaxFiles: 2 } });
  const result = await capped.execute("glob", { pattern: "**" });
  equal(
    ok(result),
    globText(
      ".",
      ["README.md", "src/a.ts"],
      '(Showing files 1-2 of 5 matching "**", in path order. Use offset=3 to continue.)',
    ),
  );
  equal((result.value as { files: string[] }).files.length, 2);
  // "README.md\n" is 10 bytes, "src/a.ts\n" 9: a cap of 18 fits only the first.
  const bytes = box.toolsWith({ config: { readMaxBytes: 18 } });
  equal(
    ok(await bytes.execute("glob", { pattern: "*.md", path: "." })),
    globText(".", ["README.md"], '(1 file matches "*.md")'),
  );
  equal(
    ok(await bytes.execute("glob", { pattern: "**" })),
    globText(
      ".",
      ["README.md"],
      '(Showing files 1-1 of 5 matching "**", in path order. Use offset=2 to continue.)',
    ),
  );
  const one = box.toolsWith({ config: { globMaxFiles: 1 } });
  equal(
    ok(await one.execute("glob", { pattern: "src/*.js" })),
    globText(".", ["src/b.js"], '(1 file matches "src/*.js")'),
  );
});

Deno.test("C10: glob validation messages", async () => {
  await using box = await sandbox("local", TREE);
  const { tools } = box;
  deepEqual(failed(await tools.execute("glob", {})), [
    "Error: pattern must be a non-empty string",
    "FS_INVALID_ARGUMENT",
  ]);
  deepEqual(failed(await tools.execute("glob", { pattern: "" })), [
    "Error: pattern must be a non-empty string",
    "FS_INVALID_ARGUMENT",
  ]);
  deepEqual(failed(await tools.execute("glob", { pattern: "*", path: "" })), [
    "Error: path must be a non-empty string when given",
    "FS_INVALID_ARGUMENT",
  ]);
  deepEqual(failed(await tools.execute("glob", { pattern: "*", path: 3 })), [
    "Error: path must be a non-empty string when given",
    "FS_INVALID_ARGUMENT",
  ]);
  equal(
    ok(await tools.execute("glob", { pattern: "*.md", path: null })).includes("README"),
    true,
  );
  deepEqual(failed(await tools.execute("glob", { pattern: "*", path: "a\0b" })), [
    "Error: path must not contain a NUL byte",
    "FS_INVALID_ARGUMENT",
  ]);
});

Deno.test("C10: glob errors — not found, not a directory, outside the roots", async () => {
  await using box = await sandbox("local", TREE);
  const { tools } = box;
  deepEqual(failed(await tools.execute("glob", { pattern: "*", path: "nope" })), [
    'Error: cannot glob "nope": not found',
    "FS_NOT_FOUND",
  ]);
  deepEqual(failed(await tools.execute("glob", { pattern: "*", path: "x.ts" })), [
    'Error: cannot glob "x.ts": not a directory',
    "FS_NOT_DIRECTORY",
  ]);
  deepEqual(failed(await tools.execute("glob", { pattern: "*", path: "/etc" })), [
    'Error: cannot glob "/etc": outside the permitted roots',
    "FS_OUTSIDE_ROOT",
  ]);
});

Deno.test("C10: glob with path shows the search directory and cwd-relative paths", async () => {
  await using box = await sandbox("local", TREE);
  const { root, tools } = box;
  equal(
    ok(await tools.execute("glob", { pattern: "*.ts", path: "src" })),
    globText("src", ["src/a.ts", "src/deep/c.ts"], '(2 files match "*.ts")'),
  );
  equal(
    ok(await tools.execute("glob", { pattern: "deep/*.ts", path: "src" })),
    globText("src", ["src/deep/c.ts"], '(1 file matches "deep/*.ts")'),
  );
  equal(
    ok(await tools.execute("glob", { pattern: "*.ts" }, { cwd: "src/deep" })),
    globText(".", ["c.ts"], '(1 file matches "*.ts")'),
  );
  equal(
    ok(
      await tools.execute("glob", { pattern: "a.ts", path: join(root, "src") }, {
        cwd: "src/deep",
      }),
    ),
    globText(join(root, "src"), [join(root, "src/a.ts")], '(1 file matches "a.ts")'),
  );
});

Deno.test("C9.3: glob syntax — anchored, **, ?, [..], {a,b}, case-sensitive", async () => {
  await using box = await sandbox("local", {
    "a.ts": "",
    "A.TS": "",
    "b.tsx": "",
    "d/a.ts": "",
    "d/e/f/a.ts": "",
    "ab/x.md": "",
  });
  const { root, tools } = box;
  const files = async (pattern: string) =>
    ((await tools.execute("glob", { pattern })).value as { files: string[] }).files
      .map((f) => f.slice(root.length + 1));
  deepEqual(await files("*.ts"), ["a.ts", "d/a.ts", "d/e/f/a.ts"]);
  deepEqual(await files("d/*.ts"), ["d/a.ts"]);
  deepEqual(await files("d/**/a.ts"), ["d/a.ts", "d/e/f/a.ts"]);
  deepEqual(await files("?.ts"), ["a.ts", "d/a.ts", "d/e/f/a.ts"]);
  deepEqual(await files("[ab].ts*"), ["a.ts", "b.tsx", "d/a.ts", "d/e/f/a.ts"]);
  deepEqual(await files("*.{tsx,md}"), ["ab/x.md", "b.tsx"]);
  deepEqual(await files("*.TS"), ["A.TS"]);
  deepEqual(await files("d*"), []);
  deepEqual(await files("a*/x.md"), ["ab/x.md"]);
});

Deno.test("C9.2: glob skips .git, hidden entries unless named, and symlinks", async () => {
  await using box = await sandbox("local", {
    ".git/config.ts": "",
    ".github/workflows/ci.yml": "",
    ".env": "",
    "src/.hidden.ts": "",
    "src/ok.ts": "",
    "target.ts": "",
  });
  const { root } = box;
  await Deno.symlink(join(root, "target.ts"), join(root, "src/link.ts"));
  await Deno.symlink(join(root, "src"), join(root, "linkdir"));
  const { tools } = box;
  const files = async (pattern: string, path?: string) =>
    ((await tools.execute("glob", { pattern, path })).value as { files: string[] }).files
      .map((f) => f.slice(root.length + 1));
  deepEqual(await files("*.ts"), ["src/ok.ts", "target.ts"]);
  deepEqual(await files(".github/**"), [".github/workflows/ci.yml"]);
  deepEqual(await files(".env"), [".env"]);
  deepEqual(await files("*"), ["src/ok.ts", "target.ts"]);
  deepEqual(await files("**/.hidden.ts"), ["src/.hidden.ts"]);
  // `.git` named as the search path is searched, like any hidden search path.
  deepEqual(await files("**/*", ".git"), [".git/config.ts"]);
  // A search path that is itself hidden is searched; one given as a link is followed (C3).
  deepEqual(await files("*", ".github"), [".github/workflows/ci.yml"]);
  deepEqual(await files("*.ts", "linkdir"), ["linkdir/ok.ts"]);
});

Deno.test("C9.2: glob applies .gitignore with git semantics, with or without .git", async () => {
  const tree = {
    ".gitignore": "*.log\n!keep.log\nbuild/\n/top.txt\n",
    "a.log": "",
    "keep.log": "",
    "build/out.js": "",
    "sub/build": "a file named build: a directory pattern does not match it",
    "top.txt": "",
    "sub/top.txt": "",
    "sub/.gitignore": "*.md\n!keep.log\n",
    "sub/x.md": "",
    "sub/keep.log": "",
    "sub/deeper/y.md": "",
    "y.md": "",
  };
  for (const withGit of [false, true]) {
    await using box = await sandbox(
      "local",
      withGit ? { ...tree, ".git/HEAD": "", "sub/.git/HEAD": "" } : tree,
    );
    const { root, tools } = box;
    const files = async (pattern: string, path?: string) =>
      ((await tools.execute("glob", { pattern, path })).value as { files: string[] }).files
        .map((f) => f.slice(root.length + 1));
    deepEqual(await files("**"), [
      "keep.log",
      "sub/build",
      "sub/keep.log",
      "sub/top.txt",
      "y.md",
    ]);
    // Rules of ancestors apply when searching below them.
    deepEqual(await files("**", "sub"), ["sub/build", "sub/keep.log", "sub/top.txt"]);
    deepEqual(await files("*.md", "sub/deeper"), []);
  }
});

Deno.test("C9.4: glob orders paths by UTF-16 code units", async () => {
  await using box = await sandbox("local", {
    "a/b": "",
    "a.b": "",
    "B": "",
    "a-b": "",
    "ä": "",
    "😀": "",
    "\uFF5E": "",
  });
  const { root, tools } = box;
  const files = ((await tools.execute("glob", { pattern: "**" })).value as { files: string[] })
    .files.map((f) => f.slice(root.length + 1));
  deepEqual(files, ["B", "a-b", "a.b", "a/b", "ä", "😀", "\uFF5E"]);
});

Deno.test("C3.9: glob shows an unsafe file name as a JSON string", async () => {
  await using box = await sandbox("local", { "ok.txt": "", "bad\n(No files match).txt": "" });
  const { tools } = box;
  equal(
    ok(await tools.execute("glob", { pattern: "*.txt" })),
    globText(".", ['"bad\\n(No files match).txt"', "ok.txt"], '(2 files match "*.txt")'),
  );
});

Deno.test("C9.6: an aborted glob gives FS_ABORTED", async () => {
  await using box = await sandbox("local", TREE);
  const { tools } = box;
  const controller = new AbortController();
  controller.abort();
  deepEqual(
    failed(await tools.execute("glob", { pattern: "*" }, { signal: controller.signal })),
    [
      'Error: cannot glob ".": aborted',
      "FS_ABORTED",
    ],
  );
});

Deno.test("C9.3: a glob over 1024 characters is refused before any walk (glob and grep)", async () => {
  await using box = await sandbox("local", TREE);
  const { tools } = box;
  const long = "*".repeat(1025);
  deepEqual(failed(await tools.execute("glob", { pattern: long })), [
    "Error: pattern must be at most 1024 characters",
    "FS_INVALID_ARGUMENT",
  ]);
  deepEqual(failed(await tools.execute("grep", { pattern: "a", glob: long })), [
    "Error: glob must be at most 1024 characters",
    "FS_INVALID_ARGUMENT",
  ]);
  equal(ok(await tools.execute("glob", { pattern: "*".repeat(1024) })).includes("x.ts"), true);
});
