// CONTRACT C4.2 (`read`) at the tools level, against real files.

import assert from "node:assert/strict";
import { join } from "node:path";
import { failed, mkfifo, needsRun, ok, readText } from "../_helpers.ts";
import { sandbox } from "../_sandbox.ts";
import { argsOf, BOM, concat } from "./_shared.ts";

Deno.test("C4.2 read validates file_path, offset, limit in that order", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const tools = box.toolsWith({ config: { readLimit: 50 } });
  const cases: [Record<string, unknown>, string][] = [
    [{}, "file_path must be a non-empty string"],
    [{ file_path: "", offset: 0, limit: 0 }, "file_path must be a non-empty string"],
    [{ file_path: 7 }, "file_path must be a non-empty string"],
    [{ file_path: "a.txt", offset: 0, limit: 0 }, "offset must be a positive integer"],
    [{ file_path: "a.txt", offset: -1 }, "offset must be a positive integer"],
    [{ file_path: "a.txt", offset: 1.5 }, "offset must be a positive integer"],
    [{ file_path: "a.txt", offset: "2" }, "offset must be a positive integer"],
    [{ file_path: "a.txt", limit: 0 }, "limit must be a positive integer"],
    [{ file_path: "a.txt", limit: 2.5 }, "limit must be a positive integer"],
    [{ file_path: "a.txt", limit: "10" }, "limit must be a positive integer"],
    [{ file_path: "a.txt", limit: 51 }, "limit must be less than or equal to 50"],
    [{ file_path: "missing.txt", limit: 51 }, "limit must be less than or equal to 50"],
  ];
  for (const [args, message] of cases) {
    assert.deepEqual(failed(await tools.execute("read", args)), [
      `Error: ${message}`,
      "FS_INVALID_ARGUMENT",
    ], JSON.stringify(args));
  }
  ok(await tools.execute("read", { file_path: "a.txt", limit: 50 }));
  assert.equal(
    (await box.toolsWith().execute("read", { file_path: "a.txt", limit: 2001 })).content,
    "Error: limit must be less than or equal to 2000",
  );
});

Deno.test("C4.2 read splits on \\n; a final \\n ends the last line; \\r before \\n and the BOM are hidden", async () => {
  const files = {
    "lf.txt": "a\nb\n",
    "open.txt": "a\nb",
    "blank.txt": "a\n\n",
    "crlf.txt": "a\r\nb\r\n",
    "cr.txt": "x\ry\n\r",
    "bom.txt": concat(BOM, "first\nsecond\n"),
    "bom2.txt": concat(BOM, "\uFEFFinner\n"),
    "empty.txt": "",
    "nl.txt": "\n",
  };
  await using box = await sandbox("local", files);
  const { tools } = box;
  const lines = async (file_path: string) =>
    ((await tools.execute("read", { file_path })).value as { lines: { text: string }[] }).lines
      .map((line) => line.text);
  assert.deepEqual(await lines("lf.txt"), ["a", "b"]);
  assert.deepEqual(await lines("open.txt"), ["a", "b"]);
  assert.deepEqual(await lines("blank.txt"), ["a", ""]);
  assert.deepEqual(await lines("crlf.txt"), ["a", "b"]);
  assert.deepEqual(await lines("cr.txt"), ["x\ry", "\r"]);
  assert.deepEqual(await lines("bom.txt"), ["first", "second"]);
  assert.deepEqual(await lines("bom2.txt"), ["\uFEFFinner"]);
  assert.deepEqual(await lines("nl.txt"), [""]);
  assert.equal(
    ok(await tools.execute("read", { file_path: "empty.txt" })),
    "<path>empty.txt</path>\n<type>file</type>\n<content>\n\n(End of file - total 0 lines)\n</content>",
  );
  assert.equal(
    ok(await tools.execute("read", { file_path: "crlf.txt" })),
    readText("crlf.txt", ["1: a", "2: b"], "(End of file - total 2 lines)"),
  );
});

Deno.test("C4.2 read decodes invalid UTF-8 to U+FFFD", async () => {
  const bytes = concat(
    "ok ",
    new Uint8Array([0xff]),
    " ",
    new Uint8Array([0xc3]),
    "\n",
    new Uint8Array([0xe2, 0x82]),
  );
  await using box = await sandbox("local", { "bad.txt": bytes });
  assert.equal(
    ok(await box.toolsWith().execute("read", { file_path: "bad.txt" })),
    readText("bad.txt", ["1: ok \uFFFD \uFFFD", "2: \uFFFD"], "(End of file - total 2 lines)"),
  );
});

Deno.test("C4.2 a NUL byte in the first 8 KiB makes a binary file; one after it does not", async () => {
  const early = new Uint8Array(8192).fill(0x61);
  early[8191] = 0;
  const late = new Uint8Array(8193).fill(0x61);
  late[8192] = 0;
  await using box = await sandbox("local", { "early.bin": early, "late.txt": late });
  for (const config of [{}, { readStreamMinSize: 0 }]) {
    const tools = box.toolsWith({ config });
    assert.deepEqual(failed(await tools.execute("read", { file_path: "early.bin" })), [
      'Error: cannot read "early.bin": binary file',
      "FS_BINARY",
    ]);
    const result = await tools.execute("read", { file_path: "late.txt" });
    assert.equal(result.isError, false);
    assert.equal((result.value as { totalLines: number }).totalLines, 1);
  }
});

Deno.test("C4.2 read shows lines offset..offset+limit-1 and says where to continue", async () => {
  await using box = await sandbox("local", { "five.txt": "1\n2\n3\n4\n5\n" });
  const { root, tools } = box;
  const result = await tools.execute("read", { file_path: "five.txt", offset: 2, limit: 2 });
  assert.equal(
    result.content,
    readText("five.txt", ["2: 2", "3: 3"], "(Showing lines 2-3 of 5. Use offset=4 to continue.)"),
  );
  assert.deepEqual(result.value, {
    path: join(root, "five.txt"),
    offset: 2,
    lines: [{ number: 2, text: "2" }, { number: 3, text: "3" }],
    totalLines: 5,
  });
  assert.equal(
    ok(await tools.execute("read", { file_path: "five.txt", offset: 4, limit: 2 })),
    readText("five.txt", ["4: 4", "5: 5"], "(End of file - total 5 lines)"),
  );
  assert.equal(
    ok(await tools.execute("read", { file_path: "five.txt", offset: 5 })),
    readText("five.txt", ["5: 5"], "(End of file - total 5 lines)"),
  );
});

Deno.test("C4.2 read truncates a line to readMaxLineLength code points with a marker", async () => {
  const files = {
    "long.txt": "abcdefgh\nabcde\n😀😀😀😀😀😀\ne\u0301\u0300e\u0301\u0300e\u0301\u0300\n",
  };
  await using box = await sandbox("local", files);
  const tools = box.toolsWith({ config: { readMaxLineLength: 5 } });
  const result = await tools.execute("read", { file_path: "long.txt" });
  assert.equal(
    result.content,
    readText("long.txt", [
      "1: abcde... (line truncated to 5 chars)",
      "2: abcde",
      "3: 😀😀😀😀😀... (line truncated to 5 chars)",
      "4: e\u0301\u0300e\u0301... (line truncated to 5 chars)",
    ], "(End of file - total 4 lines)"),
  );
  assert.equal(
    (result.value as { lines: { text: string }[] }).lines[0].text,
    "abcde... (line truncated to 5 chars)",
  );
});

Deno.test("C4.2 read shows 'Output capped' when the byte cap ends the window", async () => {
  // Rendered with their \n, lines 1 and 2 cost 9 bytes each, "3: éé" 8 and "4: dddd" 8: 34 in all.
  await using box = await sandbox("local", { "f.txt": "aaaaa\nbbbbb\néé\ndddd\n" });
  const { root } = box;
  const at = (readMaxBytes: number) => box.toolsWith({ config: { readMaxBytes } });
  const capped = await at(26).execute("read", { file_path: "f.txt" });
  assert.equal(
    capped.content,
    readText(
      "f.txt",
      ["1: aaaaa", "2: bbbbb", "3: éé"],
      "(Output capped. Showing lines 1-3. Use offset=4 to continue.)",
    ),
  );
  assert.deepEqual(capped.value, {
    path: join(root, "f.txt"),
    offset: 1,
    lines: [{ number: 1, text: "aaaaa" }, { number: 2, text: "bbbbb" }, {
      number: 3,
      text: "éé",
    }],
    totalLines: 4,
  });
  // Exactly at the cap: everything fits.
  assert.equal(
    ok(await at(34).execute("read", { file_path: "f.txt" })).split("\n").at(-2),
    "(End of file - total 4 lines)",
  );
  assert.equal(
    ok(await at(33).execute("read", { file_path: "f.txt" })).split("\n").at(-2),
    "(Output capped. Showing lines 1-3. Use offset=4 to continue.)",
  );
  // The first line of a window is always rendered.
  assert.equal(
    ok(await at(1).execute("read", { file_path: "f.txt", offset: 2 })),
    readText(
      "f.txt",
      ["2: bbbbb"],
      "(Output capped. Showing lines 2-2. Use offset=3 to continue.)",
    ),
  );
  assert.equal(
    ok(await at(1).execute("read", { file_path: "f.txt", offset: 4 })),
    readText("f.txt", ["4: dddd"], "(End of file - total 4 lines)"),
  );
  // The cap wins over 'more lines after the window'.
  assert.equal(
    ok(await at(9).execute("read", { file_path: "f.txt", limit: 3 })).split("\n").at(-2),
    "(Output capped. Showing lines 1-1. Use offset=2 to continue.)",
  );
});

Deno.test("C4.2 an offset past the last line fails with FS_OFFSET_OUT_OF_RANGE", async () => {
  await using box = await sandbox("local", { "three.txt": "a\nb\nc\n", "empty.txt": "" });
  const { tools } = box;
  assert.deepEqual(failed(await tools.execute("read", { file_path: "three.txt", offset: 4 })), [
    'Error: offset 4 is out of range for "three.txt" (3 lines)',
    "FS_OFFSET_OUT_OF_RANGE",
  ]);
  ok(await tools.execute("read", { file_path: "empty.txt", offset: 1 }));
  assert.deepEqual(failed(await tools.execute("read", { file_path: "empty.txt", offset: 2 })), [
    'Error: offset 2 is out of range for "empty.txt" (0 lines)',
    "FS_OFFSET_OUT_OF_RANGE",
  ]);
  const streamed = box.toolsWith({ config: { readStreamMinSize: 0 } });
  assert.equal(
    (await streamed.execute("read", { file_path: "three.txt", offset: 9 })).content,
    'Error: offset 9 is out of range for "three.txt" (3 lines)',
  );
});

Deno.test("C4.2 read of a missing file or a directory fails with not found / not a regular file", async () => {
  await using box = await sandbox("local", { "d/": "" });
  const { tools } = box;
  assert.deepEqual(failed(await tools.execute("read", { file_path: "nope.txt" })), [
    'Error: cannot read "nope.txt": not found',
    "FS_NOT_FOUND",
  ]);
  assert.deepEqual(failed(await tools.execute("read", { file_path: "d" })), [
    'Error: cannot read "d": not a regular file; it is a directory, use list',
    "FS_NOT_REGULAR_FILE",
  ]);
});

const fifoTest =
  "C4.2 a FIFO is never opened: read, write and edit fail at once with not a regular file";
Deno.test({
  name: fifoTest,
  ignore: needsRun(fifoTest),
  async fn() {
    await using box = await sandbox("local");
    const { root } = box;
    await mkfifo(join(root, "pipe"));
    await Deno.symlink("pipe", join(root, "pipe_link"));
    for (const config of [{}, { readStreamMinSize: 0 }]) {
      const tools = box.toolsWith({ config, policy: false });
      for (const path of ["pipe", "pipe_link"]) {
        for (const op of ["read", "write", "edit"]) {
          const args = { file_path: path, content: "x", old_string: "a", new_string: "b" };
          // A hang here would time the test out: nothing ever writes to the FIFO.
          assert.deepEqual(failed(await tools.execute(op, argsOf(op, args))), [
            `Error: cannot ${op} "${path}": not a regular file`,
            "FS_NOT_REGULAR_FILE",
          ]);
        }
      }
    }
    assert.ok((await Deno.lstat(join(root, "pipe"))).isFifo);
  },
});

Deno.test("C4.2 files at readStreamMinSize or more are streamed with identical results", async () => {
  const text = Array.from({ length: 300 }, (_, i) => `line ${i} ${"é😀x".repeat(i % 7)}\r`).join(
    "\n",
  );
  await using box = await sandbox("local", { "big.txt": concat(BOM, text) });
  const whole = box.toolsWith();
  const streamed = box.toolsWith({ config: { readStreamMinSize: 0 } }, { chunkSize: 5 });
  for (const args of [{}, { offset: 100, limit: 20 }, { offset: 300 }, { limit: 1 }]) {
    const a = await whole.execute("read", { file_path: "big.txt", ...args });
    const b = await streamed.execute("read", { file_path: "big.txt", ...args });
    assert.deepEqual(b, a);
  }
});

Deno.test("C4.2 a successful read records an observation for the session", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { tools } = box;
  assert.equal(
    (await tools.execute("write", { file_path: "a.txt", content: "b" })).error?.code,
    "FS_NOT_OBSERVED",
  );
  ok(await tools.execute("read", { file_path: "a.txt" }));
  ok(await tools.execute("write", { file_path: "a.txt", content: "b" }));
});
