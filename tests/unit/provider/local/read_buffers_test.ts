// Streamed reads of the Deno provider reuse their buffers (issue 34 item 7): a closed handle's
// chunk and digest buffers serve the next read, never one still open or with a read in flight.

import assert from "node:assert/strict";
import { LocalFileSystem } from "../../../../mod.ts";
import type { FsReadHandle, FsTarget } from "../../../../provider.ts";
import { sandbox } from "../../../_sandbox.ts";

/** 1.5 MiB of numbered lines: above the digest's whole-file size below, so head and tail. */
function content(): string {
  let text = "";
  for (let i = 1; text.length < 1.5 * 1024 * 1024; i++) text += `${String(i).padStart(9, "0")}\n`;
  return text;
}

const decoder = new TextDecoder();

/** Every chunk of a stream, decoded, and the buffers they lay in. */
async function drain(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ text: string; buffers: Set<ArrayBufferLike> }> {
  const parts: string[] = [];
  const buffers = new Set<ArrayBufferLike>();
  for await (const chunk of chunks) {
    parts.push(decoder.decode(chunk, { stream: true }));
    buffers.add(chunk.buffer);
  }
  return { text: parts.join("") + decoder.decode(), buffers };
}

async function setUp() {
  const text = content();
  const box = await sandbox("local", { "big.txt": text });
  const fs = new LocalFileSystem({
    roots: [box.root],
    chunkSize: 64 * 1024,
    fullDigestMaxSize: 1024 * 1024,
  });
  const target: FsTarget = await fs.resolve("big.txt", { cwd: box.root, op: "read" });
  return { box, fs, target, text };
}

async function read(handle: FsReadHandle) {
  try {
    return await drain(handle.chunks(0));
  } finally {
    handle.close();
  }
}

Deno.test("local_fs: a streamed read reuses the buffers of one closed before it", async () => {
  const { box, fs, target, text } = await setUp();
  await using _ = box;
  const first = await read(await fs.streamText(target));
  const second = await read(await fs.streamText(target));
  assert.equal(first.text, text);
  assert.equal(second.text, text);
  // The digest's head buffer and both chunk buffers.
  assert.equal(first.buffers.size, 3);
  assert.equal(second.buffers.size, 3);
  for (const buffer of second.buffers) assert.ok(first.buffers.has(buffer), "a new buffer");
});

Deno.test("local_fs: open streamed reads never share buffers", async () => {
  const { box, fs, target, text } = await setUp();
  await using _ = box;
  const a = await fs.streamText(target);
  const b = await fs.streamText(target);
  const [ra, rb] = await Promise.all([read(a), read(b)]);
  assert.equal(ra.text, text);
  assert.equal(rb.text, text);
  for (const buffer of ra.buffers) assert.ok(!rb.buffers.has(buffer));
});

Deno.test("local_fs: a handle closed while its stream is suspended keeps its buffers", async () => {
  const { box, fs, target, text } = await setUp();
  await using _ = box;
  const held = await fs.streamText(target);
  const stream = held.chunks(0)[Symbol.asyncIterator]();
  const seen = new Set<ArrayBufferLike>();
  for (let i = 0; i < 3; i++) seen.add((await stream.next()).value!.buffer); // a read ahead in flight
  held.close();
  const next = await read(await fs.streamText(target));
  assert.equal(next.text, text);
  for (const buffer of seen) assert.ok(!next.buffers.has(buffer));
  await stream.return?.(undefined).catch(() => {});
  // A stream asked for after the close fails, as a read of the closed file does.
  await assert.rejects(drain(held.chunks(0)));
});
