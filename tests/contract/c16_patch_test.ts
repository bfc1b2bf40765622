// CONTRACT C16 (`patch`): the V4A envelope, all or nothing across files, hunk location with the
// C12.3 hints, line breaks and BOM kept, the policy, and the exact texts — on both providers.

import assert from "node:assert/strict";
import { createFsTools } from "../../mod.ts";
import { forEachProvider } from "../_sandbox.ts";
import { envelope, failingOn, failure, patchTools, readAll } from "./_patch_helpers.ts";
import { BOM, concat } from "./_shared.ts";

const FILES = {
  "a.ts": "export function checkName() {\n  return 1;\n}\n",
  "b.ts": "import { checkName } from './a.ts';\ncheckName();\n",
  "c.ts": "// uses checkName\nconst x = checkName();\n",
};

forEachProvider(
  "C16.1/C16.3 patch adds and updates files; one line per operation",
  FILES,
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "a.ts", "b.ts");
    const result = await tools.execute("patch", {
      patch: envelope(
        "*** Update File: a.ts",
        "@@",
        "-export function checkName() {",
        "+export function checkLabel() {",
        "*** Add File: docs/new.md",
        "+# New",
        "+",
        "*** Update File: b.ts",
        "@@",
        "-import { checkName } from './a.ts';",
        "-checkName();",
        "+import { checkLabel } from './a.ts';",
        "+checkLabel();",
      ),
    });
    assert.equal(result.content, "Updated a.ts\nAdded docs/new.md\nUpdated b.ts");
    assert.deepEqual(result.value, {
      operations: [
        { kind: "update", path: box.path("a.ts") },
        { kind: "add", path: box.path("docs/new.md") },
        { kind: "update", path: box.path("b.ts") },
      ],
    });
    assert.equal(await box.read("a.ts"), "export function checkLabel() {\n  return 1;\n}\n");
    assert.equal(await box.read("docs/new.md"), "# New\n\n");
    assert.equal(await box.read("b.ts"), "import { checkLabel } from './a.ts';\ncheckLabel();\n");
    // C16.3: observations at the new versions, so the next edit needs no read.
    const edit = await tools.execute("edit", {
      file_path: "docs/new.md",
      old_string: "# New",
      new_string: "# Newer",
    });
    assert.equal(edit.isError, false, edit.content);
  },
);

forEachProvider("C15.1 patch is opt-in: not in the default tools", {}, async (box) => {
  assert.deepEqual(box.tools.definitions.map((d) => d.name), [
    "list",
    "read",
    "write",
    "edit",
    "glob",
    "grep",
  ]);
  const result = await box.run("patch", { patch: envelope("*** Delete File: a") });
  assert.equal(result.error?.code, "FS_UNKNOWN_TOOL");
  const names = patchTools(box).definitions.map((d) => d.name);
  assert.deepEqual(names, ["read", "write", "edit", "patch"]);
});

forEachProvider("C16.1 patch refuses a malformed patch, naming the line", FILES, async (box) => {
  const tools = patchTools(box);
  assert.deepEqual(await failure(tools, ""), [
    "Error: patch must be a non-empty string",
    "FS_INVALID_ARGUMENT",
  ]);
  const cases: [string, string][] = [
    [
      "*** Update File: a.ts",
      'invalid patch at line 1: the patch must start with "*** Begin Patch"',
    ],
    [
      "*** Begin Patch\n*** Delete File: a.ts",
      'invalid patch at line 2: the patch must end with "*** End Patch"',
    ],
    [
      "*** Begin Patch\n*** End Patch",
      'invalid patch at line 2: the patch has no operations; start one with "*** Add File: <path>", "*** Delete File: <path>" or "*** Update File: <path>"',
    ],
    [
      envelope("*** Rename File: a.ts"),
      'invalid patch at line 2: expected "*** Add File: <path>", "*** Delete File: <path>" or "*** Update File: <path>", got "*** Rename File: a.ts"',
    ],
    [envelope("*** Delete File: "), 'invalid patch at line 2: "*** Delete File:" needs a path'],
    [
      envelope("*** Update File: a.ts"),
      'invalid patch at line 2: "*** Update File: a.ts" has no hunks',
    ],
    [
      envelope("*** Update File: a.ts", "@@", "return 1;"),
      'invalid patch at line 4: a hunk line starts with " " (context), "-" (removed) or "+" (added), got "return 1;"',
    ],
    [
      envelope("*** Update File: a.ts", "@@", "-a", "oops"),
      'invalid patch at line 5: expected "@@" before the next hunk, got "oops"',
    ],
    [
      envelope("*** Update File: a.ts", "@@ x", "*** End of File"),
      "invalid patch at line 4: the hunk has no lines",
    ],
  ];
  for (const [patch, message] of cases) {
    assert.deepEqual(await failure(tools, patch), [`Error: ${message}`, "FS_INVALID_ARGUMENT"]);
  }
  assert.equal(await box.read("a.ts"), FILES["a.ts"]);
});

forEachProvider(
  "C16.2 a hunk that is not found names the operation, file and hunk with the C12.3 hint",
  {
    ...FILES,
    "w.ts": "if (a) {\n    call(x,  y);\n}\n",
  },
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "a.ts", "b.ts", "w.ts");
    const first = "*** Update File: b.ts\n@@\n-checkName();\n+checkLabel();";
    assert.deepEqual(
      await failure(
        tools,
        envelope(first, "*** Update File: a.ts", "@@", "-  return 2;", "+  return 3;"),
      ),
      [
        // C16.2: the closest block, where one comes close.
        'Error: cannot patch "a.ts" (Update File, hunk 1 at patch line 7): the lines to replace were not found; lines 2-2 come closest, and line 2 there reads "  return 1;"',
        "FS_NO_MATCH",
      ],
    );
    assert.deepEqual(
      await failure(
        tools,
        envelope(
          "*** Update File: a.ts",
          "@@",
          "-  return 1;",
          "+  return 2;",
          "@@",
          "-2: }",
          "+}",
        ),
      ),
      [
        'Error: cannot patch "a.ts" (Update File, hunk 2 at patch line 6): the lines to replace were not found; remove the line numbers that read puts before each line',
        "FS_NO_MATCH",
      ],
    );
    assert.deepEqual(
      await failure(
        tools,
        envelope("*** Update File: w.ts", "@@", "-  call(x, y);", "+  call(y);"),
      ),
      [
        'Error: cannot patch "w.ts" (Update File, hunk 1 at patch line 3): the lines to replace were not found; line 2 matches except for whitespace, so copy the indentation exactly',
        "FS_NO_MATCH",
      ],
    );
    assert.deepEqual(
      await failure(
        tools,
        envelope("*** Update File: a.ts", "@@ function nowhere() {", "-  return 1;"),
      ),
      [
        'Error: cannot patch "a.ts" (Update File, hunk 1 at patch line 3): the anchor "@@ function nowhere() {" was not found; read the file again and copy that line exactly',
        "FS_NO_MATCH",
      ],
    );
    // Nothing changed: b.ts's hunk was fine but the patch is all or nothing.
    assert.equal(await box.read("b.ts"), FILES["b.ts"]);
  },
);

forEachProvider(
  "C16.2 patch locates ignoring trailing, then surrounding whitespace, and keeps the file's context",
  {
    "p.py": "def f():\n    x = 1   \n    return x\n",
  },
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "p.py");
    const result = await tools.execute("patch", {
      patch: envelope(
        "*** Update File: p.py",
        "@@ def f():",
        " x = 1",
        "-return x",
        "+    return x + 1",
      ),
    });
    assert.equal(result.content, "Updated p.py");
    assert.equal(await box.read("p.py"), "def f():\n    x = 1   \n    return x + 1\n");
  },
);

forEachProvider("C16.2 patch keeps CRLF line breaks and the BOM", {
  "crlf.txt": concat(BOM, "one\r\ntwo\r\nthree\r\n"),
}, async (box) => {
  const tools = patchTools(box);
  await readAll(box, tools, "crlf.txt");
  const result = await tools.execute("patch", {
    patch: envelope("*** Update File: crlf.txt", "@@", " one", "-two", "+2", "+2b"),
  });
  assert.equal(result.content, "Updated crlf.txt");
  assert.deepEqual(await box.bytes("crlf.txt"), concat(BOM, "one\r\n2\r\n2b\r\nthree\r\n"));
});

forEachProvider(
  "C16.2/C5 patch needs a read of every updated file at its current version",
  FILES,
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "a.ts");
    const update = (path: string) => `*** Update File: ${path}\n@@\n-checkName();\n+checkLabel();`;
    assert.deepEqual(
      await failure(
        tools,
        envelope("*** Update File: a.ts\n@@\n-  return 1;\n+  return 2;", update("b.ts")),
      ),
      ['Error: cannot patch "b.ts" (Update File, patch line 6): read it first', "FS_NOT_OBSERVED"],
    );
    await readAll(box, tools, "b.ts");
    await box.write("b.ts", "checkName();\n");
    assert.deepEqual(await failure(tools, envelope(update("b.ts"))), [
      'Error: cannot patch "b.ts" (Update File, patch line 2): it changed since it was last read; read it again',
      "FS_STALE",
    ]);
    assert.equal(await box.read("a.ts"), FILES["a.ts"]);
    // With policy: false, no read is needed.
    const free = createFsTools({ fs: box.fs, policy: false, tools: ["patch"] });
    assert.equal(
      (await free.execute("patch", {
        patch: envelope("*** Update File: c.ts\n@@\n-const x = checkName();\n+const x = 2;"),
      })).content,
      "Updated c.ts",
    );
  },
);

forEachProvider(
  "C16.2 Add File needs the file absent; a path named twice is refused",
  FILES,
  async (box) => {
    const tools = patchTools(box);
    assert.deepEqual(await failure(tools, envelope("*** Add File: a.ts", "+x")), [
      'Error: cannot patch "a.ts" (Add File, patch line 2): the file already exists; use *** Update File to change it',
      "FS_EXISTS",
    ]);
    assert.deepEqual(
      await failure(tools, envelope("*** Add File: n.ts", "+x", "*** Add File: ./n.ts", "+y")),
      [
        'Error: cannot patch "n.ts" (Add File, patch line 4): the patch changes this file more than once; merge those operations into one',
        "FS_INVALID_ARGUMENT",
      ],
    );
    assert.equal(await box.read("n.ts"), null);
  },
);

forEachProvider("C16.2/C3 patch refuses paths outside the roots and under a read-only root", {
  ...FILES,
  "../outside.txt": "x\n",
}, async (box) => {
  const tools = patchTools(box);
  assert.deepEqual(await failure(tools, envelope("*** Add File: ../evil.txt", "+x")), [
    'Error: cannot patch "../evil.txt": outside the permitted roots',
    "FS_OUTSIDE_ROOT",
  ]);
  const result = await box.run("read", { file_path: "a.ts" });
  assert.equal(result.isError, false);
}, {});

forEachProvider(
  "C16.2/C3.3 patch refuses a file under a read-only root",
  { "a.ts": "x\n" },
  async (box) => {
    const tools = patchTools(box);
    assert.deepEqual(await failure(tools, envelope("*** Add File: b.ts", "+x")), [
      'Error: cannot patch "b.ts" (Add File, patch line 2): the root is read-only',
      "FS_READ_ONLY",
    ]);
  },
  { readOnly: true },
);

/** The provider, except that `editText` of a file whose path ends with `failing` throws. */

forEachProvider(
  "C16.2 when the third file fails after two were replaced, the first two are put back byte for byte",
  {
    "one.txt": concat(BOM, "alpha\r\nbeta\r\n"),
    "two.txt": new Uint8Array([0xff, 0x0a, ...new TextEncoder().encode("gamma\n")]),
    "three.txt": "delta\n",
  },
  async (box) => {
    const tools = patchTools(box, failingOn(box.fs, "three.txt"));
    await readAll(box, tools, "one.txt", "two.txt", "three.txt");
    const before = [await box.bytes("one.txt"), await box.bytes("two.txt")];
    const [content, code] = await failure(
      tools,
      envelope(
        "*** Update File: one.txt\n@@\n-beta\n+BETA",
        "*** Update File: two.txt\n@@\n-gamma\n+GAMMA",
        "*** Update File: three.txt\n@@\n-delta\n+DELTA",
      ),
    );
    assert.equal(code, "FS_PERMISSION_DENIED");
    assert.equal(
      content,
      'Error: cannot patch "three.txt" (Update File, patch line 10): permission denied; the files already changed were put back',
    );
    assert.deepEqual([await box.bytes("one.txt"), await box.bytes("two.txt")], before);
    assert.equal(await box.read("three.txt"), "delta\n");
  },
);

forEachProvider(
  "C16.3 patch deletes a read file and moves an updated one; exact lines",
  FILES,
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "a.ts", "c.ts");
    const result = await tools.execute("patch", {
      patch: envelope(
        "*** Update File: a.ts",
        "*** Move to: lib/label.ts",
        "@@",
        "-export function checkName() {",
        "+export function checkLabel() {",
        "*** Delete File: c.ts",
      ),
    });
    assert.equal(result.content, "Updated a.ts and moved it to lib/label.ts\nDeleted c.ts");
    assert.deepEqual(result.value, {
      operations: [
        { kind: "update", path: box.path("a.ts"), movedTo: box.path("lib/label.ts") },
        { kind: "delete", path: box.path("c.ts") },
      ],
    });
    assert.equal(await box.read("a.ts"), null);
    assert.equal(await box.read("c.ts"), null);
    assert.equal(
      await box.read("lib/label.ts"),
      "export function checkLabel() {\n  return 1;\n}\n",
    );
    // The moved file's observation followed it: an edit needs no read.
    const edit = await tools.execute("edit", {
      file_path: "lib/label.ts",
      old_string: "return 1;",
      new_string: "return 2;",
    });
    assert.equal(edit.isError, false, edit.content);
  },
  { entries: true },
);

forEachProvider(
  "C16.2 Delete File needs a read; Move to needs an absent destination",
  FILES,
  async (box) => {
    const tools = patchTools(box);
    assert.deepEqual(await failure(tools, envelope("*** Delete File: c.ts")), [
      'Error: cannot patch "c.ts" (Delete File, patch line 2): read it first',
      "FS_NOT_OBSERVED",
    ]);
    await readAll(box, tools, "a.ts");
    assert.deepEqual(
      await failure(
        tools,
        envelope(
          "*** Update File: a.ts",
          "*** Move to: b.ts",
          "@@",
          "-  return 1;",
          "+  return 2;",
        ),
      ),
      ['Error: cannot patch "b.ts" (Move to, patch line 3): the destination exists', "FS_EXISTS"],
    );
    assert.deepEqual(await failure(tools, envelope("*** Delete File: gone.ts")), [
      'Error: cannot patch "gone.ts" (Delete File, patch line 2): not found',
      "FS_NOT_FOUND",
    ]);
    assert.equal(await box.read("a.ts"), FILES["a.ts"]);
    assert.equal(await box.read("c.ts"), FILES["c.ts"]);
  },
  { entries: true }, // C15.5: under path checks the local provider refuses both first
);

forEachProvider("C16.2 a failure after an add, a move and a delete puts every one of them back", {
  "keep.txt": concat(BOM, "k1\r\nk2\r\n"),
  "old.txt": "o1\n",
  "last.txt": "l1\n",
}, async (box) => {
  const tools = patchTools(box, failingOn(box.fs, "last.txt"));
  await readAll(box, tools, "keep.txt", "old.txt", "last.txt");
  const before = await box.bytes("keep.txt");
  const [content, code] = await failure(
    tools,
    envelope(
      "*** Add File: fresh.txt\n+new",
      "*** Update File: keep.txt\n*** Move to: moved/keep.txt\n@@\n-k2\n+K2",
      "*** Delete File: old.txt",
      "*** Update File: last.txt\n@@\n-l1\n+L1",
    ),
  );
  assert.deepEqual([content, code], [
    'Error: cannot patch "last.txt" (Update File, patch line 10): permission denied; the files already changed were put back',
    "FS_PERMISSION_DENIED",
  ]);
  assert.equal(await box.read("fresh.txt"), null);
  assert.equal(await box.read("moved/keep.txt"), null);
  assert.deepEqual(await box.bytes("keep.txt"), before);
  assert.equal(await box.read("old.txt"), "o1\n");
  assert.equal(await box.read("last.txt"), "l1\n");
}, { entries: true });

forEachProvider(
  "C8 patch presents as Patch <first path> and <n> more files, kind edit",
  {},
  async (box) => {
    await Promise.resolve(); // presentCall is synchronous; the helper takes an async body
    const tools = patchTools(box);
    const patch = envelope(
      "*** Add File: a.ts\n+x",
      "*** Update File: b.ts\n*** Move to: c.ts\n@@\n-x\n+y",
    );
    assert.deepEqual(tools.presentCall("patch", { patch }), {
      title: "Patch a.ts and 2 more files",
      kind: "edit",
      locations: [{ path: box.path("a.ts") }, { path: box.path("b.ts") }, {
        path: box.path("c.ts"),
      }],
    });
    assert.deepEqual(tools.presentCall("patch", { patch: "nonsense" }), {
      title: "Patch",
      kind: "edit",
    });
  },
);

forEachProvider("C16.2 deletions come last; a failed one puts back the files deleted before it", {
  "one.txt": "1\n",
  "two.txt": new Uint8Array([0xef, 0xbb, 0xbf, 0x32, 0x0d, 0x0a]),
  "three.txt": "3\n",
}, async (box) => {
  const tools = patchTools(box, failingOn(box.fs, "three.txt"));
  await readAll(box, tools, "one.txt", "two.txt", "three.txt");
  const [content, code] = await failure(
    tools,
    envelope(
      "*** Delete File: two.txt",
      "*** Delete File: three.txt",
      "*** Add File: four.txt\n+4",
    ),
  );
  assert.deepEqual([content, code], [
    'Error: cannot patch "three.txt" (Delete File, patch line 3): permission denied; the files already changed were put back',
    "FS_PERMISSION_DENIED",
  ]);
  assert.deepEqual(
    await box.bytes("two.txt"),
    new Uint8Array([0xef, 0xbb, 0xbf, 0x32, 0x0d, 0x0a]),
  );
  assert.equal(await box.read("three.txt"), "3\n");
  assert.equal(await box.read("four.txt"), null);
}, { entries: true });

const RENAME_FILES = Object.fromEntries(
  ["router.ts", "url.ts", "a/b.ts", "a/c.ts", "d.ts"].map((name, i) => [
    `src/${name}`,
    `// ${name}\nimport { checkOptionalParameter } from './u';\nexport const v${i} = checkOptionalParameter('/x/:y?');\n`,
  ]),
);

forEachProvider(
  "C16/C9.6 renaming across 5 files takes one grep and one patch, no read",
  RENAME_FILES,
  async (box) => {
    const tools = createFsTools({ fs: box.fs, tools: ["grep", "patch"] });
    const grep = await tools.execute("grep", {
      pattern: "\\bcheckOptionalParameter\\b",
      path: "src",
    });
    assert.equal(grep.isError, false, grep.content);
    const files = Object.keys(RENAME_FILES).sort();
    const patch = envelope(
      ...files.map((path) =>
        `*** Update File: ${path}\n@@\n-import { checkOptionalParameter } from './u';\n-export const v${
          Object.keys(RENAME_FILES).indexOf(path)
        } = checkOptionalParameter('/x/:y?');\n+import { checkOptionalParam } from './u';\n+export const v${
          Object.keys(RENAME_FILES).indexOf(path)
        } = checkOptionalParam('/x/:y?');`
      ),
    );
    const result = await tools.execute("patch", { patch });
    assert.equal(result.content, files.map((path) => `Updated ${path}`).join("\n"));
    const after = await tools.execute("grep", {
      pattern: "\\bcheckOptionalParameter\\b",
      path: "src",
    });
    assert.ok(
      after.content.includes(
        '(No matches for "\\\\bcheckOptionalParameter\\\\b"; 5 files searched)',
      ),
    );
  },
);

forEachProvider("C16.2/C7.2 an aborted patch changes nothing", FILES, async (box) => {
  const tools = patchTools(box);
  await readAll(box, tools, "a.ts");
  const controller = new AbortController();
  controller.abort();
  const result = await tools.execute("patch", {
    patch: envelope("*** Update File: a.ts", "@@", "-  return 1;", "+  return 2;"),
  }, { signal: controller.signal });
  assert.equal(result.error?.code, "FS_ABORTED");
  assert.equal(await box.read("a.ts"), FILES["a.ts"]);
});
