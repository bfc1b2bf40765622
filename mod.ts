/**
 * toolfs: four model-facing file tools — `list`, `read`, `write`, `edit` — confined to
 * permission-scoped roots, with exact, stable text for the model.
 *
 * - Reads stream through `Deno.FsFile`, so a 10 GiB log costs the memory of a window.
 * - Nothing escapes the roots: containment is judged on real paths and re-checked after open.
 * - A write is atomic and never clobbers a file the session has not read (the default policy).
 *
 * @example Wire the tools into an agent loop
 * ```ts ignore
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 *
 * const fs = new LocalFileSystem({ roots: ["./workspace", { path: "/usr/share/doc", write: false }] });
 * const tools = createFsTools({ fs });
 *
 * // Give tools.definitions to the model; run each tool call it makes:
 * const result = await tools.execute("read", { file_path: "README.md" });
 * console.log(result.isError ? result.error?.code : result.content);
 * ```
 *
 * @module
 */

export * from "./src/config.ts";
export * from "./src/fs_error.ts";
export * from "./src/provider/fs_provider.ts";
export * from "./src/provider/local/local_fs.ts";
export * from "./src/policy/read_before_write.ts";
export * from "./src/tools/tools.ts";
export type { ListValue } from "./src/tools/list.ts";
export type { ReadRequest, ReadValue } from "./src/tools/read.ts";
export type { WriteValue } from "./src/tools/write.ts";
export type { EditValue } from "./src/tools/edit.ts";
export type { ListTotals } from "./src/render/list_render.ts";
export type { ReadLine } from "./src/render/read_render.ts";
export * from "./src/present/acp.ts";
export * from "./src/present/schemas.ts";
export * from "./src/present/guidance.ts";
export * from "./src/present/formats.ts";
