// Huge inputs (issue 7, C4.2 streaming, C2): a 1 GiB file that is one line and a 2 GiB sparse
// file are read with memory bounded independently of their size, measured in a child process;
// write and edit refuse a file too large to hold as text before touching it.

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  adversarialSandbox,
  cannotRun,
  figure,
  notSlowRun,
  rootPermissions,
  runChild,
  skipUnless,
} from "./_harness.ts";

const GiB = 1 << 30;
/** Peak resident memory a call may add: far below the files' sizes. */
const MAX_PEAK_MIB = 160;

interface Report {
  content: string;
  tail: string;
  code: string | null;
  ms: number;
  peakMiB: number;
}

async function runCalls(root: string, calls: [string, unknown][]): Promise<Report[]> {
  const args = [root, JSON.stringify(calls)];
  const permissions = rootPermissions(root);
  return (await runChild<Report[]>("./_huge_child.ts", args, { permissions })).report;
}

/** Writes a 1 GiB file of one line: `a` repeated, then a final newline. */
async function writeOneLine(path: string): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true });
  try {
    const chunk = new Uint8Array(64 << 20).fill(0x61);
    for (let written = 0; written < GiB; written += chunk.length) {
      let at = 0;
      while (at < chunk.length) at += await file.write(chunk.subarray(at));
    }
    await file.write(new Uint8Array([0x0a]));
  } finally {
    file.close();
  }
}

const name = "huge inputs: a 1 GiB line and a 2 GiB sparse file read with bounded memory";
Deno.test({
  name,
  ignore: skipUnless(name, notSlowRun() ?? cannotRun()),
  async fn() {
    await using box = await adversarialSandbox();
    const line = join(box.root, "line.txt");
    await writeOneLine(line);
    const sparse = join(box.root, "sparse.txt");
    const head = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}\n`).join("");
    await Deno.writeTextFile(sparse, head);
    // The rest reads as NUL bytes: a run of 1 MiB of them makes the file binary (issue 10,
    // finding 11), so the read stops there instead of counting 2 GiB of NULs.
    await Deno.truncate(sparse, 2 * GiB);
    const calls: [string, unknown][] = [
      ["read", { file_path: "line.txt" }],
      ["read", { file_path: "line.txt", offset: 2 }],
      ["read", { file_path: "sparse.txt" }],
      ["read", { file_path: "sparse.txt", offset: 2999, limit: 5 }],
      ["write", { file_path: "sparse.txt", content: "small\n" }],
      ["edit", { file_path: "sparse.txt", old_string: "line 7\n", new_string: "LINE 7\n" }],
    ];
    const [oneLine, outOfRange, sparseHead, sparseTail, write, edit] = await runCalls(
      box.root,
      calls,
    );
    const truncated = `1: ${"a".repeat(2000)}... (line truncated to 2000 chars)\n`;
    assert.ok(oneLine.content.includes(truncated), oneLine.content.slice(0, 200));
    assert.ok(oneLine.tail.endsWith("(End of file - total 1 lines)\n</content>"), oneLine.tail);
    assert.equal(outOfRange.content, 'Error: offset 2 is out of range for "line.txt" (1 lines)');
    assert.equal(sparseHead.content, 'Error: cannot read "sparse.txt": binary file');
    assert.equal(sparseTail.content, 'Error: cannot read "sparse.txt": binary file');
    const tooLarge =
      "too large (2147483648 bytes; write and edit handle files up to 536870888 bytes)";
    // The session has read sparse.txt, so the policy lets these through to the size check.
    assert.equal(write.content, `Error: cannot write "sparse.txt": ${tooLarge}`);
    assert.equal(edit.content, `Error: cannot edit "sparse.txt": ${tooLarge}`);
    for (
      const [i, report] of [oneLine, outOfRange, sparseHead, sparseTail, write, edit].entries()
    ) {
      assert.ok(
        report.peakMiB <= MAX_PEAK_MIB,
        `${JSON.stringify(calls[i])} added ${report.peakMiB} MiB of resident memory`,
      );
    }
    const info = await Deno.stat(sparse);
    assert.equal(info.size, 2 * GiB, "the sparse file changed size");
    const first = new TextDecoder().decode((await Deno.readFile(sparse)).subarray(0, 64));
    assert.ok(first.startsWith("line 1\nline 2\n"));
    figure(
      "huge inputs",
      `1 GiB line read in ${oneLine.ms} ms (+${oneLine.peakMiB} MiB), 2 GiB sparse file in ${sparseHead.ms} ms (+${sparseHead.peakMiB} MiB); write/edit of it refused before reading`,
    );
  },
});
