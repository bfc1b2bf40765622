// CONTRACT C17 (images and documents in `read`) on both providers, against the committed
// fixtures in tests/fixtures/media/ (tiny files made with ImageMagick, qpdf and by hand).

import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { makePdf, numberedPages } from "../_pdf.ts";
import { forEachProvider, outcome, sandbox } from "../_sandbox.ts";
import { encoder } from "../_helpers.ts";

const FIXTURES = new URL("../fixtures/media/", import.meta.url);
const names = [
  "red.png",
  "blue.jpg",
  "green.gif",
  "yellow.webp",
  "two_pages.pdf",
  "image_only.pdf",
  "encrypted.pdf",
  "damaged.png",
];
const files: Record<string, Uint8Array> = {};
for (const name of names) files[name] = Deno.readFileSync(new URL(name, FIXTURES));
// The same bytes under names that say something else: the signature decides (C17.1).
files["disguised.txt"] = files["red.png"];
files["notes.png"] = encoder.encode("plain text\n");

function imageText(path: string, line: string): string {
  return `<path>${path}</path>\n<type>image</type>\n<content>\n${line}\n</content>`;
}

function base64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

const IMAGES: [string, string, string][] = [
  ["red.png", "image/png", "image/png 3x2, 84 B"],
  ["blue.jpg", "image/jpeg", "image/jpeg 4x3, 288 B"],
  ["green.gif", "image/gif", "image/gif 5x4, 45 B"],
  ["yellow.webp", "image/webp", "image/webp 6x5, 36 B"],
  ["disguised.txt", "image/png", "image/png 3x2, 84 B"],
];

forEachProvider(
  "C17.1 read of an image gives the envelope and the file's bytes as an attachment",
  files,
  async (box) => {
    for (const [path, mimeType, line] of IMAGES) {
      const result = await box.run("read", { file_path: path });
      assert.equal(result.content, imageText(path, line), path);
      assert.equal(result.isError, false);
      assert.deepEqual(result.attachments, [{
        type: "image",
        mimeType,
        data: base64(files[path]),
      }]);
      const decoded = Uint8Array.from(atob(result.attachments![0].data), (c) => c.charCodeAt(0));
      assert.deepEqual(decoded, files[path]);
    }
    const value = (await box.run("read", { file_path: "red.png" })).value;
    assert.deepEqual(value, {
      path: box.path("red.png"),
      offset: 1,
      lines: [],
      image: { mimeType: "image/png", width: 3, height: 2, size: 84 },
    });
    // A .png name holding text is text.
    const text = await box.run("read", { file_path: "notes.png" });
    assert.equal(text.attachments, undefined);
    assert.match(text.content, /<type>file<\/type>\n<content>\n1: plain text\n/);
  },
);

forEachProvider("C17.1 offset and limit do not apply to images", files, async (box) => {
  for (const args of [{ offset: 1 }, { limit: 5 }, { offset: 2, limit: 1 }]) {
    assert.deepEqual(outcome(box, await box.run("read", { file_path: "red.png", ...args })), [
      "Error: offset and limit do not apply to images",
      "FS_INVALID_ARGUMENT",
    ]);
  }
  // null counts as absent (C1.4).
  const result = await box.run("read", { file_path: "red.png", offset: null, limit: null });
  assert.equal(result.isError, false);
});

forEachProvider(
  "C17.1 an image over readMaxImageBytes is refused with its size and the limit",
  files,
  async (box) => {
    const tools = box.toolsWith({ config: { readMaxImageBytes: 50 } });
    assert.deepEqual(outcome(box, await tools.execute("read", { file_path: "red.png" })), [
      'Error: cannot read "red.png": image of 84 B is over the 50 B limit',
      "FS_IO_ERROR",
    ]);
    assert.equal((await tools.execute("read", { file_path: "green.gif" })).isError, false);
  },
);

forEachProvider("C17.1 readImages: false keeps images a binary file", files, async (box) => {
  const tools = box.toolsWith({ config: { readImages: false } });
  for (const path of ["red.png", "blue.jpg", "green.gif", "yellow.webp"]) {
    assert.deepEqual(outcome(box, await tools.execute("read", { file_path: path })), [
      `Error: cannot read "${path}": binary file`,
      "FS_BINARY",
    ]);
  }
});

forEachProvider("C17.1 a PNG signature with garbage after it fails clearly", files, async (box) => {
  assert.deepEqual(outcome(box, await box.run("read", { file_path: "damaged.png" })), [
    'Error: cannot read "damaged.png": the file starts like a PNG image but its header is damaged',
    "FS_BINARY",
  ]);
});

const TWO_PAGES = [
  "1: --- page 1 ---",
  "2: First page, line one",
  "3: First page, line two",
  "4: --- page 2 ---",
  "5: Second page text",
];

function documentText(path: string, lines: string[], footer: string): string {
  return `<path>${path}</path>\n<type>document</type>\n<content>\n${
    lines.map((l) => l + "\n").join("")
  }\n${footer}\n</content>`;
}

forEachProvider(
  "C17.2 a PDF reads as its text, page markers before each page",
  files,
  async (box) => {
    const result = await box.run("read", { file_path: "two_pages.pdf" });
    assert.equal(
      result.content,
      documentText("two_pages.pdf", TWO_PAGES, "(End of file - total 5 lines)"),
    );
    assert.equal(result.attachments, undefined);
    assert.deepEqual(result.value, {
      path: box.path("two_pages.pdf"),
      offset: 1,
      lines: TWO_PAGES.map((l) => {
        const [n, ...rest] = l.split(": ");
        return { number: Number(n), text: rest.join(": ") };
      }),
      totalLines: 5,
      document: { pages: 2 },
    });
  },
);

forEachProvider(
  "C17.2 a PDF is windowed exactly as a text file (offset, limit, byte cap)",
  files,
  async (box) => {
    assert.equal(
      (await box.run("read", { file_path: "two_pages.pdf", limit: 2 })).content,
      documentText(
        "two_pages.pdf",
        TWO_PAGES.slice(0, 2),
        "(Showing lines 1-2 of 5. Use offset=3 to continue.)",
      ),
    );
    // A later window resumes at a page boundary the first scan recorded.
    assert.equal(
      (await box.run("read", { file_path: "two_pages.pdf", offset: 4, limit: 1 })).content,
      documentText(
        "two_pages.pdf",
        TWO_PAGES.slice(3, 4),
        "(Showing lines 4-4 of 5. Use offset=5 to continue.)",
      ),
    );
    assert.equal(
      (await box.run("read", { file_path: "two_pages.pdf", offset: 3 })).content,
      documentText("two_pages.pdf", TWO_PAGES.slice(2), "(End of file - total 5 lines)"),
    );
    assert.deepEqual(
      outcome(box, await box.run("read", { file_path: "two_pages.pdf", offset: 9 })),
      ['Error: offset 9 is out of range for "two_pages.pdf" (5 lines)', "FS_OFFSET_OUT_OF_RANGE"],
    );
    const capped = await box.toolsWith({ config: { readMaxBytes: 50 } }).execute("read", {
      file_path: "two_pages.pdf",
    });
    assert.equal(
      capped.content.split("\n").slice(0, 5).join("\n"),
      [
        "<path>two_pages.pdf</path>",
        "<type>document</type>",
        "<content>",
        TWO_PAGES[0],
        TWO_PAGES[1],
      ].join("\n"),
    );
    assert.match(
      capped.content,
      /\n\(Output capped[^\n]*Showing lines 1-2[^\n]*offset=3 to continue\.\)\n<\/content>$/,
    );
  },
);

forEachProvider(
  "C17.2 encrypted and text-less PDFs fail with a message that says so",
  files,
  async (box) => {
    assert.deepEqual(outcome(box, await box.run("read", { file_path: "encrypted.pdf" })), [
      'Error: cannot read "encrypted.pdf": the PDF is encrypted; its text cannot be extracted without the password',
      "FS_BINARY",
    ]);
    assert.deepEqual(outcome(box, await box.run("read", { file_path: "image_only.pdf" })), [
      'Error: cannot read "image_only.pdf": the PDF has no extractable text (1 page, scanned or image-only)',
      "FS_BINARY",
    ]);
  },
);

forEachProvider("C17.2 a PDF over readMaxDocumentBytes is refused; a damaged one fails clearly", {
  ...files,
  "broken.pdf": encoder.encode("%PDF-1.4\nnot really a PDF\n"),
}, async (box) => {
  const tools = box.toolsWith({ config: { readMaxDocumentBytes: 100 } });
  assert.deepEqual(outcome(box, await tools.execute("read", { file_path: "two_pages.pdf" })), [
    'Error: cannot read "two_pages.pdf": PDF of 911 B is over the 100 B limit',
    "FS_IO_ERROR",
  ]);
  const [text, code] = outcome(box, await box.run("read", { file_path: "broken.pdf" }));
  assert.equal(code, "FS_BINARY");
  assert.match(text, /^Error: cannot read "broken\.pdf": the PDF cannot be parsed \(.+\)$/);
});

forEachProvider(
  "C17.4 image and document reads are observations: write and edit may follow",
  files,
  async (box) => {
    assert.equal((await box.run("read", { file_path: "red.png" })).isError, false);
    assert.equal((await box.run("write", { file_path: "red.png", content: "x" })).isError, false);
    assert.equal((await box.run("read", { file_path: "two_pages.pdf" })).isError, false);
    assert.equal(
      (await box.run("write", { file_path: "two_pages.pdf", content: "y" })).isError,
      false,
    );
    // Without a read, the gate holds.
    const [, code] = outcome(box, await box.run("write", { file_path: "green.gif", content: "z" }));
    assert.equal(code, "FS_NOT_OBSERVED");
  },
);

Deno.test("C17.1 a 50 MB image is refused from its size, without reading it whole", async () => {
  await using box = await sandbox("local", {});
  const path = box.path("huge.png");
  // A real PNG header, then 50 MB of zeros: written in pieces, never held whole here.
  const file = await Deno.open(path, { write: true, create: true });
  await file.write(files["red.png"].subarray(0, 33));
  const zeros = new Uint8Array(1 << 20);
  for (let i = 0; i < 50; i++) await file.write(zeros);
  file.close();
  const before = Deno.memoryUsage().rss;
  const result = await box.run("read", { file_path: "huge.png" });
  const grown = Deno.memoryUsage().rss - before;
  assert.deepEqual(outcome(box, result), [
    'Error: cannot read "huge.png": image of 50.0 MiB is over the 5.0 MiB limit',
    "FS_IO_ERROR",
  ]);
  // Far less than the file: only its head was read.
  assert.ok(grown < 20 * 1024 * 1024, `rss grew by ${grown} bytes`);
  // Also when the stream threshold is above the file's size.
  const tools = box.toolsWith({ config: { readStreamMinSize: 1024 * 1024 * 1024 } });
  assert.equal((await tools.execute("read", { file_path: "huge.png" })).error?.code, "FS_IO_ERROR");
});

const TWENTY = makePdf(numberedPages(20, 10));

forEachProvider(
  "C17.2 a 20-page PDF: limit 50 shows pages 1-5 with the total; a later window resumes",
  {
    "twenty.pdf": TWENTY,
  },
  async (box) => {
    const first = await box.run("read", { file_path: "twenty.pdf", limit: 50 });
    const lines = first.content.split("\n");
    assertEquals(lines.slice(3, 6), [
      "1: --- page 1 ---",
      "2: page 1 line 1 of a generated document",
      "3: page 1 line 2 of a generated document",
    ]);
    // 11 lines per page (the marker and ten lines): line 50 is page 5's line 5.
    assertEquals(lines.at(-4), "50: page 5 line 5 of a generated document");
    assertEquals(lines.at(-2), "(Showing lines 1-50 of 220. Use offset=51 to continue.)");
    const last = await box.run("read", { file_path: "twenty.pdf", offset: 210, limit: 2 });
    assertEquals(last.content.split("\n").slice(3, 5), [
      "210: --- page 20 ---",
      "211: page 20 line 1 of a generated document",
    ]);
    const end = await box.run("read", { file_path: "twenty.pdf", offset: 219 });
    assertEquals(
      end.content.split("\n").slice(3).join("\n"),
      "219: page 20 line 9 of a generated document\n220: page 20 line 10 of a generated document\n\n(End of file - total 220 lines)\n</content>",
    );
  },
);
