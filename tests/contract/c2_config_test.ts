// CONTRACT C2 (config) at the tools level, against real files.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, DEFAULT_CONFIG } from "../../mod.ts";
import { listText, ok, readText } from "../_helpers.ts";
import { sandbox } from "../_sandbox.ts";
import { RecordingFs } from "../_recording_fs.ts";

Deno.test("C2 the defaults are 200 entries, 2000 lines, 2000 chars, 51200 bytes, 10 MiB, 200 paths, 100 matches, no snippet, no detailed footers (C4.2a)", async () => {
  await using box = await sandbox("local");
  const expected = {
    listMaxEntries: 200,
    readLimit: 2000,
    readMaxLineLength: 2000,
    readMaxBytes: 51200,
    readStreamMinSize: 10485760,
    globMaxFiles: 200,
    grepMaxMatches: 100,
    grepFileTimeMs: 10000, // issue 19: beyond C2's table
    editSnippet: 0,
    readImages: true,
    readMaxImageBytes: 5242880,
    readMaxDocumentBytes: 20971520,
    readDocumentTimeMs: 10000, // C17.2a
    detailedFooters: false, // C4.2a: the design notes' texts
  };
  assert.deepEqual({ ...DEFAULT_CONFIG }, expected);
  assert.deepEqual({ ...box.toolsWith().config }, expected);
  return Promise.resolve();
});

Deno.test("C2 each config key changes what one call renders", async () => {
  const files = { "d1/": "", "d2/": "", "f.txt": "abcdefgh\n12345678\nxyz\n" };
  await using box = await sandbox("local", files);
  const { root } = box;
  const listed = box.toolsWith({ config: { listMaxEntries: 2 } });
  assert.equal(
    ok(await listed.execute("list", {})),
    listText(
      ".",
      ["d1/", "d2/"],
      "(Showing 2 of 3 entries: 2 directories, 1 file. Entries are directories first, then files, each alphabetical; list a subdirectory to see the rest.)",
    ),
  );
  const limited = box.toolsWith({ config: { readLimit: 2 } });
  assert.equal(
    ok(await limited.execute("read", { file_path: "f.txt" })),
    readText(
      "f.txt",
      ["1: abcdefgh", "2: 12345678"],
      "(Showing lines 1-2 of 3. Use offset=3 to continue.)",
    ),
  );
  const narrow = box.toolsWith({ config: { readMaxLineLength: 4 } });
  assert.equal(
    ok(await narrow.execute("read", { file_path: "f.txt" })),
    readText(
      "f.txt",
      [
        "1: abcd... (line truncated to 4 chars)",
        "2: 1234... (line truncated to 4 chars)",
        "3: xyz",
      ],
      "(End of file - total 3 lines)",
    ),
  );
  const small = box.toolsWith({ config: { readMaxBytes: 24 } });
  assert.equal(
    ok(await small.execute("read", { file_path: "f.txt" })),
    readText(
      "f.txt",
      ["1: abcdefgh", "2: 12345678"],
      "(Output capped. Showing lines 1-2. Use offset=3 to continue.)",
    ),
  );
  const fs = new RecordingFs({ roots: [root] });
  const streamed = createFsTools({ fs, config: { readStreamMinSize: 23 } });
  ok(await streamed.execute("read", { file_path: "f.txt" })); // 22 bytes: whole file
  assert.ok(fs.methods.includes("readText") && !fs.methods.includes("streamText"));
  await Deno.writeTextFile(join(root, "f.txt"), "abcdefgh\n12345678\nxyz\n!");
  ok(await streamed.execute("read", { file_path: "f.txt" })); // 23 bytes: streamed
  assert.ok(fs.methods.includes("streamText"));
});
