// CONTRACT C10 (issue 32 item 3): a sized listing (`glob` with `sort: "size"`) says after the
// size what `read` would make of a file that is not text: `binary` (C4.2), `image` (C17.1),
// `document` (C17.2), so finding the largest text file needs no probe reads. Both providers.

import { deepEqual, equal } from "node:assert/strict";
import { expect, forEachProvider, outcome } from "../_sandbox.ts";

function globText(lines: string[], footer: string): string {
  return `<path>.</path>\n<type>glob</type>\n<content>\n${
    lines.join("\n")
  }\n\n${footer}\n</content>`;
}

/** `size` bytes starting with `head`, then `fill`. */
function file(size: number, head: number[] | string, fill = 0x61): Uint8Array {
  const bytes = new Uint8Array(size).fill(fill);
  bytes.set(typeof head === "string" ? new TextEncoder().encode(head) : head);
  return bytes;
}

// A PNG signature and IHDR chunk of a 1280x1280 image.
const PNG = [
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0,
  0,
  0,
  13,
  0x49,
  0x48,
  0x44,
  0x52,
  0,
  0,
  5,
  0,
  0,
  0,
  5,
  0,
  8,
  6,
  0,
  0,
  0,
];

const TREE = {
  // The three lines: 674.9 KiB, 436.2 KiB, 1.2 MiB.
  "logo.pxm": file(691098, [0x50, 0x58, 0x4d, 0, 1, 0, 0, 0]), // a NUL in its first 8 KiB
  "logo.png": file(446669, PNG),
  "guide.pdf": file(1258292, "%PDF-1.7\n"),
  "notes.md": file(300000, "# Notes\n"),
  "utf16.txt": file(2000, [0xff, 0xfe, 0x41, 0x00]), // read calls UTF-16 binary (C4.2)
  "late-nul.txt": file(9000, new Array(8192).fill(0x62).concat([0])), // NUL after 8 KiB: text
  "empty.txt": "",
};

forEachProvider(
  "C10: glob sort size names binary files, images and documents after the size",
  TREE,
  async (box) => {
    await expect(
      box,
      "glob",
      { pattern: "**/*", sort: "size" },
      globText([
        "guide.pdf (1.2 MiB, document)",
        "logo.pxm (674.9 KiB, binary)",
        "logo.png (436.2 KiB, image)",
        "notes.md (293.0 KiB)",
        "late-nul.txt (8.8 KiB)",
        "utf16.txt (2.0 KiB, binary)",
        "empty.txt (0 B)",
      ], '(7 files match "**/*")'),
    );
    // What read makes of them: the binary ones are refused, the others are text.
    for (const name of ["logo.pxm", "utf16.txt"]) {
      await expect(
        box,
        "read",
        { file_path: name },
        `Error: cannot read "${name}": binary file`,
        "FS_BINARY",
      );
    }
    for (const name of ["notes.md", "late-nul.txt"]) {
      equal((await box.run("read", { file_path: name, limit: 1 })).isError, false);
    }
    // Only the sized order shows sizes, and so kinds.
    await expect(
      box,
      "glob",
      { pattern: "logo.*" },
      globText(["logo.png", "logo.pxm"], '(2 files match "logo.*")'),
    );
  },
);

forEachProvider(
  "C10/C17.1: with readImages false an image is a binary file, as read says",
  TREE,
  async (box) => {
    const tools = box.toolsWith({ config: { readImages: false } });
    const result = await tools.execute("glob", { pattern: "logo.*", sort: "size" });
    deepEqual(outcome(box, result), [
      globText(
        ["logo.pxm (674.9 KiB, binary)", "logo.png (436.2 KiB, binary)"],
        '(2 files match "logo.*")',
      ),
      undefined,
    ]);
  },
);
