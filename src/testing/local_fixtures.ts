/**
 * Fixtures on `LocalFileSystem`, each in a fresh temporary directory.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { LocalFileSystem } from "../provider/local/local_fs.ts";
import type { FixtureRoot, ProviderFactory } from "./fixture.ts";

const DEFAULT_ROOTS: readonly FixtureRoot[] = [{ name: "root" }];

/**
 * A factory of `LocalFileSystem` fixtures, each in a fresh temporary directory (needs
 * `--allow-read` and `--allow-write` for it).
 *
 * @returns The factory.
 *
 * @example A fixture on disk
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { localFixtures } from "./local_fixtures.ts";
 *
 * const box = await localFixtures()({ files: { "root/a.txt": "x" } });
 * try {
 *   assert.equal(await Deno.readTextFile(`${box.base}/root/a.txt`), "x");
 * } finally {
 *   await box.cleanup();
 * }
 * ```
 */
export function localFixtures(): ProviderFactory {
  return async (layout) => {
    const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "toolfs_fixture_" }));
    try {
      const write = async (path: string, content: string | Uint8Array) => {
        const absolute = join(base, path);
        await Deno.mkdir(dirname(absolute), { recursive: true });
        if (typeof content === "string") await Deno.writeTextFile(absolute, content);
        else await Deno.writeFile(absolute, content);
      };
      for (const [path, content] of Object.entries(layout.files ?? {})) {
        if (path.endsWith("/")) await Deno.mkdir(join(base, path), { recursive: true });
        else await write(path, content);
      }
      const roots = layout.roots ?? DEFAULT_ROOTS;
      for (const root of roots) await Deno.mkdir(join(base, root.name), { recursive: true });
      const fs = new LocalFileSystem({
        roots: roots.map((root) => ({ path: join(base, root.name), write: root.write !== false })),
        chunkSize: layout.chunkSize,
      });
      return {
        fs,
        base,
        write,
        read: async (path) => {
          try {
            return await Deno.readFile(join(base, path));
          } catch (error) {
            if (error instanceof Deno.errors.NotFound) return null;
            throw error;
          }
        },
        cleanup: () => Deno.remove(base, { recursive: true }),
      };
    } catch (error) {
      await Deno.remove(base, { recursive: true }).catch(() => {});
      throw error;
    }
  };
}
