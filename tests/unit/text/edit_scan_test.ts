// Unit tests of the streamed edit's pure parts (issue 20 item 7; CONTRACT C4.4, C5.7, C6): the
// window-by-window plan (src/text/edit_scan.ts) is the one `planEdit` makes of the joined
// bytes, however the file is cut into reads; the streamed digest gives the version of the
// joined bytes; undoing a replacement gives the old bytes back (src/provider/local/_kept.ts).

import assert from "node:assert/strict";
import fc from "fast-check";
import { MatchError, planEdit } from "../../../src/text/edit_apply.ts";
import { EditScan } from "../../../src/text/edit_scan.ts";
import { Versioner } from "../../../src/provider/local/_version.ts";
import { undoReplacement } from "../../../src/provider/local/_kept.ts";

const encoder = new TextEncoder();

/** `bytes` fed to a scan as a reader would: reads of the sizes in `cuts`, each window after the overlap kept. */
function scanned(bytes: Uint8Array, scan: EditScan, cuts: number[]) {
  let keep = 0;
  let total = 0;
  let window = new Uint8Array(0);
  for (let i = 0; total < bytes.length; i++) {
    const n = Math.min(cuts[i % cuts.length], bytes.length - total);
    const next = new Uint8Array(keep + n);
    next.set(window.subarray(window.length - keep));
    next.set(bytes.subarray(total, total + n), keep);
    window = next;
    scan.feed(window, total - keep, n);
    total += n;
    keep = Math.min(scan.overlap, window.length);
  }
  return scan.plan();
}

/** What `planEdit` makes of the joined bytes, in the scan's terms (`undefined`: no single plan). */
function whole(bytes: Uint8Array, request: Parameters<typeof planEdit>[1]) {
  try {
    const { positions, needle, replacement } = planEdit(bytes, request);
    return { positions, needle, replacement };
  } catch (error) {
    if (error instanceof MatchError) return undefined;
    throw error;
  }
}

// Few distinct characters (line breaks of both kinds among them), so matches, overlaps,
// occurrences across reads and the line-break rule all come up often.
const text = (max: number) =>
  fc.array(fc.constantFrom("a", "b", "ab", "\n", "\r\n", "é", " "), { maxLength: max })
    .map((parts) => parts.join(""));

Deno.test("C4.4 a plan made window by window is planEdit's of the whole file, whatever the reads", () => {
  fc.assert(
    fc.property(
      text(200),
      text(6).filter((s) => s !== ""),
      text(4),
      fc.boolean(),
      fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1, maxLength: 5 }),
      (file, oldString, newString, replaceAll, cuts) => {
        fc.pre(oldString !== newString);
        const bytes = encoder.encode(file);
        const request = { oldString, newString, replaceAll };
        assert.deepEqual(scanned(bytes, new EditScan(request), cuts), whole(bytes, request));
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("C4.4 a long needle across reads of a log is found once, as planEdit finds it", () => {
  let file = "";
  for (let i = 0; i < 3000; i++) file += `${String(i).padStart(9, "0")} 2026-01-01 ${i % 97}\n`;
  const bytes = encoder.encode(file);
  const request = { oldString: "000001500 2026-", newString: "000001500 2027-", replaceAll: false };
  for (const cut of [1, 7, 64, 4096, bytes.length]) {
    const plan = scanned(bytes, new EditScan(request), [cut]);
    assert.deepEqual(plan, whole(bytes, request), `reads of ${cut}`);
    assert.equal(plan?.positions.length, 1);
  }
});

Deno.test("C4.4 the binary rule reads the first 8 KiB of the stream", () => {
  const bytes = new Uint8Array(20000).fill(0x61);
  bytes[8191] = 0;
  const scan = new EditScan({ oldString: "aa", newString: "b", replaceAll: true });
  scanned(bytes, scan, [1000]);
  assert.equal(scan.head.length, 8192);
  assert.equal(scan.head[8191], 0);
});

Deno.test("C5.7 a streamed digest gives the version of the joined bytes, however they are cut", async () => {
  const info = { dev: 1, ino: 2, size: 0, mtime: new Date(3) } as Deno.FileInfo;
  for (
    const [length, limit] of [[0, 10], [100, 1000], [1000, 100], [300_000, 100], [700_000, 100]]
  ) {
    const bytes = new Uint8Array(length).map((_, i) => (i * 7919) % 251);
    const versions = new Versioner(limit);
    const expected = await versions.version({ ...info, size: length }, bytes, null);
    for (const cut of [1, 4096, 65536, 1 << 20]) {
      if (length / cut > 100_000) continue;
      const digest = versions.stream(length);
      for (let at = 0; at < length; at += cut) digest.update(bytes.subarray(at, at + cut));
      assert.equal(digest.version({ ...info, size: length }), expected, `${length} bytes, ${cut}`);
    }
  }
});

Deno.test("C6 undoing a replacement gives the old bytes back, and refuses bytes without it", () => {
  fc.assert(
    fc.property(
      text(120),
      text(5).filter((s) => s !== ""),
      text(4),
      (file, oldString, newString) => {
        fc.pre(oldString !== newString);
        const bytes = encoder.encode(file);
        const plan = whole(bytes, { oldString, newString, replaceAll: true });
        if (!plan) return;
        const after = planEdit(bytes, { oldString, newString, replaceAll: true }).after;
        assert.deepEqual(undoReplacement(after, plan), bytes);
      },
    ),
    { numRuns: 2000 },
  );
  const plan = {
    positions: [2],
    needle: encoder.encode("cd"),
    replacement: encoder.encode("XY"),
  };
  assert.deepEqual(undoReplacement(encoder.encode("abXYef"), plan), encoder.encode("abcdef"));
  assert.throws(() => undoReplacement(encoder.encode("abZZef"), plan), /old bytes are lost/);
});
