/**
 * The playground's HTTP protocol: the JSON the server sends and the UI reads. Its only imports
 * are type-only (the prompt cost's types, from `prompt_cost.ts`), so the UI (checked with the DOM
 * library, not Deno's) can share it without pulling in the server.
 *
 * @module
 */

/**
 * Config values (CONTRACT C2), as the API carries them: whatever keys the library's
 * `DEFAULT_CONFIG` has, so a new key reaches the UI without a change here.
 */
export type ToolsConfig = Record<string, number | boolean>;

/** A tool definition as the model gets it. */
export interface ToolDefinition {
  /** The tool name. */
  name: string;
  /** One line for the model. */
  description: string;
  /** The JSON schema of the arguments. */
  inputSchema: {
    type: "object";
    properties: Record<string, Record<string, unknown>>;
    required: string[];
    additionalProperties: false;
  };
  /** The tool's system-prompt section. */
  guidance: string;
}

/** A tokenizer's name (`deepseek_v3`, `o200k`, `llama3`, `qwen3`, `gemma3`). */
export type TokenizerName = string;

/** A token count per tokenizer counted. */
export type TokenCounts = Record<TokenizerName, number>;

/** A tokenizer the server offers. */
export interface TokenizerInfo {
  /** Its name in requests. */
  name: TokenizerName;
  /** A human label. */
  label: string;
}

/** The ACP `tool_call` fields of a call (CONTRACT C8). */
export interface Presentation {
  /** A short human title. */
  title: string;
  /** The ACP tool kind. */
  kind: "read" | "edit" | "delete" | "move" | "search" | "other";
  /** The arguments worth showing. */
  rawInput?: Record<string, unknown>;
  /** The files involved. */
  locations?: { path: string; line?: number }[];
}

/** A file a session has read, written or edited. */
export interface SessionFile {
  /** Workspace-relative path (absolute when outside the workspace). */
  path: string;
  /** The last successful call on it. */
  op: "read" | "write" | "edit" | "move" | "delete";
  /** Successful calls on it. */
  count: number;
}

/** A session as the API reports it. */
export interface SessionInfo {
  /** The id the UI chose. */
  id: string;
  /** Files in the order first touched. */
  files: SessionFile[];
}

/** What the tools run in. */
export interface WorkspaceInfo {
  /** `fixtures`: a temporary copy; `directory`: the user's own folder (`--root`). */
  kind: "fixtures" | "directory";
  /** The workspace's real path. */
  root: string;
  /** The roots, workspace-relative. */
  roots: { path: string; writable: boolean }[];
}

/** The response of `GET /api/definitions`. */
export interface DefinitionsResponse {
  /** The tools, as `tools.definitions` lists them: all nine the playground runs. */
  tools: ToolDefinition[];
  /** The tools `createFsTools` offers by default (the others are opt-in). */
  defaultTools: string[];
  /** Example arguments per tool, naming entries that exist in this workspace. */
  examples: Record<string, Record<string, unknown>>;
  /** The config they were built with. */
  config: ToolsConfig;
  /** The library defaults. */
  defaults: ToolsConfig;
  /** The tokenizers offered, in display order. */
  tokenizers: TokenizerInfo[];
  /** The tokenizers counted when a request names none. */
  defaultTokenizers: TokenizerName[];
  /** The largest value a request may set per config key (CONTRACT C14.2). */
  bounds: Record<string, number>;
  /** What the tools run in. */
  workspace: WorkspaceInfo;
}

/** The body of `POST /api/execute`. */
export interface ExecuteRequest {
  /** The tool name. */
  tool: string;
  /** The arguments, as a model would send them. */
  args?: Record<string, unknown>;
  /** Cap overrides. */
  config?: Partial<ToolsConfig>;
  /** The session id; `default` when absent. */
  session?: string;
  /** Whether the read-before-write gate applies; default `true`. */
  policy?: boolean;
  /** The tokenizers to count with; the default ones when absent. */
  tokenizers?: TokenizerName[];
}

/** The response of `POST /api/execute`. */
export interface ExecuteResponse {
  /** The exact model-facing text. */
  content: string;
  /** Whether the call failed. */
  isError: boolean;
  /** The error, on failure. */
  error?: { name: string; code: string };
  /** The structured value, on success. */
  value?: unknown;
  /** Media after the text: an image `read`'s bytes (C17.3). */
  attachments?: { type: "image"; mimeType: string; data: string }[];
  /** The ACP presentation of the call. */
  presentation: Presentation;
  /** Tokens of `content` per tokenizer. */
  tokens: TokenCounts;
  /** Set when `content` was too long to count whole: the counts are extrapolated from its start. */
  tokensEstimated?: true;
  /** UTF-8 bytes of `content`. */
  bytes: number;
  /** Code points of `content`. */
  chars: number;
  /** Lines of `content`. */
  lines: number;
  /** Milliseconds the tool took. */
  ms: number;
  /** The config the call ran with. */
  config: ToolsConfig;
  /** Whether the read-before-write gate applied. */
  policy: boolean;
  /** The session after the call. */
  session: SessionInfo;
}

/** The wire formats the tools can be sent in. */
export type { PromptCost, ToolPromptCost, WireFormat } from "./prompt_cost.ts";
import type { PromptCost, WireFormat } from "./prompt_cost.ts";

/** The response of `GET /api/prompt-cost`. */
export interface PromptCostResponse {
  /** The config the definitions were built with. */
  config: ToolsConfig;
  /** The tools' definitions. */
  tools: ToolDefinition[];
  /** The assembled system prompt with the workspace section, exactly. */
  systemPrompt: string;
  /** The tools array per wire format, exactly as sent (compact JSON). */
  wire: Record<WireFormat, string>;
  /** The wire formats in display order, with labels. */
  formats: { format: WireFormat; label: string }[];
  /** The counts per tokenizer. */
  costs: Record<TokenizerName, PromptCost>;
}

/** One entry of the workspace tree; `path` is workspace-relative with `/` separators. */
export interface TreeNode {
  /** The entry's name (`.` for the root). */
  name: string;
  /** The workspace-relative path. */
  path: string;
  /** The entry's own type (symlinks are not followed). */
  type: "directory" | "file" | "symlink" | "other";
  /** Size in bytes, for files. */
  size?: number;
  /** Children shown, for directories read (directories first, then by name). */
  children?: TreeNode[];
  /** How many entries the directory holds in all. */
  total?: number;
  /** A symlink whose target lies outside every root: shown, never followed. */
  outside?: boolean;
  /** Why this entry could not be read (the rest of the tree still shows). */
  error?: string;
}

/** The response of `GET /api/tree`. */
export interface TreeResponse {
  /** The workspace root. */
  root: string;
  /** The workspace kind. */
  kind: "fixtures" | "directory";
  /** The root node. */
  tree: TreeNode;
}

/** The response of `POST /api/reset`. */
export interface ResetResponse {
  /** Always `true`. */
  ok: true;
  /** The workspace kind. */
  kind: "fixtures" | "directory";
  /** Whether the fixtures were restored (`false` for `--root`). */
  restored: boolean;
}
