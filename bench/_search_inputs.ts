// The generated source tree of the search benchmark: real source files of this repository,
// replicated with varied names, nested directories and .gitignore files, ≥ 15,000 files and
// ≥ 100 MB.

import { join } from "node:path";

/** What {@linkcode generateSourceTree} made. */
export interface SourceTree {
  /** The tree's directory. */
  dir: string;
  /** Files written (ignored ones included). */
  files: number;
  /** Bytes written. */
  bytes: number;
}

function* walk(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.isFile && /\.(ts|tsx|md)$/.test(entry.name)) yield path;
  }
}

/**
 * Writes the tree under `dir` (made when missing).
 *
 * @param repo The repository whose `src/`, `tests/` and `bench/` files are replicated.
 * @param dir Where to write.
 * @param count How many files.
 * @returns What was written.
 */
export async function generateSourceTree(
  repo: string,
  dir: string,
  count = 16_000,
): Promise<SourceTree> {
  const sources: Uint8Array[] = [];
  for (const sub of ["src", "tests", "bench", "scripts"]) {
    for (const path of walk(join(repo, sub))) sources.push(Deno.readFileSync(path));
  }
  sources.sort((a, b) => a.length - b.length);
  let bytes = 0;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, ".gitignore"), "*.gen.ts\nbuild/\n");
  for (let i = 0; i < count; i++) {
    const pkg = `packages/pkg${i % 37}`;
    const sub = `${pkg}/src/mod${(i >> 4) % 23}${i % 3 === 0 ? `/inner${i % 11}` : ""}`;
    if (i < 37) {
      await Deno.mkdir(join(dir, pkg), { recursive: true });
      await Deno.writeTextFile(join(dir, pkg, ".gitignore"), "/dist\n*.log\n!keep.log\n");
    }
    await Deno.mkdir(join(dir, sub), { recursive: true });
    // Two sources per file, picked so the average lands near 7 KB.
    const a = sources[(i * 7) % sources.length];
    const b = sources[(i * 13 + 5) % sources.length];
    const body = new Uint8Array(a.length + b.length);
    body.set(a);
    body.set(b, a.length);
    const name = i % 50 === 0
      ? `file_${i}.gen.ts`
      : i % 97 === 0
      ? `notes_${i}.md`
      : `file_${i}.${i % 5 === 0 ? "tsx" : "ts"}`;
    const path = i % 211 === 0 ? join(dir, pkg, "build", name) : join(dir, sub, name);
    if (i % 211 === 0) await Deno.mkdir(join(dir, pkg, "build"), { recursive: true });
    await Deno.writeFile(path, body);
    bytes += body.length;
  }
  return { dir, files: count, bytes };
}
