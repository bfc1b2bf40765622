/**
 * `MemoryFileSystem` (CONTRACT C1.7): an in-memory provider for the tools, for hosts that run
 * agents on a virtual tree and for tests. The tools behave on it as on `LocalFileSystem`, exact
 * texts and error codes included; no Deno permission is involved.
 *
 * @example Tools over an in-memory tree
 * ```ts
 * import assert from "node:assert/strict";
 * import { createFsTools } from "@toolfs/fs";
 * import { MemoryFileSystem } from "@toolfs/fs/memory";
 *
 * const fs = new MemoryFileSystem({ roots: ["/work"], files: { "/work/a.txt": "hello\n" } });
 * const tools = createFsTools({ fs });
 * await tools.execute("read", { file_path: "a.txt" });
 * const edit = await tools.execute("edit", {
 *   file_path: "a.txt",
 *   old_string: "hello",
 *   new_string: "goodbye",
 * });
 * assert.equal(edit.content, "The file a.txt has been updated successfully.");
 * assert.equal(new TextDecoder().decode(fs.readFile("/work/a.txt")), "goodbye\n");
 * ```
 *
 * @module
 */

export * from "./src/provider/memory/memory_fs.ts";
// The seam it implements, so this entry documents itself without `mod.ts`.
export type * from "./src/provider/fs_provider.ts";
