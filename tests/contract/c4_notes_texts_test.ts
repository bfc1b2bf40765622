// CONTRACT C4.1-C4.4 against the design notes (shared seeds): by default the success texts of
// `list`, `read`, `write` and `edit` are the notes' texts byte for byte. The notes' strings are
// quoted below as the notes give them, placeholders and all, and filled in here. C4.2a: with
// `detailedFooters` the read footers and the replace-all text give the details.

import { equal } from "node:assert/strict";
import { forEachProvider, type Sandbox } from "../_sandbox.ts";

/** The notes' texts, quoted exactly ("Model Experience" of the tool package's notes). */
const NOTES = {
  listEmpty: "(Empty directory)",
  listFooter: "(<n> entries: <d> directories, <f> files)",
  listCapped:
    "(Showing <k> of <n> entries: <d> directories, <f> files. Entries are directories first, then files, each alphabetical; list a subdirectory to see the rest.)",
  readCapped: "(Output capped. Showing lines <start>-<end>. Use offset=<next> to continue.)",
  readMore: "(Showing lines <start>-<end> of <total>. Use offset=<next> to continue.)",
  readEnd: "(End of file - total <total> lines)",
  truncated: "... (line truncated to <max> chars)",
  edit: "The file <displayPath> has been updated successfully.",
  editAll: "The file <displayPath> has been updated. All occurrences were successfully replaced.",
} as const;

/** A notes' template with its placeholders filled (only the ones named). */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/<(\w+)>/g, (whole, name) => name in values ? `${values[name]}` : whole);
}

/** The notes' envelope: `<path>…</path>`, `<type>…</type>`, `<content>`, body, `</content>`. */
function envelope(displayPath: string, type: string, body: string): string {
  return `<path>${displayPath}</path>\n<type>${type}</type>\n<content>\n${body}\n</content>`;
}

async function content(box: Sandbox, tool: string, args: Record<string, unknown>) {
  const result = await box.run(tool, args);
  equal(result.isError, false, result.content);
  return result.content;
}

forEachProvider("C4.1/C4.2/C4.3/C4.4 the default texts are the design notes' byte for byte", {
  "d/sub/": "",
  "d/a.txt": "x",
  "d/b.txt": "y",
  "e/": "",
  "many.txt": Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n",
  "short.txt": "one\ntwo",
  "wide.txt": "w".repeat(20) + "\n",
  "r.txt": "a = 1\na = 1\n",
}, async (box) => {
  // list
  equal(
    await content(box, "list", { path: "d" }),
    envelope(
      "d",
      "directory",
      `sub/\na.txt\nb.txt\n\n${fill(NOTES.listFooter, { n: 3, d: 1, f: 2 })}`,
    )
      // The notes' singular rule: one directory is `1 directory`.
      .replace("1 directories", "1 directory"),
  );
  equal(
    await content(box, "list", { path: "e" }),
    envelope("e", "directory", `\n${NOTES.listEmpty}`),
  );
  const narrow = box.toolsWith({ config: { listMaxEntries: 1, readMaxBytes: 25 } });
  const cut = box.toolsWith({ config: { readMaxLineLength: 5 } });
  equal(
    (await narrow.execute("list", { path: "d" })).content,
    envelope(
      "d",
      "directory",
      `sub/\n\n${fill(NOTES.listCapped, { k: 1, n: 3, d: 1, f: 2 })}`.replace(
        "1 directories",
        "1 directory",
      ),
    ),
  );
  // read: each footer, and the truncation marker
  const lines = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `${from + i}: line ${from + i}`).join("\n");
  equal(
    (await narrow.execute("read", { file_path: "many.txt", offset: 2 })).content,
    envelope(
      "many.txt",
      "file",
      `${lines(2, 3)}\n\n${fill(NOTES.readCapped, { start: 2, end: 3, next: 4 })}`,
    ),
  );
  equal(
    await content(box, "read", { file_path: "many.txt", offset: 5, limit: 3 }),
    envelope(
      "many.txt",
      "file",
      `${lines(5, 7)}\n\n${fill(NOTES.readMore, { start: 5, end: 7, total: 30, next: 8 })}`,
    ),
  );
  equal(
    await content(box, "read", { file_path: "short.txt" }),
    envelope("short.txt", "file", `1: one\n2: two\n\n${fill(NOTES.readEnd, { total: 2 })}`),
  );
  equal(
    (await cut.execute("read", { file_path: "wide.txt" })).content,
    envelope(
      "wide.txt",
      "file",
      `1: wwwww${fill(NOTES.truncated, { max: 5 })}\n\n${fill(NOTES.readEnd, { total: 1 })}`,
    ),
  );
  // write: the five-line envelope
  equal(
    await content(box, "write", { file_path: "new.txt", content: "n\n" }),
    envelope("new.txt", "file", "Created file"),
  );
  equal(
    await content(box, "write", { file_path: "new.txt", content: "m\n" }),
    envelope("new.txt", "file", "Updated file"),
  );
  // edit: once, and replace_all (one occurrence or many, the same text)
  await box.run("read", { file_path: "r.txt" });
  const edit = (old_string: string, new_string: string, replace_all?: boolean) =>
    content(box, "edit", { file_path: "r.txt", old_string, new_string, replace_all });
  equal(await edit("a = 1\na", "b", false), fill(NOTES.edit, { displayPath: "r.txt" }));
  equal(await edit("1", "2", true), fill(NOTES.editAll, { displayPath: "r.txt" }));
  equal(await edit("b", "c", true), fill(NOTES.editAll, { displayPath: "r.txt" }));
  equal(await box.read("r.txt"), "c = 2\n");
});

forEachProvider("C4.2a detailedFooters: the cap and total, 1 line, no newline at end of file", {
  "one.txt": "only",
  "one-nl.txt": "only\n",
  "two.txt": "a\nb",
  "empty.txt": "",
  "many.txt": Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n"),
}, async (box) => {
  for (const readStreamMinSize of [10485760, 0]) {
    // Whole-file and streamed reads give the same footers.
    const tools = box.toolsWith({ config: { detailedFooters: true, readStreamMinSize } });
    const footer = async (args: Record<string, unknown>) =>
      (await tools.execute("read", args)).content.split("\n").at(-2);
    equal(
      await footer({ file_path: "one.txt" }),
      "(End of file - total 1 line; no newline at end of file)",
    );
    equal(await footer({ file_path: "one-nl.txt" }), "(End of file - total 1 line)");
    equal(
      await footer({ file_path: "two.txt", offset: 2 }),
      "(End of file - total 2 lines; no newline at end of file)",
    );
    equal(await footer({ file_path: "empty.txt" }), "(End of file - total 0 lines)");
    // A window that ends exactly at the last line, once the file's end is known.
    equal(
      await footer({ file_path: "many.txt", offset: 28 }),
      "(End of file - total 30 lines; no newline at end of file)",
    );
    equal(
      await footer({ file_path: "many.txt", offset: 29, limit: 2 }),
      "(End of file - total 30 lines; no newline at end of file)",
    );
    const capped = box.toolsWith({
      config: { detailedFooters: true, readStreamMinSize, readMaxBytes: 30 },
    });
    equal(
      (await capped.execute("read", { file_path: "many.txt" })).content.split("\n").at(-2),
      "(Output capped at 30 bytes. Showing lines 1-3 of 30. Use offset=4 to continue.)",
    );
  }
  // The default marks nothing: the notes' text.
  equal(
    (await box.run("read", { file_path: "one.txt" })).content.split("\n").at(-2),
    "(End of file - total 1 lines)",
  );
});

forEachProvider(
  "C4.2a/C17.2 detailedFooters on a document: the total (capped too), never the no-newline mark",
  {
    "two_pages.pdf": Deno.readFileSync(
      new URL("../fixtures/media/two_pages.pdf", import.meta.url),
    ),
  },
  async (box) => {
    const tools = box.toolsWith({ config: { detailedFooters: true } });
    const footer = async (args: Record<string, unknown>) =>
      (await tools.execute("read", args)).content.split("\n").at(-2);
    // The extracted text's last line has no line break after it; a document is never marked.
    equal(await footer({ file_path: "two_pages.pdf" }), "(End of file - total 5 lines)");
    equal(await footer({ file_path: "two_pages.pdf", offset: 4 }), "(End of file - total 5 lines)");
    equal(
      await footer({ file_path: "two_pages.pdf", limit: 2 }),
      "(Showing lines 1-2 of 5. Use offset=3 to continue.)",
    );
    // Capped by bytes: the total is named, as for a text file below readStreamMinSize (a fresh
    // tools object, so nothing was counted before).
    const capped = box.toolsWith({ config: { detailedFooters: true, readMaxBytes: 50 } });
    const result = await capped.execute("read", { file_path: "two_pages.pdf" });
    equal(
      result.content.split("\n").at(-2),
      "(Output capped at 50 bytes. Showing lines 1-2 of 5. Use offset=3 to continue.)",
    );
    equal((result.value as { totalLines?: number }).totalLines, 5);
  },
);
