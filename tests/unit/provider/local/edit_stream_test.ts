// The local provider's streamed edit (issue 20 item 7): a file of 4 MiB or more is edited
// through reused buffers and its old bytes are rebuilt only when the value's `before` is read.
// Every outcome must be the one the whole-file path gives (CONTRACT C4.4 result, file and
// line breaks; C5 observations; C6 values; C7 errors), on real files.

import assert from "node:assert/strict";
import { sandbox } from "../../../_sandbox.ts";
import { CHUNK } from "../../../../src/provider/local/_edit_stream.ts";

const MiB = 1 << 20;

/** About `size` bytes of numbered 100-byte lines, with `eol` breaks. */
function lines(size: number, eol = "\n"): string {
  const out: string[] = [];
  for (let i = 0, n = 0; n < size; i++) {
    const line = `${String(i).padStart(9, "0")} 2026-01-01T00:00:00Z ${
      "x".repeat(99 - 31 - eol.length)
    }${eol}`;
    out.push(line);
    n += line.length;
  }
  return out.join("");
}

/** The line of `text` holding byte `at` (ASCII text). */
function lineAt(text: string, at: number): string {
  const start = text.lastIndexOf("\n", at) + 1;
  return text.slice(start, text.indexOf("\n", at) + 1);
}

/** What `fn` returns, and the most bytes it asked one file read for (a whole-file read: all). */
async function largestRead<T>(fn: () => Promise<T>): Promise<{ result: T; largest: number }> {
  const proto = Deno.FsFile.prototype;
  const read = proto.read;
  let largest = 0;
  proto.read = function (this: Deno.FsFile, buffer: Uint8Array) {
    largest = Math.max(largest, buffer.length);
    return read.call(this, buffer);
  };
  try {
    return { result: await fn(), largest };
  } finally {
    proto.read = read;
  }
}

async function temporaries(root: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(root)) {
    if (entry.name.startsWith(".toolfs-")) names.push(entry.name);
  }
  return names;
}

Deno.test("C4.4/C6 streamed edit near the end of the first read: file, text and value as the whole-file path gives them", async () => {
  const old = lines(5 * MiB);
  await using box = await sandbox("local", { "big.txt": old });
  assert.equal((await box.run("read", { file_path: "big.txt", limit: 1 })).isError, false);
  const line = lineAt(old, 4 * MiB - 3); // near the end of the first read
  const oldString = line.slice(0, 40);
  const newString = "replaced\nwith two lines ";
  const { result, largest } = await largestRead(() =>
    box.run("edit", { file_path: "big.txt", old_string: oldString, new_string: newString })
  );
  assert.equal(result.content, "The file big.txt has been updated successfully.");
  assert.ok(largest <= CHUNK, `read whole (${largest} bytes at once)`);
  const expected = old.replace(oldString, newString);
  assert.equal(await box.read("big.txt"), expected);
  const value = result.value as { path: string; before: string; after: string };
  assert.equal(value.after, expected);
  assert.equal(value.before, old);
  assert.deepEqual(await temporaries(box.root), []);
});

Deno.test("C4.4/C6 one-pass streamed edits (no line break): near the end of the first read, at the start, at the end", async () => {
  const old = lines(5 * MiB);
  await using box = await sandbox("local", { "big.txt": old });
  await box.run("read", { file_path: "big.txt", limit: 1 });
  let text = old;
  const lastLine = lineAt(old, old.length - 2);
  for (
    const [from, to] of [
      [lineAt(old, 4 * MiB - 3).slice(0, 40), "across"],
      ["000000000 2026", ""],
      [lastLine.slice(0, lastLine.length - 1), "the last line, longer than it was"],
    ]
  ) {
    const { result, largest } = await largestRead(() =>
      box.run("edit", { file_path: "big.txt", old_string: from, new_string: to })
    );
    assert.ok(largest <= CHUNK, `${from}: read whole (${largest} bytes at once)`);
    assert.equal(result.content, "The file big.txt has been updated successfully.");
    const value = result.value as { before: string; after: string };
    assert.equal(value.before, text);
    text = text.replace(from, to);
    assert.equal(value.after, text);
    assert.equal(await box.read("big.txt"), text);
  }
  assert.deepEqual(await temporaries(box.root), []);
});

Deno.test("C4.4/C6 an occurrence that straddles the first read, at every offset, in one pass and in two", async () => {
  const needle = "<<a unique marker across the first read>>"; // 41 bytes, no line break
  // The first read ends where the window's overlap (the needle's length less one) begins.
  const boundary = CHUNK - (needle.length - 1);
  const base = lines(5 * MiB);
  for (const offset of [-needle.length, -needle.length + 1, -1, 0]) {
    for (const to of ["one pass", "two\npasses"]) {
      const at = boundary + offset;
      const old = base.slice(0, at) + needle + base.slice(at + needle.length);
      await using box = await sandbox("local", { "big.txt": old });
      await box.run("read", { file_path: "big.txt", limit: 1 });
      const { result, largest } = await largestRead(() =>
        box.run("edit", { file_path: "big.txt", old_string: needle, new_string: to })
      );
      assert.equal(result.content, "The file big.txt has been updated successfully.", `${offset}`);
      // Streamed: no read of the whole file (the whole-file path would give the same result).
      assert.ok(largest <= CHUNK, `${offset} ${to}: read whole (${largest} bytes at once)`);
      const expected = old.replace(needle, to);
      assert.equal(await box.read("big.txt"), expected, `${offset} ${to}`);
      const value = result.value as { before: string; after: string };
      assert.equal(value.before, old);
      assert.equal(value.after, expected);
    }
  }
});

Deno.test("C5.4/C6 a second streamed edit needs no read, and both values' texts stay right", async () => {
  const old = lines(4 * MiB + 12345);
  await using box = await sandbox("local", { "big.txt": old });
  await box.run("read", { file_path: "big.txt", limit: 1 });
  const first = await box.run("edit", {
    file_path: "big.txt",
    old_string: "000001000 2026",
    new_string: "000001000 2027",
  });
  const second = await box.run("edit", {
    file_path: "big.txt",
    old_string: "000020000 2026",
    new_string: "a\n",
  });
  const third = await box.run("edit", {
    file_path: "big.txt",
    old_string: "000030000 2026-",
    new_string: "",
  });
  for (const result of [first, second, third]) assert.equal(result.isError, false, result.content);
  const one = old.replace("000001000 2026", "000001000 2027");
  const two = one.replace("000020000 2026", "a\n");
  const three = two.replace("000030000 2026-", "");
  assert.equal(await box.read("big.txt"), three);
  // Read in the reverse order: the first value's old text is rebuilt through two later edits.
  const values = [first, second, third].map((r) => r.value as { before: string; after: string });
  assert.equal(values[2].before, two);
  assert.equal(values[0].before, old);
  assert.equal(values[0].after, one);
  assert.equal(values[1].before, one);
  assert.equal(values[1].after, two);
  assert.equal(values[2].after, three);
});

Deno.test("C4.4 streamed replace_all of 50,000 occurrences, and a CRLF file's \\n-written lines", async () => {
  const old = lines(5 * MiB);
  const crlf = lines(5 * MiB, "\r\n");
  await using box = await sandbox("local", { "big.txt": old, "crlf.txt": crlf });
  await box.run("read", { file_path: "big.txt", limit: 1 });
  await box.run("read", { file_path: "crlf.txt", limit: 1 });
  const all = await box.run("edit", {
    file_path: "big.txt",
    old_string: "2026-01-01",
    new_string: "1999",
    replace_all: true,
  });
  assert.equal(
    all.content,
    "The file big.txt has been updated. All occurrences were successfully replaced.",
  );
  assert.equal(await box.read("big.txt"), old.replaceAll("2026-01-01", "1999"));
  const oldString = lineAt(crlf, 3 * MiB).replace("\r\n", "\n") + "00";
  const edited = await box.run("edit", {
    file_path: "crlf.txt",
    old_string: oldString,
    new_string: "one\ntwo\n00",
  });
  assert.equal(edited.isError, false, edited.content);
  const from = oldString.replace("\n", "\r\n");
  assert.equal(await box.read("crlf.txt"), crlf.replace(from, "one\r\ntwo\r\n00"));
  for (const result of [all, edited]) {
    const value = result.value as { before: string; after: string };
    assert.equal(value.before.length > 0 && value.after.length > 0, true);
  }
});

Deno.test("C4.4/C5.3/C7 a large file's failed edits report what the whole-file path reports and change nothing", async () => {
  const old = lines(5 * MiB);
  const binary = new Uint8Array(5 * MiB).fill(0x61);
  binary[100] = 0;
  await using box = await sandbox("local", { "big.txt": old, "bin.txt": binary });
  await box.run("read", { file_path: "big.txt", limit: 1 });
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [
      { old_string: "not in the file at all", new_string: "x" },
      "FS_NO_MATCH",
      /^Error: old_string was not found in "big.txt"/,
    ],
    [
      { old_string: "2026-01-01T", new_string: "x" },
      "FS_AMBIGUOUS_MATCH",
      new RegExp(
        `^Error: old_string matches ${
          old.split("2026-01-01T").length - 1
        } times in "big.txt" \\(lines 1, 2, 3,`,
      ),
    ],
  ];
  for (const [args, code, message] of cases) {
    const result = await box.run("edit", { file_path: "big.txt", ...args });
    assert.equal(result.error?.code, code, result.content);
    assert.match(result.content, message);
  }
  const unread = await box.run("edit", {
    file_path: "bin.txt",
    old_string: "aaa",
    new_string: "b",
  });
  assert.equal(unread.error?.code, "FS_NOT_OBSERVED");
  const blind = box.toolsWith({ policy: false });
  const binaryEdit = await blind.execute("edit", {
    file_path: "bin.txt",
    old_string: "aaa",
    new_string: "b",
  });
  assert.equal(binaryEdit.content, 'Error: cannot edit "bin.txt": binary file');
  await Deno.writeTextFile(box.path("big.txt"), old + "more\n");
  const stale = await box.run("edit", {
    file_path: "big.txt",
    old_string: "000000007 2026",
    new_string: "x",
  });
  assert.equal(
    stale.content,
    'Error: cannot edit "big.txt": it changed since it was last read; read it again',
  );
  assert.equal(await box.read("big.txt"), old + "more\n");
  assert.deepEqual(await temporaries(box.root), []);
});

Deno.test("C6 a hard-linked large file is edited whole (its other name keeps the old bytes)", async () => {
  const old = lines(4 * MiB + 1);
  await using box = await sandbox("local", { "big.txt": old });
  await Deno.link(box.path("big.txt"), box.path("other.txt"));
  await box.run("read", { file_path: "big.txt", limit: 1 });
  const result = await box.run("edit", {
    file_path: "big.txt",
    old_string: "000000042 2026",
    new_string: "x",
  });
  assert.equal(result.isError, false, result.content);
  assert.equal(await box.read("big.txt"), old.replace("000000042 2026", "x"));
  assert.equal(await box.read("other.txt"), old);
  assert.equal((result.value as { before: string }).before, old);
});
