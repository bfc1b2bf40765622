// CONTRACT C16 (`patch`) on symbolic links (local only): `*** Delete File:` removes the link itself,
// as `delete` does (C15.3), after every file, and a failure puts every file back.

import assert from "node:assert/strict";
import { entriesSkip, sandbox } from "../_sandbox.ts";
import { envelope, failingOn, failure, patchTools, readAll } from "./_patch_helpers.ts";

const A_TS = "export function checkName() {\n  return 1;\n}\n";

Deno.test(
  "C16.2/C15.3 Delete File removes a link itself, as delete does; its target stays [local]",
  { ignore: entriesSkip() !== null },
  async () => {
    await using box = await sandbox("local", {
      "t.txt": "target\n",
      "dir/k.txt": "kept\n",
      "../out.txt": "outside\n",
    });
    await Deno.symlink(box.path("t.txt"), box.path("in.lnk"));
    await Deno.symlink(`${box.base}/out.txt`, box.path("out.lnk"));
    await Deno.symlink("dir", box.path("dir.lnk"));
    await Deno.symlink("gone.txt", box.path("dangling.lnk"));
    const tools = patchTools(box);
    // A link holds no content: nothing needs reading first (C15.3's delete asks none either).
    const links = ["in.lnk", "out.lnk", "dir.lnk", "dangling.lnk"];
    const result = await tools.execute("patch", {
      patch: envelope(...links.map((path) => `*** Delete File: ${path}`)),
    });
    assert.equal(result.content, links.map((path) => `Deleted ${path}`).join("\n"));
    assert.deepEqual(result.value, {
      operations: links.map((path) => ({ kind: "delete", path: box.path(path) })),
    });
    for (const path of links) {
      assert.equal(await Deno.lstat(box.path(path)).catch(() => null), null, path);
    }
    assert.equal(await box.read("t.txt"), "target\n");
    assert.equal(await box.read("dir/k.txt"), "kept\n");
    assert.equal(await Deno.readTextFile(`${box.base}/out.txt`), "outside\n");
    // A file named through a linked directory is the file: it still needs its read.
    await Deno.symlink("dir", box.path("dir2.lnk"));
    const [content, code] = await failure(tools, envelope("*** Delete File: dir2.lnk/k.txt"));
    assert.equal(code, "FS_NOT_OBSERVED", content);
    assert.equal(await box.read("dir/k.txt"), "kept\n");
  },
);

Deno.test(
  "C16.2 a link is deleted after the files; when it fails, every file is put back [local]",
  { ignore: entriesSkip() !== null },
  async () => {
    await using box = await sandbox("local", { "a.ts": A_TS, "f.txt": "f\n" });
    await Deno.symlink("a.ts", box.path("a.lnk"));
    const tools = patchTools(box, failingOn(box.fs, "a.lnk"));
    await readAll(box, tools, "a.ts", "f.txt");
    const [content, code] = await failure(
      tools,
      envelope(
        "*** Delete File: a.lnk",
        "*** Delete File: f.txt",
        "*** Update File: a.ts",
        "@@",
        "-  return 1;",
        "+  return 2;",
      ),
    );
    assert.deepEqual([content, code], [
      'Error: cannot patch "a.lnk" (Delete File, patch line 2): permission denied; the files already changed were put back',
      "FS_PERMISSION_DENIED",
    ]);
    assert.equal(await box.read("f.txt"), "f\n");
    assert.equal(await box.read("a.ts"), A_TS);
    assert.equal(await Deno.readLink(box.path("a.lnk")), "a.ts");
  },
);
