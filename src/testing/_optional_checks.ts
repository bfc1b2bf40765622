// Conformance checks of the seam's optional members: the search fast paths (`fs.search`, C9.2,
// C11), each answering as its slow counterpart does, and `realPathSync` (C1.2). A provider
// without them passes these checks as they stand. Private to src/testing.

import assert from "node:assert/strict";
import { concatBytes } from "../text/bytes.ts";
import type { ConformanceCheck, ProviderFactory } from "./fixture.ts";
import { rejectsWith, target, withFixture } from "./_assert.ts";

const encoder = new TextEncoder();

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);

/** The checks of `FsProvider.search` (`FsSearchProvider`) and `FsProvider.realPathSync`. */
export function optionalChecks(factory: ProviderFactory): ConformanceCheck[] {
  const check = (name: string, fn: () => Promise<void>): ConformanceCheck => ({ name, fn });
  return [
    check(
      "C1.2: realPathSync (when the provider has it) gives a root's real path, a missing one as given",
      () =>
        withFixture(factory, { files: { "root/d/a.txt": "a" } }, async (box) => {
          const realPathSync = box.fs.realPathSync?.bind(box.fs);
          if (!realPathSync) return;
          const root = box.fs.roots[0].path;
          assert.equal(realPathSync(root), root);
          assert.equal(realPathSync(`${root}/d/../d`), `${root}/d`);
          assert.equal(realPathSync(`${root}/missing/x`), `${root}/missing/x`);
          await Promise.resolve();
        }),
    ),
    check(
      "C9.2: search.listDir (when the provider has it) lists as listDir does",
      () =>
        withFixture(factory, {
          files: { "root/b.txt": "b", "root/a/": "", "root/a/inner.txt": "i", "root/c/": "" },
        }, async (box) => {
          const search = box.fs.search;
          if (!search) return;
          for (const name of ["root", "root/a", "root/c"]) {
            const dir = await target(box, name, "list");
            const fast = (await search.listDir(dir)).map((e) => ({ ...e })).sort(byName);
            const slow = (await box.fs.listDir(dir)).map((e) => ({ ...e })).sort(byName);
            assert.deepEqual(fast, slow, name);
            const unchecked = await search.listDir(dir, { verify: false });
            assert.deepEqual(unchecked.map((e) => ({ ...e })).sort(byName), slow, name);
          }
          await rejectsWith(
            search.listDir(await target(box, "root/b.txt", "list")),
            "FS_NOT_DIRECTORY",
          );
          await rejectsWith(search.listDir(await target(box, "root/nope", "list")), "FS_NOT_FOUND");
        }),
    ),
    check(
      "C11: search.readChunks (when the provider has it) reads readText's bytes; verify() passes in a root",
      () => {
        const big = "0123456789abcdef\n".repeat(100_000);
        return withFixture(factory, {
          files: { "root/big.txt": big, "root/small.txt": "a\nb\n", "root/empty": "" },
        }, async (box) => {
          const search = box.fs.search;
          if (!search) return;
          for (const name of ["root/big.txt", "root/small.txt", "root/empty"]) {
            const at = await target(box, name);
            for (const buffer of [undefined, new Uint8Array(1 << 16)]) {
              const read = await search.readChunks(at, { buffer });
              const parts: Uint8Array[] = [];
              try {
                for await (const chunk of read.chunks) parts.push(chunk.slice());
                await read.verify();
              } finally {
                read.close();
              }
              read.close(); // idempotent
              assert.deepEqual(concatBytes(parts), (await box.fs.readText(at)).bytes, name);
            }
          }
        });
      },
    ),
    check(
      "C11: search.readChunks (when the provider has it) refuses a directory and a missing file",
      () =>
        withFixture(factory, { files: { "root/d/": "" } }, async (box) => {
          const search = box.fs.search;
          if (!search) return;
          const drawn = async (name: string) => {
            const read = await search.readChunks(await target(box, name));
            try {
              for await (const _ of read.chunks) { /* drain */ }
            } finally {
              read.close();
            }
          };
          await rejectsWith(drawn("root/d"), "FS_NOT_REGULAR_FILE");
          await rejectsWith(drawn("root/none"), "FS_NOT_FOUND");
          const signal = AbortSignal.abort();
          await rejectsWith(
            search.listDir(await target(box, "root/d", "list"), { signal }),
            "FS_ABORTED",
          );
        }),
    ),
    check(
      "C11: search.mayContain (when the provider has it) marks 0 only a text file lacking a needle",
      () =>
        withFixture(factory, {
          files: {
            "root/both.txt": "alpha beta\n",
            "root/one.txt": "alpha\n",
            "root/none": "",
            "root/nul.bin": new Uint8Array([0x61, 0, 0x62]),
          },
        }, async (box) => {
          const mayContain = box.fs.search?.mayContain;
          if (!mayContain) return;
          const targets = await Promise.all(
            ["both.txt", "one.txt", "none", "nul.bin"].map((name) => target(box, `root/${name}`)),
          );
          const needles = [encoder.encode("beta"), encoder.encode("alpha")];
          const flags = await mayContain.call(box.fs.search, targets, needles);
          if (flags === null) return; // no answer: every file may match
          assert.equal(flags.length, 4);
          assert.equal(flags[0], 1, "a file holding every needle is never marked 0");
          // A binary file is left to the search, which leaves it out of the files searched: a
          // 0 would count it, and the count would depend on the pattern.
          assert.equal(flags[3], 1, "a binary file (a NUL in its first 8 KiB) is never marked 0");
        }),
    ),
  ];
}
