/**
 * The provider seam (CONTRACT C1.6): the interface the tools reach files through, and every type
 * its methods take and return. Implement {@linkcode FsProvider} to give the tools another backend;
 * `LocalFileSystem` (from `@toolfs/fs`) is the Deno one.
 *
 * @example Call a provider directly
 * ```ts
 * import { LocalFileSystem } from "@toolfs/fs";
 * import type { FsProvider } from "@toolfs/fs/provider";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.realPath(await Deno.makeTempDir());
 * await Deno.writeTextFile(`${root}/a.txt`, "hi\n");
 * const fs: FsProvider = new LocalFileSystem({ roots: [root] });
 * const target = await fs.resolve("a.txt", { cwd: root, op: "read" });
 * assert.equal(target.realPath, `${root}/a.txt`);
 * assert.deepEqual(await fs.listDir(await fs.resolve(".", { cwd: root, op: "list" })), [
 *   { name: "a.txt", type: "file" },
 * ]);
 * await Deno.remove(root, { recursive: true });
 * ```
 *
 * @module
 */

export * from "./src/provider/fs_provider.ts";
export { planReplace } from "./src/provider/edit_pieces.ts";
