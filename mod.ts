/**
 * toolfs: model-facing file tools — `list`, `read`, `write`, `edit`, `glob`, `grep` by default,
 * `move`, `delete` and `patch` on request — confined to permission-scoped roots, with exact,
 * stable text for the model.
 *
 * - Reads stream through `Deno.FsFile`, so a 10 GiB log costs the memory of a window.
 * - Nothing escapes the roots: containment is judged on real paths and re-checked after open.
 * - A write is atomic and never clobbers a file the session has not read (the default policy).
 *
 * This entry point is what an agent author needs. Other audiences have their own:
 * `@toolfs/fs/formats` (OpenAI, Anthropic and MCP tool formats), `@toolfs/fs/acp` (Agent Client
 * Protocol diffs and presentation types), `@toolfs/fs/provider` (the provider seam, for another
 * backend), `@toolfs/fs/memory` (an in-memory provider), `@toolfs/fs/testing` (the provider
 * conformance suite), `@toolfs/fs/mcp` (an MCP server), `@toolfs/fs/cli` (the command line) and
 * the framework adapters `@toolfs/fs/ai-sdk`, `@toolfs/fs/langchain` and
 * `@toolfs/fs/openai-agents`.
 *
 * @example Wire the tools into an agent loop
 * ```ts
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import assert from "node:assert/strict";
 *
 * const workspace = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${workspace}/README.md`, "hello\n");
 * const fs = new LocalFileSystem({ roots: [workspace] });
 * const tools = createFsTools({ fs });
 *
 * // Give tools.definitions to the model; run each tool call it makes:
 * const result = await tools.execute("read", { file_path: "README.md" });
 * assert.equal(result.isError, false);
 * assert.match(result.content, /^<path>README\.md<\/path>\n<type>file<\/type>\n<content>\n1: hello\n/);
 *
 * // Changing a file needs a read of it in the same session first (the default policy):
 * const fresh = createFsTools({ fs });
 * const refused = await fresh.execute("write", { file_path: "README.md", content: "bye\n" });
 * assert.equal(refused.content, 'Error: cannot write "README.md": the file already exists; read it first');
 * assert.equal(refused.error?.code, "FS_NOT_OBSERVED");
 * const edited = await tools.execute("edit", {
 *   file_path: "README.md",
 *   old_string: "hello",
 *   new_string: "bye",
 * });
 * assert.equal(edited.isError, false);
 * assert.equal(await Deno.readTextFile(`${workspace}/README.md`), "bye\n");
 * await Deno.remove(workspace, { recursive: true });
 * ```
 *
 * @module
 */

export {
  createFsTools,
  type CreateFsToolsOptions,
  type FsCallContext,
  type FsProviderWithRoots,
  type FsToolEventDetail,
  type FsTools,
} from "./src/tools/tools.ts";
export {
  LocalFileSystem,
  type LocalFileSystemOptions,
  type RootSpec,
} from "./src/provider/local/local_fs.ts";
export {
  type ApplyPatchOperation,
  applyPatchOperation,
  type ApplyPatchOutcome,
} from "./src/tools/patch/apply_patch_operation.ts";
// The seam (FsProvider and every type its methods take and return): LocalFileSystem's methods and
// FsPolicy's refer to them, so this entry documents itself on its own (`deno doc --lint mod.ts`,
// issue 33.3). `./provider` exports the same types, for provider authors.
export type * from "./src/provider/fs_provider.ts";
export type {
  AcpToolKind,
  ToolCallLocation,
  ToolCallPresentation,
} from "./src/present/specs/spec.ts";
export type { FsTextsOverride, FsToolTexts } from "./src/present/texts.ts";
export { FS_ERROR_CODES, FsError, type FsErrorCode, type FsErrorOptions } from "./src/fs_error.ts";
export { DEFAULT_CONFIG, type FsToolsConfig } from "./src/config.ts";
export {
  type FsChange,
  type FsDeleteCondition,
  type FsEntryIntent,
  type FsEntryPath,
  type FsIntent,
  type FsObservation,
  type FsPolicy,
  NO_POLICY,
  ReadBeforeWritePolicy,
} from "./src/policy/read_before_write.ts";
export type {
  DeleteValue,
  EditValue,
  FsAttachment,
  FsImageAttachment,
  FsToolDefinition,
  FsToolName,
  FsToolResult,
  FsToolValue,
  GlobValue,
  GrepValue,
  ListTotals,
  ListValue,
  MoveValue,
  PatchOperationValue,
  PatchValue,
  ReadImageInfo,
  ReadLine,
  ReadValue,
  ToolInputSchema,
  WriteValue,
} from "./src/types.ts";
export { systemPrompt, type SystemPromptOptions } from "./src/present/formats.ts";
