// CONTRACT C16.2 (issue 31 item 6): a failed patch says how to recover in one call — a
// mistyped path gets C12's did-you-mean, a missing file in `*** Update File` the hint to add
// it, a hunk that does not match the block of the file that comes closest; and C16.1a (issue
// 30 item 12): a NUL byte in a path is an invalid patch, naming its line, never the root.
// Both providers.

import assert from "node:assert/strict";
import { forEachProvider } from "../_sandbox.ts";
import { envelope, failure, patchTools, readAll } from "./_patch_helpers.ts";

const FILES = {
  "src/app.ts": "export function main() {\n  const port = 8080;\n  serve(port);\n  log('up');\n}\n",
  "src/util.ts": "export const one = 1;\n",
};

forEachProvider(
  "C16.2 a mistyped path in Update File gets did-you-mean and the Add File hint",
  FILES,
  async (box) => {
    const tools = patchTools(box);
    assert.deepEqual(
      await failure(tools, envelope("*** Update File: src/ap.ts", "@@", "-x", "+y")),
      [
        'Error: cannot patch "src/ap.ts" (Update File, patch line 2): not found; did you mean "src/app.ts"?; to create it use *** Add File',
        "FS_NOT_FOUND",
      ],
    );
    // Nothing close: the Add File hint alone.
    assert.deepEqual(
      await failure(tools, envelope("*** Update File: docs/guide.md", "@@", "-x", "+y")),
      [
        'Error: cannot patch "docs/guide.md" (Update File, patch line 2): not found; to create it use *** Add File',
        "FS_NOT_FOUND",
      ],
    );
    // A path meant relative to the workspace, written with a leading `/` (C12.10).
    assert.deepEqual(
      await failure(tools, envelope("*** Update File: /src/app.ts", "@@", "-x", "+y")),
      [
        'Error: cannot patch "/src/app.ts": outside the permitted roots; did you mean "src/app.ts"?',
        "FS_OUTSIDE_ROOT",
      ],
    );
  },
);

// A deletion gets did-you-mean only (C15.5: under path checks the local provider refuses
// Delete File before it looks, so that case runs where deleting is offered).
forEachProvider(
  "C16.2 a mistyped path in Delete File gets did-you-mean",
  FILES,
  async (box) => {
    assert.deepEqual(
      await failure(patchTools(box), envelope("*** Delete File: src/utils.ts")),
      [
        'Error: cannot patch "src/utils.ts" (Delete File, patch line 2): not found; did you mean "src/util.ts"?',
        "FS_NOT_FOUND",
      ],
    );
  },
  { entries: true },
);

forEachProvider(
  "C16.2 a hunk that does not match names the block that comes closest and its differing line",
  FILES,
  async (box) => {
    const tools = patchTools(box);
    await readAll(box, tools, "src/app.ts");
    assert.deepEqual(
      await failure(
        tools,
        envelope(
          "*** Update File: src/app.ts",
          "@@",
          " export function main() {",
          "-  const port = 3000;",
          "+  const port = 4000;",
          "   serve(port);",
        ),
      ),
      [
        'Error: cannot patch "src/app.ts" (Update File, hunk 1 at patch line 3): the lines to replace were not found; lines 1-3 come closest, and line 2 there reads "  const port = 8080;"',
        "FS_NO_MATCH",
      ],
    );
    // Where whitespace is the difference, C12.3's whitespace hint says so instead.
    assert.deepEqual(
      await failure(
        tools,
        envelope(
          "*** Update File: src/app.ts",
          "@@",
          "-  const  port = 8080;",
          "+  const port = 1;",
        ),
      ),
      [
        'Error: cannot patch "src/app.ts" (Update File, hunk 1 at patch line 3): the lines to replace were not found; line 2 matches except for whitespace, so copy the indentation exactly',
        "FS_NO_MATCH",
      ],
    );
    // Nothing near: the plain hint.
    assert.deepEqual(
      await failure(
        tools,
        envelope("*** Update File: src/app.ts", "@@", "-completely unrelated text", "+x"),
      ),
      [
        'Error: cannot patch "src/app.ts" (Update File, hunk 1 at patch line 3): the lines to replace were not found; read the file again and copy them exactly',
        "FS_NO_MATCH",
      ],
    );
    assert.equal(await box.read("src/app.ts"), FILES["src/app.ts"]);
  },
);

forEachProvider(
  "C16.1a a NUL byte in a patch path is an invalid patch naming its line, never a root",
  FILES,
  async (box) => {
    const tools = patchTools(box);
    for (
      const [patch, line] of [
        [envelope("*** Add File: a\0b.ts", "+x"), 2],
        [envelope("*** Delete File: src/util.ts\0"), 2],
        [envelope("*** Update File: src/util.ts", "*** Move to: x\0.ts", "@@", "-a", "+b"), 3],
      ] as const
    ) {
      const [content, code] = await failure(tools, patch);
      assert.deepEqual(
        [content, code],
        [
          `Error: invalid patch at line ${line}: a path must not contain a NUL byte`,
          "FS_INVALID_ARGUMENT",
        ],
      );
      assert.ok(!content.includes(box.root), content);
    }
  },
);
