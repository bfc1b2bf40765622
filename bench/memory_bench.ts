// MemoryFileSystem against LocalFileSystem (the baseline) on the same tool calls: a window of a
// 4 MiB file (whole-file path and streamed), a 1000-entry listing, and an edit of the 4 MiB file.
// The fixtures come from the conformance suite's factories, so both trees are identical.

import { createFsTools, type FsTools } from "../mod.ts";
import { localFixtures, memoryFixtures, type ProviderFixture } from "../testing.ts";

const big = Array.from({ length: 80_000 }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n");
const files: Record<string, string> = { "root/big.txt": big + "\n" };
for (let i = 0; i < 1000; i++) files[`root/many/f${i}.txt`] = "";

const boxes: Record<string, ProviderFixture> = {
  local: await localFixtures()({ files }),
  memory: await memoryFixtures()({ files }),
};
globalThis.addEventListener("unload", () => void boxes.local.cleanup());

for (const [kind, box] of Object.entries(boxes)) {
  const tools = createFsTools({ fs: box.fs, policy: false });
  const streamed = createFsTools({ fs: box.fs, config: { readStreamMinSize: 1 } });
  const baseline = kind === "local";
  const bench = (group: string, target: FsTools, name: string, args: Record<string, unknown>) =>
    Deno.bench({
      name: `${kind}: ${group}`,
      group,
      baseline,
      async fn() {
        const result = await target.execute(name, args);
        if (result.isError) throw new Error(result.content);
      },
    });
  bench("read 100 lines at line 40000 of 4 MiB", tools, "read", {
    file_path: "big.txt",
    offset: 40_000,
    limit: 100,
  });
  bench("read streamed, 100 lines at line 40000", streamed, "read", {
    file_path: "big.txt",
    offset: 40_000,
    limit: 100,
  });
  bench("list 1000 entries", tools, "list", { path: "many" });
  let flip = false;
  Deno.bench({
    name: `${kind}: edit one line of 4 MiB`,
    group: "edit one line of 4 MiB",
    baseline,
    async fn() {
      flip = !flip;
      const [from, to] = flip ? ["line 500 ", "LINE 500 "] : ["LINE 500 ", "line 500 "];
      const result = await tools.execute("edit", {
        file_path: "big.txt",
        old_string: from,
        new_string: to,
      });
      if (result.isError) throw new Error(result.content);
    },
  });
}
