/**
 * Provider fixtures: the same file tree built on any {@linkcode FsProvider}, so one test runs on
 * `LocalFileSystem` (a temporary directory) and on `MemoryFileSystem` alike.
 *
 * @module
 */

import { dirname, join } from "node:path";
import type { FsProviderWithRoots } from "../tools/tools.ts";
import { LocalFileSystem } from "../provider/local_fs.ts";
import { MemoryFileSystem } from "../provider/memory/memory_fs.ts";

/** A root of a fixture: a directory below the fixture's base, by name. */
export interface FixtureRoot {
  /** The directory's path relative to the base, e.g. `root` or `root/docs`. */
  name: string;
  /**
   * Whether `write` and `edit` may change files under it.
   * @default {true}
   */
  write?: boolean;
}

/** What a fixture holds. */
export interface FixtureLayout {
  /**
   * The roots, created when missing. The first is the tools' default cwd.
   * @default {[{ name: "root" }]}
   */
  roots?: readonly FixtureRoot[];
  /**
   * Files relative to the base (also outside the roots, e.g. `outside/secret.txt`); a path ending
   * in `/` is an empty directory.
   * @default {{}}
   */
  files?: Readonly<Record<string, string | Uint8Array>>;
  /**
   * Bytes per chunk of a streamed read, for a provider that takes it (small values exercise
   * chunk boundaries).
   */
  chunkSize?: number;
}

/** A provider over a fixture tree, with host-side access that bypasses the tools. */
export interface ProviderFixture {
  /** The provider, its roots as the layout names them. */
  fs: FsProviderWithRoots;
  /** The absolute directory every layout path is relative to. */
  base: string;
  /**
   * Creates or replaces a file as the host (no roots, no policy), making its parents.
   *
   * @param path A path relative to the base.
   * @param content The new content.
   */
  write(path: string, content: string | Uint8Array): Promise<void>;
  /**
   * A file's bytes as the host sees them.
   *
   * @param path A path relative to the base.
   * @returns The bytes, or `null` when no file is there.
   */
  read(path: string): Promise<Uint8Array | null>;
  /** Removes the fixture (a temporary directory, say). */
  cleanup(): Promise<void>;
}

/**
 * Builds a provider over a layout. The factory is what a provider author writes to run the
 * conformance suite on their provider.
 */
export type ProviderFactory = (layout: FixtureLayout) => Promise<ProviderFixture>;

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
 * import { memoryFixtures } from "./fixture.ts";
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

/**
 * A factory of `LocalFileSystem` fixtures, each in a fresh temporary directory (needs
 * `--allow-read` and `--allow-write` for it).
 *
 * @returns The factory.
 *
 * @example A fixture on disk
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { localFixtures } from "./fixture.ts";
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

/** One named check of the conformance suite. */
export interface ConformanceCheck {
  /** What it checks, citing the contract clause (`C3.2: …`). */
  name: string;
  /** Runs the check; rejects with an assertion error when the provider does not conform. */
  fn(): Promise<void>;
}
