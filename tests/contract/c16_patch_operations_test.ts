// CONTRACT C16.5 (issue 30 item 7, issue 31 item 5): an apply_patch operation does exactly what
// its `type` and `path` say — its diff is that one operation's body, and a diff that carries
// an envelope or another operation fails with nothing changed; `create_file` joins its `+`
// lines as the Agents SDK's applyDiff create mode does; line numbers count the diff's lines as
// the model sent it. Both providers, through applyPatchOperation (the hosts' adapters are
// tested with the real packages in tests/apply_patch_hosts_test.ts).

import assert from "node:assert/strict";
import { applyPatchOperation, createFsTools } from "../../mod.ts";
import { forEachProvider } from "../_sandbox.ts";

const FILES = { "readme.txt": "hello\nworld\n", "precious.txt": "keep me\n" };

function tools(box: { fs: Parameters<typeof createFsTools>[0]["fs"] }) {
  return createFsTools({ fs: box.fs, tools: ["read"] });
}

forEachProvider(
  "C16.5 an update_file diff that carries other operations or an envelope fails, nothing changed",
  FILES,
  async (box) => {
    const t = tools(box);
    const session = {};
    for (const f of ["readme.txt", "precious.txt"]) {
      await t.execute("read", { file_path: f }, { session });
    }
    const apply = (operation: Parameters<typeof applyPatchOperation>[1]) =>
      applyPatchOperation(t, operation, { session });
    const header = (line: number, text: string) =>
      `Error: invalid patch at line ${line}: the diff of one operation holds only that operation's lines; send each operation on its own, got ${
        JSON.stringify(text)
      }`;
    assert.deepEqual(
      await apply({
        type: "update_file",
        path: "readme.txt",
        diff:
          "@@\n-hello\n+bye\n*** Delete File: precious.txt\n*** Add File: injected.sh\n+rm -rf ~\n",
      }),
      { status: "failed", output: header(4, "*** Delete File: precious.txt") },
    );
    assert.deepEqual(
      await apply({
        type: "update_file",
        path: "readme.txt",
        diff: "*** Begin Patch\n*** Update File: precious.txt\n@@\n-keep me\n+gone\n*** End Patch",
      }),
      { status: "failed", output: header(1, "*** Begin Patch") },
    );
    assert.deepEqual(
      await apply({
        type: "update_file",
        path: "readme.txt",
        diff: "@@\n-hello\n+bye\n*** Move to: elsewhere.txt",
      }),
      { status: "failed", output: header(4, "*** Move to: elsewhere.txt") },
    );
    assert.deepEqual(
      await apply({
        type: "create_file",
        path: "new.txt",
        diff: "+x\n*** Update File: precious.txt\n@@\n-keep me\n+gone",
      }),
      { status: "failed", output: header(2, "*** Update File: precious.txt") },
    );
    // Each header C16.5 names, alone after the hunk (the first one above was a Delete File).
    for (const line of ["*** Add File: injected.sh", "*** Update File: precious.txt"]) {
      assert.deepEqual(
        await apply({ type: "update_file", path: "readme.txt", diff: `@@\n-hello\n+bye\n${line}` }),
        { status: "failed", output: header(4, line) },
      );
    }
    assert.deepEqual(
      await apply({
        type: "update_file",
        path: "readme.txt",
        diff: "@@\n-hello\n+bye\n*** End Patch",
      }),
      { status: "failed", output: header(4, "*** End Patch") },
    );
    assert.equal(await box.read("readme.txt"), FILES["readme.txt"]);
    assert.equal(await box.read("precious.txt"), FILES["precious.txt"]);
    assert.equal(await box.read("injected.sh"), null);
    assert.equal(await box.read("new.txt"), null);
    assert.equal(await box.read("elsewhere.txt"), null);
    // A line of the file that reads like a header is context, not an operation.
    await box.write("notes.md", "# V4A\n*** Delete File: x\nend\n");
    await t.execute("read", { file_path: "notes.md" }, { session });
    assert.deepEqual(
      await apply({
        type: "update_file",
        path: "notes.md",
        diff: "@@\n # V4A\n *** Delete File: x\n-end\n+the end\n",
      }),
      { status: "completed", output: "Updated notes.md" },
    );
    assert.equal(await box.read("notes.md"), "# V4A\n*** Delete File: x\nthe end\n");
    // The operation's own fields do what they say.
    assert.deepEqual(
      await apply({ type: "update_file", path: "readme.txt", diff: "@@\n-hello\n+bye\n" }),
      { status: "completed", output: "Updated readme.txt" },
    );
    assert.equal(await box.read("readme.txt"), "bye\nworld\n");
  },
);

forEachProvider(
  "C16.5 create_file follows applyDiff's create mode: lines joined, a final empty + line gives the break",
  {},
  async (box) => {
    const t = tools(box);
    const cases: [string, string][] = [
      ["+a\n+b", "a\nb"],
      ["+a\n+b\n", "a\nb"],
      ["+a\n+b\n+", "a\nb\n"],
      ["+a\n+b\n+\n", "a\nb\n"],
      ["+a\r\n+\r\n", "a\n"],
      ["", ""],
    ];
    for (const [i, [diff, text]] of cases.entries()) {
      const outcome = await applyPatchOperation(t, { type: "create_file", path: `f${i}`, diff });
      assert.deepEqual(outcome, { status: "completed", output: `Added f${i}` }, diff);
      assert.equal(await box.read(`f${i}`), text, JSON.stringify(diff));
    }
  },
);

forEachProvider(
  "C16.5 line numbers in an operation's errors count the lines of its diff",
  FILES,
  async (box) => {
    const t = tools(box);
    const session = {};
    await t.execute("read", { file_path: "readme.txt" }, { session });
    const apply = (operation: Parameters<typeof applyPatchOperation>[1]) =>
      applyPatchOperation(t, operation, { session });
    assert.deepEqual(
      await apply({ type: "update_file", path: "readme.txt", diff: "@@\n-hello\n+bye\n?oops" }),
      {
        status: "failed",
        output: 'Error: invalid patch at line 4: expected "@@" before the next hunk, got "?oops"',
      },
    );
    assert.deepEqual(
      await apply({
        type: "update_file",
        path: "readme.txt",
        diff: "@@\n-hello\n+bye\n@@\n-nowhere near\n+x",
      }),
      {
        status: "failed",
        output:
          'Error: cannot patch "readme.txt" (Update File, hunk 2 at patch line 4): the lines to replace were not found; read the file again and copy them exactly',
      },
    );
    assert.deepEqual(
      await apply({ type: "create_file", path: "n.txt", diff: "+a\nb" }),
      {
        status: "failed",
        output:
          'Error: invalid patch at line 2: each line of a created file starts with "+", got "b"',
      },
    );
    assert.deepEqual(
      await apply({ type: "update_file", path: "precious.txt", diff: "@@\n-keep me\n+x" }),
      {
        status: "failed",
        output: 'Error: cannot patch "precious.txt" (Update File): read it first',
      },
    );
    assert.equal(await box.read("readme.txt"), FILES["readme.txt"]);
  },
);
