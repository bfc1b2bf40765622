// Unit tests of the pure `list` view (src/render/list_render.ts), CONTRACT C4.1.

import assert from "node:assert/strict";
import fc from "fast-check";
import {
  compareEntries,
  countEntries,
  listFooter,
  renderList,
  selectEntries,
} from "../../../src/render/list_render.ts";
import type { FsDirEntry } from "../../../src/types.ts";

const dir = (name: string): FsDirEntry => ({ name, type: "directory" });
const file = (name: string): FsDirEntry => ({ name, type: "file" });
const other = (name: string): FsDirEntry => ({ name, type: "other" });

Deno.test("list_render: directories come first, then files, then others", () => {
  const sorted = [other("a"), file("a"), dir("z"), other("B"), file("0")].sort(compareEntries);
  assert.deepEqual(sorted, [dir("z"), file("0"), file("a"), other("a"), other("B")]);
});

Deno.test("list_render: names compare lower-cased, ties by plain code-unit order", () => {
  const names = ["b", "B", "a", "A", "_", "Ä", "ä", "10", "9", "a.txt", "A.txt", "a-b"];
  const sorted = names.map(file).sort(compareEntries).map((e) => e.name);
  // Lower-cased: "_" (0x5f) sorts after digits and before letters; "ä" after "z".
  assert.deepEqual(sorted, ["10", "9", "_", "A", "a", "a-b", "A.txt", "a.txt", "B", "b", "Ä", "ä"]);
});

Deno.test("list_render: selectEntries keeps the first max of the full order, for any input", () => {
  const entry = fc.record({
    name: fc.string({
      minLength: 1,
      maxLength: 4,
      unit: fc.constantFrom("a", "A", "b", "B", "_", "1", "é"),
    }),
    type: fc.constantFrom("file", "directory", "other"),
  }) as fc.Arbitrary<FsDirEntry>;
  fc.assert(
    fc.property(
      fc.array(entry, { maxLength: 300 }),
      fc.integer({ min: 1, max: 40 }),
      (entries, max) => {
        const expected = [...entries].sort(compareEntries).slice(0, max);
        assert.deepEqual(selectEntries(entries, max), expected);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("list_render: selectEntries does not modify its input", () => {
  const entries = [file("b"), dir("a"), file("a")];
  const copy = [...entries];
  selectEntries(entries, 1);
  assert.deepEqual(entries, copy);
});

Deno.test("list_render: countEntries counts the complete directory by type", () => {
  assert.deepEqual(countEntries([dir("a"), file("b"), file("c"), other("d")]), {
    entries: 4,
    directories: 1,
    files: 2,
    other: 1,
  });
  assert.deepEqual(countEntries([]), { entries: 0, directories: 0, files: 0, other: 0 });
});

Deno.test("list_render: footers for empty, complete, singular, other and capped listings", () => {
  const t = (directories: number, files: number, other: number) => ({
    entries: directories + files + other,
    directories,
    files,
    other,
  });
  assert.equal(listFooter(t(0, 0, 0), 0), "(Empty directory)");
  assert.equal(listFooter(t(1, 0, 0), 1), "(1 entry: 1 directory, 0 files)");
  assert.equal(listFooter(t(0, 1, 0), 1), "(1 entry: 0 directories, 1 file)");
  assert.equal(listFooter(t(0, 0, 1), 1), "(1 entry: 0 directories, 0 files, 1 other)");
  assert.equal(listFooter(t(2, 3, 0), 5), "(5 entries: 2 directories, 3 files)");
  assert.equal(listFooter(t(2, 3, 4), 9), "(9 entries: 2 directories, 3 files, 4 other)");
  assert.equal(
    listFooter(t(2, 3, 0), 4),
    "(Showing 4 of 5 entries: 2 directories, 3 files. Entries are directories first, then files, each alphabetical; list a subdirectory to see the rest.)",
  );
  assert.equal(
    listFooter(t(1, 1, 1), 2),
    "(Showing 2 of 3 entries: 1 directory, 1 file, 1 other. Entries are directories first, then files, each alphabetical; list a subdirectory to see the rest.)",
  );
});

Deno.test("list_render: renderList lays out path, type, entries, a blank line and the footer", () => {
  const view = renderList("src", [file("b.ts"), other("link"), dir("lib"), file("A.ts")], 3);
  assert.equal(
    view.text,
    "<path>src</path>\n<type>directory</type>\n<content>\nlib/\nA.ts\nb.ts\n\n" +
      "(Showing 3 of 4 entries: 1 directory, 2 files, 1 other. Entries are directories first, then files, each alphabetical; list a subdirectory to see the rest.)\n</content>",
  );
  assert.deepEqual(view.entries, [dir("lib"), file("A.ts"), file("b.ts")]);
  assert.deepEqual(view.total, { entries: 4, directories: 1, files: 2, other: 1 });
  assert.equal(
    renderList(".", [], 200).text,
    "<path>.</path>\n<type>directory</type>\n<content>\n\n(Empty directory)\n</content>",
  );
});
