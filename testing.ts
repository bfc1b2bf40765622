/**
 * Testing helpers for provider authors and hosts: the provider conformance suite and fixture
 * factories that build the same file tree on `LocalFileSystem` (a temporary directory) or
 * `MemoryFileSystem`. Assertions use `node:assert/strict` only.
 *
 * @example Check a provider of your own against the seam's contract
 * ```ts ignore
 * import { type ProviderFactory, providerConformance } from "@toolfs/fs/testing";
 * import { MyFileSystem } from "./my_fs.ts";
 *
 * const factory: ProviderFactory = async (layout) => {
 *   // Build a MyFileSystem whose roots are layout.roots below a base directory, holding
 *   // layout.files (paths relative to that base); return { fs, base, write, read, cleanup }.
 *   return await MyFileSystem.fixture(layout);
 * };
 * providerConformance("MyFileSystem", factory);
 * ```
 *
 * @module
 */

export * from "./src/testing/fixture.ts";
export * from "./src/testing/local_fixtures.ts";
export * from "./src/testing/memory_fixtures.ts";
export * from "./src/testing/provider_conformance.ts";
export type { FsProviderWithRoots } from "./src/tools/tools.ts";
export type * from "./src/provider/fs_provider.ts";
