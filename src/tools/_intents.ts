// Every intent a tool hands the policy (CONTRACT C5, C15.4; issue 34.6), built here and only
// here: write, edit, move, delete and each operation of a patch. An intent carries what a person
// reviewing it needs — the old and new text of an edit, and for a file's content a lazy
// `change()` with the text before and after and the unified diff — and nothing is read for it
// until the policy asks. Private to src/tools.

import type {
  FsChange,
  FsEntryIntent,
  FsEntryPath,
  FsIntent,
} from "../policy/read_before_write.ts";
import type { FsEntryType, FsTarget } from "../provider/fs_provider.ts";
import { applyEdit, type EditRequest, MatchError } from "../text/edit_apply.ts";
import { unifiedDiff } from "../text/unified_diff.ts";
import { bytesToText, looksBinary, type ToolEnv } from "./_context.ts";

/** A file as an intent names it. */
export interface IntentFile {
  target: FsTarget;
  /** The display path (C3.4). */
  shown: string;
}

/** The new content of a file, from its current bytes (`null` when it does not exist). */
export type NextContent = (bytes: Uint8Array | null) => Uint8Array | string | null;

/** What a write or edit intent says, besides the file. */
export interface FileIntentOptions {
  op: "write" | "edit";
  tool: FsIntent["tool"];
  exists: boolean;
  content: string;
  /** `edit`'s request, shown as old and new text. */
  edit?: EditRequest;
  /** How the change is computed when the policy asks. */
  change: () => Promise<FsChange>;
}

/** A `write` or `edit` intent (a patch's added and updated files too). */
export function fileIntent(env: ToolEnv, file: IntentFile, options: FileIntentOptions): FsIntent {
  const intent: FsIntent = {
    op: options.op,
    tool: options.tool,
    session: env.session,
    path: file.target.path,
    realPath: file.target.realPath,
    displayPath: file.shown,
    exists: options.exists,
    content: options.content,
    change: once(options.change),
    signal: env.signal,
  };
  if (options.edit) {
    const { oldString, newString, replaceAll } = options.edit;
    intent.edit = { oldString, newString, replaceAll };
  }
  return intent;
}

/** What a move or delete intent says, besides the entry. */
export interface EntryIntentOptions {
  op: "move" | "delete";
  type: FsEntryType;
  files: FsEntryIntent["files"];
  destination?: FsEntryPath;
  recursive?: boolean;
  /** A deleted file's change, when the policy asks. */
  change?: () => Promise<FsChange>;
}

/** A `move` or `delete` intent (a patch's deleted and moved files too). */
export function entryIntent(
  env: ToolEnv,
  entry: FsEntryPath,
  options: EntryIntentOptions,
): FsEntryIntent {
  const intent: FsEntryIntent = {
    op: options.op,
    session: env.session,
    path: entry.path,
    realPath: entry.realPath,
    displayPath: entry.displayPath,
    type: options.type,
    files: options.files,
    signal: env.signal,
  };
  if (options.destination) intent.destination = options.destination;
  if (options.recursive !== undefined) intent.recursive = options.recursive;
  if (options.change) intent.change = once(options.change);
  return intent;
}

/**
 * The change `next` makes to the file as it is now: read when called (a missing file is
 * `null`), so only a policy that asks reads it.
 */
export function readChange(
  env: ToolEnv,
  file: IntentFile,
  next: NextContent,
): () => Promise<FsChange> {
  return async () => {
    const stat = await env.fs.stat(file.target, { signal: env.signal });
    if (!stat) return changeOf(file.shown, null, null, next(null));
    const { bytes, version } = await env.fs.readText(file.target, { signal: env.signal });
    return changeOf(file.shown, version, bytes, next(bytes));
  };
}

/** The new bytes of `edit`, or the old ones when it does not apply (C12.3 says why later). */
export function edited(edit: EditRequest): NextContent {
  return (bytes) => {
    if (bytes === null) return null;
    try {
      return applyEdit(bytes, edit);
    } catch (error) {
      if (error instanceof MatchError) return bytes;
      throw error;
    }
  };
}

/**
 * The change from `before` (at `version`) to `after`, with its unified diff; a binary side
 * shows no text (`null`) and a one-line diff saying the file differs.
 */
export function changeOf(
  shown: string,
  version: string | null,
  before: Uint8Array | null,
  after: Uint8Array | string | null,
): FsChange {
  const binary = (before !== null && looksBinary(before)) ||
    (after instanceof Uint8Array && looksBinary(after));
  const beforeText = before === null || binary ? null : bytesToText(before);
  const afterText = after === null || binary
    ? null
    : typeof after === "string"
    ? after.replace(/^\uFEFF/, "")
    : bytesToText(after);
  if (binary) {
    const same = before !== null && after instanceof Uint8Array && equalBytes(before, after);
    const diff = same
      ? ""
      : `Binary files ${before === null ? "/dev/null" : `a/${shown}`} and ${
        after === null ? "/dev/null" : `b/${shown}`
      } differ\n`;
    return { version, before: null, after: null, diff };
  }
  return {
    version,
    before: beforeText,
    after: afterText,
    diff: unifiedDiff(shown, beforeText, afterText),
  };
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `task` run at most once; later calls share its promise. */
function once<T>(task: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => promise ??= task();
}
