// Issue 19 (our own probe): `read` chose between the whole-file and the streamed path on a
// `stat` taken before the open, so a file that grew past `readStreamMinSize` in between was read
// whole (+219 MiB for a `{ limit: 3 }` read of a file that grew from 10 to 170 MiB). Now the
// provider decides on the open file's size (`wholeMaxSize`, C7.4). The growth is placed exactly
// in the window here: the provider grows the file right after answering `stat`. On 0.2.0 the
// whole-file read returned all the grown bytes, and this test failed.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../../mod.ts";
import type {
  FsCallOptions,
  FsFileContent,
  FsReadTextOptions,
  FsStat,
  FsTarget,
} from "../../provider.ts";
import { adversarialSandbox } from "./_harness.ts";

const MiB = 1 << 20;
const LIMIT = MiB; // readStreamMinSize for this test

/** A LocalFileSystem whose file grows between the tool's `stat` and its read. */
class GrowingFs extends LocalFileSystem {
  largestWholeRead = 0;
  override async stat(target: FsTarget, options?: FsCallOptions): Promise<FsStat | null> {
    const stat = await super.stat(target, options);
    if (stat?.type === "file") {
      const file = await Deno.open(target.realPath, { append: true });
      await file.write(new TextEncoder().encode("grown line\n".repeat(Math.ceil(16 * MiB / 11))));
      file.close();
    }
    return stat;
  }
  override async readText(target: FsTarget, options?: FsReadTextOptions): Promise<FsFileContent> {
    const content = await super.readText(target, options);
    this.largestWholeRead = Math.max(this.largestWholeRead, content.bytes.length);
    return content;
  }
}

// (grep on LocalFileSystem reads through `search.readChunks`, which needs no stat; on a provider
// without it grep passes `wholeMaxSize` the same way.)
for (const tool of ["read"] as const) {
  Deno.test(`C7.4: ${tool} of a file that grows past readStreamMinSize after its stat streams it`, async () => {
    await using box = await adversarialSandbox();
    const path = join(box.root, "growing.log");
    await Deno.writeTextFile(path, "first\nsecond\nthird\n" + "x\n".repeat((LIMIT - 4096) / 2));
    const fs = new GrowingFs({ roots: [box.root] });
    const tools = createFsTools({ fs, config: { readStreamMinSize: LIMIT } });
    const result = tool === "read"
      ? await tools.execute("read", { file_path: "growing.log", limit: 3 })
      : await tools.execute("grep", {
        pattern: "grown",
        path: "growing.log",
        output_mode: "count",
      });
    assert.equal(result.isError, false, result.content);
    if (tool === "read") assert.match(result.content, /1: first\n2: second\n3: third\n/);
    assert.ok(fs.largestWholeRead < LIMIT, `read whole: ${fs.largestWholeRead} bytes`);
  });
}
