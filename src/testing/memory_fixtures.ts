/**
 * Fixtures on `MemoryFileSystem`.
 *
 * @module
 */

import { MemoryFileSystem } from "../provider/memory/memory_fs.ts";
import type { FixtureRoot, ProviderFactory } from "./fixture.ts";

const DEFAULT_ROOTS: readonly FixtureRoot[] = [{ name: "root" }];

/**
 * A factory of {@linkcode MemoryFileSystem} fixtures, based at `/sandbox`.
 *
 * @param base The absolute base directory of every fixture.
 * @returns The factory.
 *
 * @example A memory fixture
 * ```ts
 * import assert from "node:assert/strict";
 * import { memoryFixtures } from "./memory_fixtures.ts";
 *
 * const box = await memoryFixtures()({ files: { "root/a.txt": "x" } });
 * assert.equal(new TextDecoder().decode(await box.read("root/a.txt") ?? undefined), "x");
 * assert.equal(box.fs.roots[0].path, "/sandbox/root");
 * ```
 */
export function memoryFixtures(base = "/sandbox"): ProviderFactory {
  return (layout) => {
    const roots = layout.roots ?? DEFAULT_ROOTS;
    const files: Record<string, string | Uint8Array> = {};
    for (const [path, content] of Object.entries(layout.files ?? {})) {
      files[`${base}/${path}`] = content;
    }
    const fs = new MemoryFileSystem({
      roots: roots.map((root) => ({ path: `${base}/${root.name}`, write: root.write !== false })),
      files,
      chunkSize: layout.chunkSize,
    });
    return Promise.resolve({
      fs,
      base,
      write: (path, content) => Promise.resolve(fs.writeFile(`${base}/${path}`, content)),
      read: (path) => Promise.resolve(fs.readFile(`${base}/${path}`) ?? null),
      cleanup: () => Promise.resolve(),
    });
  };
}
