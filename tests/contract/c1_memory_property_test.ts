// C1.7 as a property: over random files and random calls, `read`, `edit` and `write` give the
// same content, code and resulting bytes on MemoryFileSystem as on LocalFileSystem.

import assert from "node:assert/strict";
import fc from "fast-check";
import { outcome, PROVIDERS, type Sandbox, sandbox } from "../_sandbox.ts";

const piece = fc.constantFrom("a", "b", " ", "\t", "\n", "\r\n", "\r", "é", "日", "😀", "\uFEFF");
const content = fc.oneof(
  fc.array(piece, { maxLength: 60 }).map((parts) => parts.join("")),
  fc.uint8Array({ maxLength: 40 }), // invalid UTF-8 and NUL bytes too
);
const config = fc.record({
  readMaxBytes: fc.integer({ min: 1, max: 80 }),
  readMaxLineLength: fc.integer({ min: 1, max: 12 }),
  readStreamMinSize: fc.constantFrom(1, 10485760),
});
const call = fc.oneof(
  fc.record({
    tool: fc.constant("read"),
    args: fc.record({
      file_path: fc.constant("f.txt"),
      offset: fc.integer({ min: 1, max: 12 }),
      limit: fc.integer({ min: 1, max: 12 }),
    }),
  }),
  fc.record({
    tool: fc.constant("edit"),
    args: fc.record({
      file_path: fc.constant("f.txt"),
      old_string: fc.array(piece, { minLength: 1, maxLength: 3 }).map((p) => p.join("")),
      new_string: fc.array(piece, { maxLength: 3 }).map((p) => p.join("")),
      replace_all: fc.boolean(),
    }),
  }),
  fc.record({
    tool: fc.constant("write"),
    args: fc.record({
      file_path: fc.constantFrom("f.txt", "g/h.txt"),
      content: fc.array(piece, { maxLength: 8 }).map((p) => p.join("")),
    }),
  }),
);

Deno.test("C1.7: random files and calls give identical results on both providers", async () => {
  const boxes: Sandbox[] = [];
  for (const kind of PROVIDERS) boxes.push(await sandbox(kind, {}, { policy: false }));
  try {
    await fc.assert(
      fc.asyncProperty(
        content,
        config,
        fc.array(call, { maxLength: 4 }),
        async (file, cfg, calls) => {
          const results: unknown[][] = [];
          for (const box of boxes) {
            await box.write("f.txt", file);
            await box.write("g/h.txt", "");
            const tools = box.toolsWith({ policy: false, config: cfg });
            const seen: unknown[] = [];
            for (const { tool, args } of calls) {
              seen.push(outcome(box, await tools.execute(tool, args)));
            }
            seen.push(await box.bytes("f.txt"), await box.bytes("g/h.txt"));
            results.push(seen);
          }
          assert.deepEqual(results[1], results[0]);
        },
      ),
      { numRuns: 150 },
    );
  } finally {
    for (const box of boxes) await box.cleanup();
  }
});
