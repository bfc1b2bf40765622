/**
 * The core types every adapter takes or returns, re-exported by each adapter entry so that it
 * documents itself on its own (`deno doc --lint <entry>`, issue 33.3). Private to adapters/.
 *
 * @module
 */

export type {
  AcpToolKind,
  DeleteValue,
  EditValue,
  FS_ERROR_CODES,
  FsAttachment,
  FsCallContext,
  FsDirEntry,
  FsEntryType,
  FsErrorCode,
  FsToolDefinition,
  FsToolName,
  FsToolResult,
  FsTools,
  FsToolsConfig,
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
  ToolCallLocation,
  ToolCallPresentation,
  ToolInputSchema,
  WriteValue,
} from "../mod.ts";
