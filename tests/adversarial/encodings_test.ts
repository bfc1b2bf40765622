// Encodings (issue 7, C4.2, C4.4): invalid UTF-8, a BOM, UTF-16 with a BOM, a multi-byte
// character split across a stream chunk, mixed CRLF/LF and no final newline, through `execute`
// on both the whole-file and the streamed read paths.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, type FsToolResult, LocalFileSystem } from "../../mod.ts";
import { adversarialSandbox, assertError, figure, tempFiles } from "./_harness.ts";

const encoder = new TextEncoder();

function bytes(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((part) => typeof part === "string" ? encoder.encode(part) : part);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function utf16(text: string, bigEndian: boolean): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out.set(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    out[2 + 2 * i + (bigEndian ? 0 : 1)] = unit >> 8;
    out[2 + 2 * i + (bigEndian ? 1 : 0)] = unit & 0xff;
  }
  return out;
}

function texts(result: FsToolResult): string[] {
  assert.equal(result.isError, false, result.content);
  return (result.value as { lines: { text: string }[] }).lines.map((line) => line.text);
}

/** Tools reading every file whole, and tools streaming every file in `chunkSize` chunks. */
function bothPaths(root: string, chunkSize = 5) {
  return [
    createFsTools({ fs: new LocalFileSystem({ roots: [root] }) }),
    createFsTools({
      fs: new LocalFileSystem({ roots: [root], chunkSize }),
      config: { readStreamMinSize: 0 },
    }),
  ];
}

Deno.test("encodings: invalid UTF-8 reads as U+FFFD and survives an edit byte for byte", async () => {
  await using box = await adversarialSandbox();
  const path = join(box.root, "bad.txt");
  const raw = bytes("ok", [0xff], "bad\n", [0xc3, 0x28], " end\n", [0xed, 0xa0, 0x80], "\n");
  await Deno.writeFile(path, raw);
  for (const tools of bothPaths(box.root)) {
    assert.deepEqual(texts(await tools.execute("read", { file_path: "bad.txt" })), [
      "ok\uFFFDbad",
      "\uFFFD( end",
      "\uFFFD\uFFFD\uFFFD",
    ]);
  }
  await box.tools.execute("read", { file_path: "bad.txt" });
  const edit = await box.tools.execute("edit", {
    file_path: "bad.txt",
    old_string: "end",
    new_string: "fin",
  });
  assert.equal(edit.isError, false, edit.content);
  const expected = bytes("ok", [0xff], "bad\n", [0xc3, 0x28], " fin\n", [0xed, 0xa0, 0x80], "\n");
  assert.deepEqual(await Deno.readFile(path), expected);
});

Deno.test("encodings: a UTF-8 BOM is hidden by read and kept byte for byte by edit", async () => {
  await using box = await adversarialSandbox();
  const path = join(box.root, "bom.txt");
  await Deno.writeFile(path, bytes([0xef, 0xbb, 0xbf], "hello\nworld\n"));
  for (const tools of bothPaths(box.root, 2)) {
    assert.deepEqual(texts(await tools.execute("read", { file_path: "bom.txt" })), [
      "hello",
      "world",
    ]);
  }
  await box.tools.execute("read", { file_path: "bom.txt" });
  const edit = await box.tools.execute("edit", {
    file_path: "bom.txt",
    old_string: "world",
    new_string: "earth",
  });
  assert.deepEqual(edit.value, {
    path,
    before: "hello\nworld\n",
    after: "hello\nearth\n",
  });
  assert.deepEqual(await Deno.readFile(path), bytes([0xef, 0xbb, 0xbf], "hello\nearth\n"));
  // A BOM inside the text (not at the start) is content, shown as typed.
  await Deno.writeFile(path, bytes("a\n", [0xef, 0xbb, 0xbf], "b\n"));
  assert.deepEqual(texts(await box.tools.execute("read", { file_path: "bom.txt" })), [
    "a",
    "\uFEFFb",
  ]);
});

Deno.test("encodings: UTF-16 with a BOM is reported as a binary file, never decoded to mojibake", async () => {
  await using box = await adversarialSandbox();
  const files: [string, Uint8Array][] = [
    ["le.txt", utf16("hello\nworld\n", false)],
    ["be.txt", utf16("hello\nworld\n", true)],
    ["le_cjk.txt", utf16("日本語", false)], // no NUL byte anywhere
    ["be_cjk.txt", utf16("日本語", true)],
    ["le_bom_only.txt", utf16("", false)],
  ];
  for (const [name, content] of files) await Deno.writeFile(join(box.root, name), content);
  let cases = 0;
  for (const tools of bothPaths(box.root)) {
    for (const [name] of files) {
      const read = await tools.execute("read", { file_path: name });
      assertError(read, "FS_BINARY", `cannot read "${name}": binary file`);
      const edit = await tools.execute("edit", {
        file_path: name,
        old_string: "e",
        new_string: "E",
      });
      assert.ok(["FS_BINARY", "FS_NOT_OBSERVED"].includes(edit.error?.code ?? ""), edit.content);
      cases += 2;
    }
  }
  const unguarded = createFsTools({ fs: box.fs, policy: false });
  for (const [name, content] of files) {
    const edit = await unguarded.execute("edit", {
      file_path: name,
      old_string: "e",
      new_string: "E",
    });
    assertError(edit, "FS_BINARY", `cannot edit "${name}": binary file`);
    assert.deepEqual(await Deno.readFile(join(box.root, name)), content);
    cases++;
  }
  figure("encodings", `${cases} UTF-16 cases, all FS_BINARY`);
});

Deno.test("encodings: a multi-byte character split across stream chunks reads the same as whole", async () => {
  await using box = await adversarialSandbox();
  const text = "aé€😀\n€€€€\n😀😀x\n" + "ß".repeat(50) + "\n\u{10FFFF}é\r\n" + "z😀".repeat(20);
  await Deno.writeTextFile(join(box.root, "mb.txt"), text);
  const whole = createFsTools({ fs: new LocalFileSystem({ roots: [box.root] }) });
  const expected = await whole.execute("read", { file_path: "mb.txt" });
  assert.equal(expected.isError, false);
  let cases = 0;
  for (let chunkSize = 1; chunkSize <= 17; chunkSize++) {
    const streamed = createFsTools({
      fs: new LocalFileSystem({ roots: [box.root], chunkSize }),
      config: { readStreamMinSize: 0 },
    });
    for (const args of [{}, { offset: 2 }, { offset: 4, limit: 1 }, { limit: 2 }]) {
      const want = await whole.execute("read", { file_path: "mb.txt", ...args });
      const got = await streamed.execute("read", { file_path: "mb.txt", ...args });
      assert.equal(got.content, want.content, `chunkSize ${chunkSize} ${JSON.stringify(args)}`);
      assert.ok(!got.content.includes("\uFFFD"), `U+FFFD at chunkSize ${chunkSize}`);
      cases++;
    }
  }
  // Truncation at readMaxLineLength never splits a character either.
  const narrow = createFsTools({
    fs: new LocalFileSystem({ roots: [box.root], chunkSize: 3 }),
    config: { readStreamMinSize: 0, readMaxLineLength: 3 },
  });
  const cut = await narrow.execute("read", { file_path: "mb.txt", limit: 3 });
  assert.deepEqual(texts(cut), [
    "aé€... (line truncated to 3 chars)",
    "€€€... (line truncated to 3 chars)",
    "😀😀x",
  ]);
  figure("encodings", `${cases} chunk-boundary reads (chunk sizes 1-17), identical to whole-file`);
});

Deno.test("encodings: mixed CRLF/LF and a missing final newline", async () => {
  await using box = await adversarialSandbox();
  const path = join(box.root, "mixed.txt");
  await Deno.writeTextFile(path, "one\r\ntwo\r\nthree\nfour\r\nlast");
  for (const tools of bothPaths(box.root, 3)) {
    const read = await tools.execute("read", { file_path: "mixed.txt" });
    assert.deepEqual(texts(read), ["one", "two", "three", "four", "last"]);
    assert.match(read.content, /\(End of file - total 5 lines\)/);
  }
  // CRLF breaks outnumber bare LF: an old_string written with \n matches, and the replacement
  // is written with \r\n; everything else is kept byte for byte, the bare LF and the tail too.
  await box.tools.execute("read", { file_path: "mixed.txt" });
  const edit = await box.tools.execute("edit", {
    file_path: "mixed.txt",
    old_string: "one\ntwo",
    new_string: "1\n2",
  });
  assert.equal(edit.isError, false, edit.content);
  assert.equal(await Deno.readTextFile(path), "1\r\n2\r\nthree\nfour\r\nlast");
  const tail = await box.tools.execute("edit", {
    file_path: "mixed.txt",
    old_string: "last",
    new_string: "end",
  });
  assert.equal(tail.isError, false, tail.content);
  assert.equal(await Deno.readTextFile(path), "1\r\n2\r\nthree\nfour\r\nend");
  // LF-majority file: a lone CRLF line is not matched by a \n old_string.
  await Deno.writeTextFile(path, "a\nb\r\nc\nd\n");
  await box.tools.execute("read", { file_path: "mixed.txt" });
  const miss = await box.tools.execute("edit", {
    file_path: "mixed.txt",
    old_string: "b\nc",
    new_string: "x",
  });
  // C12.3: it matches once CR before LF counts as trailing whitespace, so the hint names the lines.
  assertError(
    miss,
    "FS_NO_MATCH",
    `old_string was not found in "mixed.txt"; lines 2-3 match except for whitespace, so copy the indentation exactly`,
  );
  // A lone CR is content, not a line break.
  await Deno.writeTextFile(path, "a\rb\nc");
  assert.deepEqual(texts(await box.tools.execute("read", { file_path: "mixed.txt" })), [
    "a\rb",
    "c",
  ]);
  // write stores a missing final newline as given.
  await box.tools.execute("read", { file_path: "mixed.txt" });
  await box.tools.execute("write", { file_path: "mixed.txt", content: "no newline" });
  assert.equal(await Deno.readTextFile(path), "no newline");
  assert.deepEqual(await tempFiles(box.root), []);
});

Deno.test("encodings: NUL past the first 8 KiB, lone surrogates and U+FFFD round-trip without a crash", async () => {
  await using box = await adversarialSandbox();
  const path = join(box.root, "odd.txt");
  await Deno.writeFile(path, bytes("x".repeat(9000), "\n", [0], "nul\n"));
  assert.deepEqual(texts(await box.tools.execute("read", { file_path: "odd.txt", offset: 2 })), [
    "\0nul",
  ]);
  const write = await box.tools.execute("write", {
    file_path: "surrogate.txt",
    content: "lone \uD800 high and \uDC00 low\n",
  });
  assert.equal(write.isError, false, write.content);
  assert.deepEqual(texts(await box.tools.execute("read", { file_path: "surrogate.txt" })), [
    "lone \uFFFD high and \uFFFD low",
  ]);
  const edit = await box.tools.execute("edit", {
    file_path: "surrogate.txt",
    old_string: "\uFFFD high",
    new_string: "\uD83D high", // another lone surrogate: written as U+FFFD
  });
  assert.equal(edit.isError, false, edit.content);
  assert.equal(
    await Deno.readTextFile(join(box.root, "surrogate.txt")),
    "lone \uFFFD high and \uFFFD low\n",
  );
});
