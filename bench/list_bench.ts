// Micro-benchmarks of the `list` view (src/render/list_render.ts) on 100k names: the bounded
// selection of the first 200 against a full sort, and the whole render.

import { compareEntries, renderList, selectEntries } from "../src/render/list_render.ts";
import type { FsDirEntry } from "../src/types.ts";

const WORDS = ["src", "Test", "data", "README", "img", "Zeta", "lib", "node"];

function entries(count: number, dirEvery: number): FsDirEntry[] {
  const out: FsDirEntry[] = [];
  for (let i = 0; i < count; i++) {
    const hash = (Math.imul(i + 1, 2654435761) >>> 0).toString(36);
    const name = `${WORDS[i % WORDS.length]}_${hash}_${i}`;
    out.push(
      dirEvery > 0 && i % dirEvery === 0
        ? { name, type: "directory" }
        : { name: `${name}.txt`, type: "file" },
    );
  }
  return out;
}

const mixed = entries(100_000, 10);
const filesOnly = entries(100_000, 0);

for (
  const [label, list] of [["one in ten a directory", mixed], ["files only", filesOnly]] as const
) {
  const group = `first 200 of 100k entries, ${label}`;
  Deno.bench({
    name: `selectEntries, ${label}`,
    group,
    baseline: true,
    fn: () => void selectEntries(list, 200),
  });
  Deno.bench({
    name: `full sort, ${label}`,
    group,
    fn: () => void [...list].sort(compareEntries).slice(0, 200),
  });
}

Deno.bench({
  name: "renderList, 100k entries, files only",
  fn: () => void renderList(".", filesOnly, 200),
});
