// CONTRACT C11 (issue 32 item 4): `<s>`, the files searched, does not depend on the pattern. A
// binary file is skipped and never counted, whether the pattern has a literal (the local
// provider's prefilter rules out, ahead of the search, files that lack it) or not (`^`). Over
// enough files that the prefilter is asked (batches of 256; it runs where /proc/self/fd can be
// used, so under -A on Linux), on both providers.

import { equal } from "node:assert/strict";
import { forEachProvider } from "../_sandbox.ts";

const TREE: Record<string, string | Uint8Array> = {};
for (let i = 0; i < 600; i++) {
  const body = i % 10 === 0 ? `export function f${i}() {}\n` : `const x${i} = ${i};\n`;
  TREE[`src/d${i % 6}/f${String(i).padStart(3, "0")}.ts`] = body;
}
// Binary files that lack the literal: small enough for the prefilter to read whole.
for (let i = 0; i < 12; i++) {
  TREE[`assets/d${i % 6}/logo${i}.png`] = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, i, 0, 7]);
  TREE[`src/d${i % 6}/blob${i}.ts`] = new Uint8Array([0x7b, 0, 0x7d, 0x0a, i]);
}
// A UTF-16 text file (binary to read, C4.2) and a text file with a NUL only past 8 KiB.
TREE["src/utf16.ts"] = new Uint8Array([0xff, 0xfe, 0x65, 0, 0x78, 0]);
TREE["src/late.ts"] = "x".repeat(9000) + "\0\n";

/** The footer line of a result. */
function footer(content: string): string {
  return content.split("\n").at(-2)!;
}

forEachProvider(
  "C11: <s> is the same for a pattern with a literal and for ^, binary files never counted",
  TREE,
  async (box) => {
    const literal = await box.run("grep", { pattern: "export function" });
    const every = await box.run("grep", { pattern: "^" });
    const none = await box.run("grep", { pattern: "no such text anywhere" });
    // 600 + late.ts text files; 24 binary ones and utf16.ts skipped.
    equal(footer(literal.content), "(60 matching lines in 60 files; 601 files searched)");
    equal(
      footer(every.content).endsWith("; 601 files searched. Use offset=101 to continue.)"),
      true,
    );
    equal(footer(none.content), '(No matches for "no such text anywhere"; 601 files searched)');
    for (const output_mode of ["files_with_matches", "count"]) {
      const files = await box.run("grep", { pattern: "export function", output_mode });
      equal(footer(files.content).includes("; 601 files searched"), true, files.content);
    }
  },
);
