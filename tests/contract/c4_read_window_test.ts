// The read window (src/text/read_window.ts) through the `read` tool: the streamed path and the
// whole-file path agree with each other and with a plain reference model of CONTRACT C4.2, on
// random bytes (multi-byte characters split across tiny chunks, CRLF, BOM, invalid UTF-8).

import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { createFsTools, type FsToolsConfig, LocalFileSystem } from "../../mod.ts";
import type { FsCallOptions, FsReadHandle, FsTarget } from "../../provider.ts";
import { ok, readText } from "../_helpers.ts";
import { countingHandle } from "../_recording_fs.ts";
import { sandbox } from "../_sandbox.ts";

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** What a `read` must show, computed the obvious way from the whole file. */
function expectedRead(
  bytes: Uint8Array,
  displayPath: string,
  offset: number,
  limit: number,
  config: Pick<FsToolsConfig, "readMaxBytes" | "readMaxLineLength">,
): { content: string; code?: string } {
  if (bytes.subarray(0, 8192).includes(0)) {
    return { content: `Error: cannot read "${displayPath}": binary file`, code: "FS_BINARY" };
  }
  const raw: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      raw.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  if (start < bytes.length) raw.push(bytes.subarray(start));
  // C4.2 (amended): a file holding only a BOM has 0 lines.
  const bomOnly = bytes.length === 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (bomOnly) raw.length = 0;
  const total = raw.length;
  if (offset > Math.max(total, 1)) {
    return {
      content: `Error: offset ${offset} is out of range for "${displayPath}" (${total} lines)`,
      code: "FS_OFFSET_OUT_OF_RANGE",
    };
  }
  const shown: string[] = [];
  let used = 0;
  let capped = false;
  for (let n = offset; n <= total && n < offset + limit; n++) {
    let line = raw[n - 1];
    const endsAtLf = n < total || bytes[bytes.length - 1] === 0x0a;
    if (endsAtLf && line.at(-1) === 0x0d) line = line.subarray(0, -1);
    if (n === 1 && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) {
      line = line.subarray(3);
    }
    const points = Array.from(utf8.decode(line));
    const max = config.readMaxLineLength;
    const text = points.length > max
      ? `${points.slice(0, max).join("")}... (line truncated to ${max} chars)`
      : points.join("");
    const rendered = `${n}: ${text}`;
    const cost = new TextEncoder().encode(rendered).length + 1;
    if (shown.length > 0 && used + cost > config.readMaxBytes) {
      capped = true;
      break;
    }
    used += cost;
    shown.push(rendered);
  }
  const end = offset + shown.length - 1;
  const footer = capped
    ? `(Output capped. Showing lines ${offset}-${end}. Use offset=${end + 1} to continue.)`
    : end < total
    ? `(Showing lines ${offset}-${end} of ${total}. Use offset=${end + 1} to continue.)`
    : `(End of file - total ${total} lines)`;
  return { content: readText(displayPath, shown, footer) };
}

const enc = new TextEncoder();
const fragment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("a", "b", "xyz", " ", "\t") },
  { weight: 4, arbitrary: fc.constantFrom("\n", "\r\n", "\r", "\n\n") },
  { weight: 4, arbitrary: fc.constantFrom("é", "€", "😀", "中文", "e\u0301", "\uFEFF") },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 40 }).map((n) => "w".repeat(n)) },
).map((text) => enc.encode(text));
const invalid = fc.constantFrom(
  [0xff],
  [0x80],
  [0xc3],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
).map((list) => new Uint8Array(list));
const content = fc.tuple(
  fc.boolean(), // BOM
  fc.array(fc.oneof({ weight: 8, arbitrary: fragment }, { weight: 1, arbitrary: invalid }), {
    maxLength: 60,
  }),
  fc.boolean(), // final line feed
  fc.nat({ max: 30 }), // a NUL now and then (binary)
).map(([bom, parts, finalLf, nul]) => {
  const all = [bom ? new Uint8Array([0xef, 0xbb, 0xbf]) : new Uint8Array(), ...parts];
  if (finalLf) all.push(enc.encode("\n"));
  if (nul === 0) all.splice(all.length >> 1, 0, new Uint8Array([0]));
  const out = new Uint8Array(all.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of all) {
    out.set(part, at);
    at += part.length;
  }
  return out;
});

const caps = fc.record({
  readLimit: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.constant(2000)),
  readMaxLineLength: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constant(2000)),
  readMaxBytes: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constant(51200)),
});
const offsets = fc.oneof(
  { weight: 3, arbitrary: fc.constant(1) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 8 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 40 }) },
);

Deno.test("C4.2 streamed and whole-file reads agree with each other and the reference on random files", async () => {
  await using box = await sandbox("local");
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      content,
      caps,
      offsets,
      fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
      fc.constantFrom(1, 2, 3, 7, 64),
      async (bytes, config, offset, limitWish, chunkSize) => {
        const name = `f${run++}.txt`;
        await Deno.writeFile(join(box.root, name), bytes);
        const limit = limitWish === undefined ? undefined : Math.min(limitWish, config.readLimit);
        const args = { file_path: name, offset, limit };
        const whole = box.toolsWith({ config });
        const streamed = box.toolsWith({ config: { ...config, readStreamMinSize: 0 } }, {
          chunkSize,
        });
        const a = await whole.execute("read", args);
        const b = await streamed.execute("read", args);
        assert.deepEqual(b, a);
        const expected = expectedRead(bytes, name, offset, limit ?? config.readLimit, config);
        assert.equal(a.content, expected.content);
        assert.equal(a.error?.code, expected.code);
        await Deno.remove(join(box.root, name));
      },
    ),
    { numRuns: 1000 },
  );
});

Deno.test("C4.2 every split of a multi-byte character across chunk boundaries reads the same", async () => {
  const text = "é€😀\r\n中e\u0301\n\uFEFF😀😀\r\nend";
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(text), 0xe2, 0x82]);
  await using box = await sandbox("local", { "m.txt": bytes });
  const expected = readText("m.txt", [
    "1: é€😀",
    "2: 中e\u0301",
    "3: \uFEFF😀😀",
    "4: end\uFFFD",
  ], "(End of file - total 4 lines)");
  assert.equal(ok(await box.toolsWith().execute("read", { file_path: "m.txt" })), expected);
  for (let chunkSize = 1; chunkSize <= bytes.length + 1; chunkSize++) {
    const tools = box.toolsWith({ config: { readStreamMinSize: 0 } }, { chunkSize });
    assert.equal(
      ok(await tools.execute("read", { file_path: "m.txt" })),
      expected,
      `chunk ${chunkSize}`,
    );
  }
});

Deno.test("C4.2 paging through a multi-MiB file streamed matches the whole-file read window by window", async () => {
  const lines: string[] = [];
  for (let i = 0; i < 60_000; i++) lines.push(`${i} ${"é".repeat(i % 13)}${"x".repeat(i % 50)}`);
  // Mixed breaks: every third line ends in CRLF.
  const text = lines.map((line, i) => line + (i % 3 === 0 ? "\r\n" : "\n")).join("");
  await using box = await sandbox("local", { "big.txt": text });
  const { root } = box;
  const size = (await Deno.stat(join(root, "big.txt"))).size;
  assert.ok(size > 2 * 1024 * 1024, `${size}`);
  const whole = box.toolsWith({ config: { readLimit: 500 } });
  const streamed = box.toolsWith({ config: { readLimit: 500, readStreamMinSize: 0 } }, {
    chunkSize: 4093,
  });
  // Forward, backward and jumping, so the streamed side reuses its line index.
  for (const offset of [1, 30_000, 59_900, 45_000, 2, 20_000, 59_999, 60_000, 60_001, 59_501]) {
    const args = { file_path: "big.txt", offset, limit: 500 };
    assert.deepEqual(
      await streamed.execute("read", args),
      await whole.execute("read", args),
      `offset ${offset}`,
    );
  }
});

/** A provider that counts the bytes a streamed read consumes. */
class CountingFs extends LocalFileSystem {
  consumed = 0;
  override async streamText(target: FsTarget, options?: FsCallOptions): Promise<FsReadHandle> {
    const handle = await super.streamText(target, options);
    return countingHandle(handle, (bytes) => this.consumed += bytes);
  }
}

Deno.test("C4.2 when the byte cap ends a window the streamed read stops there", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  await Deno.writeTextFile(
    join(root, "big.txt"),
    "a line of forty characters, more or less\n".repeat(100_000),
  );
  const fs = new CountingFs({ roots: [root], chunkSize: 4096 });
  const tools = createFsTools({ fs, config: { readStreamMinSize: 0, readMaxBytes: 1000 } });
  const result = await tools.execute("read", { file_path: "big.txt", offset: 10 });
  assert.equal(
    result.content.split("\n").at(-2),
    "(Output capped. Showing lines 10-31. Use offset=32 to continue.)",
  );
  assert.ok(fs.consumed < 64 * 1024, `consumed ${fs.consumed} bytes of a 4 MB file`);
});
