/**
 * The `glob` executor (CONTRACT C10): files whose path matches a pattern, in path, size or
 * modification order, a window of them at a time.
 *
 * @module
 */

import { FsError } from "../fs_error.ts";
import { displayPath } from "../provider/roots.ts";
import {
  type FileKind,
  globOffsetMessage,
  type GlobOrder,
  renderGlob,
} from "../render/glob_render.ts";
import { globTooLongMessage, SEARCH_MESSAGES } from "../render/search_render.ts";
import { GLOB_MAX_LENGTH } from "../text/glob_match.ts";
import { compileGlobSet, type GlobSet } from "../text/glob_set.ts";
import {
  invalid,
  isPositiveInteger,
  longestGlob,
  optional,
  optionalString,
  requireGlobs,
} from "./_args.ts";
import { VALIDATION_MESSAGES } from "../render/errors.ts";
import { looksBinary, resolveIn, type Tool, type ToolEnv, type ToolSuccess } from "./_context.ts";
import type { FsTarget } from "../provider/fs_provider.ts";
import { sniffMedia } from "../text/media_sniff.ts";
import { type SearchFile, walkFiles } from "./grep/walk.ts";

import type { GlobValue } from "../types.ts";
import { GLOB_SORTS } from "../present/specs/glob.ts";

const ORDERS: readonly GlobOrder[] = GLOB_SORTS;

/** Validated `glob` arguments. */
export interface GlobRequest {
  /** The glob argument as given: one pattern or several (C9.3). */
  pattern: string | string[];
  /** The compiled patterns. */
  compiled: GlobSet;
  /** The search directory as the caller gave it, or `undefined` for the session cwd. */
  path?: string;
  /** The order of the files. */
  sort: GlobOrder;
  /** The first file to show, 1-based. */
  offset: number;
  /** The most files to show (at most `globMaxFiles` are, whatever it says), or `undefined`. */
  limit?: number;
}

/** `glob`: its arguments checked, then the files below the directory matched. */
export const globTool: Tool<GlobRequest, GlobValue> = { parse: parseGlob, run: runGlob };

/**
 * Checks `glob` arguments in the contract's order (C10).
 *
 * @param a The arguments object.
 * @returns The request.
 */
function parseGlob(a: Record<string, unknown>): GlobRequest {
  const pattern = requireGlobs(a.pattern, SEARCH_MESSAGES.pattern, SEARCH_MESSAGES.patternList);
  if (longestGlob(pattern) > GLOB_MAX_LENGTH) {
    throw invalid(globTooLongMessage("pattern", GLOB_MAX_LENGTH));
  }
  const path = optionalString(a.path, VALIDATION_MESSAGES.pathWhenGiven);
  const sort = optional(a.sort) ?? "path";
  if (!(ORDERS as readonly unknown[]).includes(sort)) throw invalid(SEARCH_MESSAGES.sort);
  const offset = optional(a.offset) ?? 1;
  if (!isPositiveInteger(offset)) throw invalid(SEARCH_MESSAGES.offset);
  const limit = optional(a.limit);
  if (limit !== undefined && !isPositiveInteger(limit)) throw invalid(VALIDATION_MESSAGES.limit);
  const compiled = compileGlobSet(pattern);
  if (!compiled.including) throw invalid(SEARCH_MESSAGES.patternIncludes);
  return { pattern, compiled, path, sort: sort as GlobOrder, offset, limit };
}

/** Runs `glob` with validated arguments. */
async function runGlob(
  request: GlobRequest,
  env: ToolEnv,
): Promise<ToolSuccess<GlobValue>> {
  const { signal, config } = env;
  const base = await resolveIn(env, request.path ?? ".", "glob");
  const shown = displayPath(env.cwd, base.path);
  const stat = await env.fs.stat(base, { signal });
  if (!stat) throw new FsError("FS_NOT_FOUND");
  if (stat.type !== "directory") throw new FsError("FS_NOT_DIRECTORY");
  let files: Sized[] = await walkFiles(env.fs, base, { glob: request.compiled, signal });
  if (request.sort !== "path") files = await sortBy(files, request.sort, env);
  if (signal?.aborted) throw new FsError("FS_ABORTED");
  if (request.offset > Math.max(files.length, 1)) {
    throw new FsError("FS_OFFSET_OUT_OF_RANGE", {
      message: globOffsetMessage(request.offset, files.length, request.pattern),
    });
  }
  const from = request.offset - 1;
  // `limit` shows fewer files than the cap, never more (C10).
  const max = Math.min(request.limit ?? Infinity, config.globMaxFiles);
  const end = from + max;
  // Display paths (and kinds) only for the files the view can show (at most `max`).
  const kinds = request.sort === "size" ? await kindsOf(files.slice(from, end), env) : [];
  const listed = files.map((f, i) =>
    i < from || i >= end ? UNSHOWN : {
      path: displayPath(env.cwd, f.target.path),
      size: f.size,
      kind: kinds[i - from],
    }
  );
  const view = renderGlob(
    shown,
    request.pattern,
    listed,
    request.sort,
    { offset: request.offset, max, maxBytes: config.readMaxBytes },
  );
  return {
    content: view.text,
    value: {
      path: base.path,
      pattern: request.pattern,
      files: files.slice(from, from + view.shown).map((f) => f.target.path),
      total: files.length,
    },
  };
}

/**
 * What `read` would make of each file, by its first 8 KiB (C10 sizes): an image or a document
 * (C17), a binary file (C4.2), or text (`undefined`, as is a file that cannot be read now).
 * Read through the provider's search path where it has one (no version digest; the kind is told
 * only of a read verified to lie inside a root), else through `streamText`.
 */
async function kindsOf(files: readonly Sized[], env: ToolEnv): Promise<(FileKind | undefined)[]> {
  const buffer = new Uint8Array(2 * HEAD); // each half holds one chunk: the first is the head
  const kinds: (FileKind | undefined)[] = [];
  for (const file of files) {
    if (env.signal?.aborted) throw new FsError("FS_ABORTED");
    kinds.push(
      await headOf(file.target, env, buffer).then(
        (head) => head ? kindOf(head, env.config.readImages) : undefined,
        () => undefined,
      ),
    );
  }
  return kinds;
}

const HEAD = 8192;

/** The kind `read` gives a file with this head: C17's media first, then C4.2's binary rule. */
function kindOf(head: Uint8Array, images: boolean): FileKind | undefined {
  const media = sniffMedia(head);
  if (media === "application/pdf") return "document";
  if (media) return images ? "image" : "binary";
  return looksBinary(head) ? "binary" : undefined;
}

/** A file's first {@linkcode HEAD} bytes (fewer for a short file), or `null` unverified. */
async function headOf(
  target: FsTarget,
  env: ToolEnv,
  buffer: Uint8Array,
): Promise<Uint8Array | null> {
  const { signal } = env;
  const search = env.fs.search;
  if (search) {
    const read = await search.readChunks(target, { signal, buffer });
    try {
      let head = new Uint8Array(0);
      // The first chunk fills one half of the buffer: the head, or the whole of a short file.
      for await (const chunk of read.chunks) {
        head = chunk.slice(0, HEAD);
        break;
      }
      await read.verify();
      return head;
    } catch (error) {
      if (error instanceof FsError && error.code === "FS_OUTSIDE_ROOT") return null;
      throw error;
    } finally {
      read.close();
    }
  }
  const handle = await env.fs.streamText(target, { signal });
  try {
    const out = new Uint8Array(HEAD);
    let filled = 0;
    for await (const chunk of handle.chunks(0)) {
      const take = Math.min(chunk.length, HEAD - filled);
      out.set(chunk.subarray(0, take), filled);
      filled += take;
      if (filled === HEAD) break;
    }
    return out.subarray(0, filled);
  } finally {
    handle.close();
  }
}

/** What stands for a file outside the window shown (the view only counts it). */
const UNSHOWN = { path: "" };

/** A found file with the size and modification time its order needs. */
interface Sized extends SearchFile {
  size?: number;
  mtime?: number;
}

/**
 * The files largest or newest first, ties in path order (C10). A file that vanished since the
 * walk counts as empty and oldest.
 */
async function sortBy(files: SearchFile[], order: GlobOrder, env: ToolEnv): Promise<Sized[]> {
  const sized: Sized[] = [];
  for (let i = 0; i < files.length; i += 32) {
    const batch = files.slice(i, i + 32).map(async (file): Promise<Sized> => {
      const stat = await env.fs.stat(file.target, { signal: env.signal }).catch(() => null);
      return { ...file, size: stat?.size ?? 0, mtime: stat?.mtimeMs ?? 0 };
    });
    sized.push(...await Promise.all(batch));
  }
  const key = order === "size" ? (f: Sized) => f.size! : (f: Sized) => f.mtime!;
  // A stable sort keeps path order (C9.4) among equal keys.
  return sized.sort((a, b) => key(b) - key(a));
}
