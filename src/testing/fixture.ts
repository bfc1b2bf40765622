/**
 * Provider fixtures: the same file tree built on any provider, so one test runs on
 * `LocalFileSystem` (a temporary directory) and on `MemoryFileSystem` alike. The factories are
 * `localFixtures` and `memoryFixtures`.
 *
 * @module
 */

import type { FsProvider } from "../provider/fs_provider.ts";

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
  fs: FsProvider;
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

/** One named check of the conformance suite. */
export interface ConformanceCheck {
  /** What it checks, citing the contract clause (`C3.2: …`). */
  name: string;
  /** Runs the check; rejects with an assertion error when the provider does not conform. */
  fn(): Promise<void>;
}
