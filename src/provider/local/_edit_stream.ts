// The literal replacement of `edit` (CONTRACT C4.4) of a large file, streamed through reused
// buffers. A unique replacement without a line break is searched and written in one pass: the
// locked file is read window by window (and digested for the precondition), each window's bytes
// written to the temporary file once no later occurrence can cover them. Any other is planned
// in a first pass, then written in a second from the page cache. No buffer the size of the file
// is ever allocated: on this kind of machine a fresh page costs far more than the copy into it
// (bench/RESULTS.md). Anything but a clean single plan (no match, an ambiguous one, a binary
// file, a size off) drops the temporary file and hands back to the whole-file path, which
// reports it as before. Private to src/provider/local.

import { FsError } from "../../fs_error.ts";
import type {
  FsContentRequest,
  FsPrecondition,
  FsReplaceOutcome,
  FsReplaceRequest,
} from "../fs_provider.ts";
import { isReplaceRequest, lazyReplaceOutcome } from "../edit_pieces.ts";
import { readLocked } from "./_open.ts";
import { looksBinary } from "../../text/binary_sniff.ts";
import { EditScan, type ScannedPlan } from "../../text/edit_scan.ts";
import type { WorkDir } from "./_containment.ts";
import { keepWritten } from "./_kept.ts";
import type { ContentStream, Replacer } from "./_replace.ts";
import type { Versioner } from "./_version.ts";

/** A replacement planned over a stream, ready to be written. */
export interface StreamedPlan extends ScannedPlan {
  /** The old file's length (what was read of it). */
  before: number;
  /** The new file's length. */
  after: number;
}

/**
 * Bytes read (and written) at a time. Larger than a streamed read's chunk: fewer calls, each a
 * hop to a thread (4 MiB: 2-3x faster than 1 MiB for a 50 MiB file here).
 */
export const CHUNK = 4 << 20;
/**
 * Files at least this large are streamed. Smaller ones are read whole: their fresh pages cost
 * little, and their `before` is in memory at once.
 */
const STREAM_MIN_SIZE = 4 << 20;
const encoder = new TextEncoder();
/** Read buffers kept for the next streamed edit (a fresh one costs its page faults). */
const pool: Uint8Array[] = [];
const POOL_MAX = 4;
/** More replacements than this in one chunk are copied into one write rather than written apart. */
const MAX_SCATTERED = 8;

function borrow(size: number): Uint8Array {
  const at = pool.findIndex((buffer) => buffer.length === size);
  return at >= 0 ? pool.splice(at, 1)[0] : new Uint8Array(size);
}

function giveBack(buffer: Uint8Array): void {
  if (pool.length < POOL_MAX) pool.push(buffer);
}

/**
 * Whether a file of `info` is edited by streaming: large, with one link
 * (so the rename frees its pages at once), no larger than the limit, and `oldString` short
 * against the chunk (each read window keeps its overlap).
 */
function streamable(info: Deno.FileInfo, request: FsReplaceRequest): boolean {
  return info.size >= STREAM_MIN_SIZE && info.size <= request.maxBytes && info.nlink === 1 &&
    4 * 3 * request.oldString.length <= CHUNK;
}

/** A streamed edit's file, locked, and what to do with it. */
export interface StreamedEdit {
  /** The file's directory and name. */
  dir: WorkDir;
  name: string;
  /** The current file, open and locked (`lockCurrent`). */
  locked: { info: Deno.FileInfo; held: Deno.FsFile };
  precondition: FsPrecondition;
  signal?: AbortSignal;
}

/**
 * Applies a literal replacement to a large locked file by streaming it (see the top of this
 * file), committed by `replacer`; the outcome's old bytes are read only when asked for
 * (`_kept.ts`). Any other edit, or when the whole-file path must decide (see
 * {@linkcode scanFile}), gets the file's bytes instead, read whole from its start and
 * checked against the precondition (`readLocked`), with nothing committed.
 */
export async function streamOrRead(
  replacer: Replacer,
  edit: StreamedEdit,
  request: FsContentRequest | FsReplaceRequest,
): Promise<FsReplaceOutcome | Uint8Array> {
  const { versions } = replacer;
  const { dir, name, locked, precondition, signal } = edit;
  const { info, held } = locked;
  if (!isReplaceRequest(request) || !streamable(info, request)) {
    return await readLocked(versions, locked, precondition, signal);
  }
  let plan: StreamedPlan | null = null;
  let version: string;
  const options = { keep: info, createOnly: false, signal };
  const scanOf: StreamScan = { file: held, info, request, precondition, versions, signal };
  try {
    if (onePass(request)) {
      // Written as it is read: the temporary file is dropped unless the plan is one to commit.
      const written = writtenAsRead(scanOf);
      version = await replacer.replace(dir, name, written.content, options);
      plan = written.plan();
    } else {
      plan = await scanFile(scanOf);
      if (!plan) throw UNPLANNED;
      version = await replacer.replace(dir, name, streamedContent(held, plan, signal), options);
    }
  } catch (error) {
    if (error !== UNPLANNED) throw error;
    held.seekSync(0, Deno.SeekMode.Start); // lseek does no I/O: no need for a thread hop
    return await readLocked(versions, locked, precondition, signal);
  }
  const replaced = { file: held, info, length: plan.before };
  const before = keepWritten(`${dir.at}/${name}`, version, replaced, plan);
  return lazyReplaceOutcome(before, { ...plan, length: plan.after }, version);
}

/** What a streamed pass reads and checks. */
interface StreamScan {
  /** The locked file, read from its start. */
  file: Deno.FsFile;
  /** Its stat at the lock. */
  info: Deno.FileInfo;
  request: FsReplaceRequest;
  /** Checked on the bytes read (a `version` one is digested as they stream past). */
  precondition: FsPrecondition;
  versions: Versioner;
  /** Bytes per read (default {@linkcode CHUNK}). */
  chunkSize?: number;
  signal?: AbortSignal;
}

/** Thrown (and caught) when a streamed edit must hand over to the whole-file path. */
const UNPLANNED = new Error("not planned by streaming");

/**
 * Whether the edit is made in one pass, written as read: a unique replacement (its new length
 * known in advance) with no line break, so no `\r\n` variant waits on the whole file's breaks.
 */
function onePass(request: FsReplaceRequest): boolean {
  return !request.replaceAll && !`${request.oldString}${request.newString}`.includes("\n");
}

/**
 * Reads the locked `file` (of `info`) from its start through reused buffers, feeding `scan`
 * window by window (each window starts with the overlap the scan keeps) and, for a `version`
 * precondition, digesting it; `each` sees every window once scanned, before the next read
 * overwrites it. Then checks the precondition (`FS_STALE`) and returns the plan, or `null` when
 * the whole-file path must decide: the file is not exactly `info.size` bytes now, looks binary,
 * or the match is not one the edit makes.
 */
async function scanFile(
  stream: StreamScan,
  each?: (window: Uint8Array, at: number, keep: number, scan: EditScan) => Promise<void>,
): Promise<StreamedPlan | null> {
  const { file, info, request, precondition, versions, signal } = stream;
  const chunkSize = stream.chunkSize ?? CHUNK;
  const scan = new EditScan(request);
  const digest = precondition.kind === "version" ? versions.stream(info.size) : null;
  // Two buffers: the next read is in flight while the current window is searched and written.
  // Each read lands after `overlap` bytes, where the window before leaves its last bytes.
  const overlap = scan.overlap;
  const buffers = [borrow(chunkSize), borrow(chunkSize)];
  const readInto = (buffer: Uint8Array, left: number) => {
    const read = file.read(buffer.subarray(overlap, overlap + Math.min(chunkSize - overlap, left)));
    read.catch(() => {}); // its failure is thrown where it is awaited, maybe after other awaits
    return read;
  };
  let total = 0; // bytes read
  let ahead: Promise<number | null> | null = null;
  try {
    let keep = 0; // the overlap the current window starts with
    let current = 0;
    file.seekSync(0, Deno.SeekMode.Start); // lseek does no I/O: no need for a thread hop
    ahead = info.size > 0 ? readInto(buffers[current], info.size) : null;
    while (ahead) {
      signal?.throwIfAborted();
      const n = await ahead;
      ahead = null;
      if (n === null) break;
      const window = buffers[current].subarray(overlap - keep, overlap + n);
      const at = total - keep;
      total += n;
      const next = buffers[current ^ 1];
      if (total < info.size) ahead = readInto(next, info.size - total);
      digest?.update(window.subarray(keep));
      scan.feed(window, at, n);
      keep = total < info.size ? Math.min(overlap, window.length) : 0;
      await each?.(window, at, keep, scan);
      next.set(window.subarray(window.length - keep), overlap - keep);
      current ^= 1;
    }
  } finally {
    // A read still in flight lands in a buffer: let it, before the buffer serves another edit.
    if (ahead) await ahead.catch(() => null);
    buffers.forEach(giveBack);
  }
  if (total !== info.size) return null;
  if (digest && digest.version(info) !== (precondition as { version: string }).version) {
    throw new FsError("FS_STALE");
  }
  if (looksBinary(scan.head)) return null;
  const plan = scan.plan();
  if (!plan) return null;
  const after = total + plan.positions.length * (plan.replacement.length - plan.needle.length);
  if (after > request.maxBytes) return null;
  return { ...plan, before: total, after };
}

/**
 * The new content of `file` made in one pass ({@linkcode onePass}): each window's bytes are
 * written once no later occurrence can cover them, the occurrence found replaced. `emit`
 * throws {@linkcode UNPLANNED} (the temporary file is then dropped) when the file turns out
 * binary, holds no occurrence or more than one, or is not the size it had; `plan` is the plan
 * once `emit` has returned.
 */
function writtenAsRead(stream: StreamScan): { content: ContentStream; plan(): StreamedPlan } {
  const { info, request } = stream;
  const needleLength = encoder.encode(request.oldString).length;
  const replacement = encoder.encode(request.newString);
  let plan: StreamedPlan | null = null;
  const content: ContentStream = {
    length: info.size + replacement.length - needleLength,
    async emit(write) {
      let done = 0; // the old bytes before this are written (or replaced)
      const each = async (window: Uint8Array, at: number, keep: number, scan: EditScan) => {
        if (looksBinary(scan.head)) throw UNPLANNED;
        const found = scan.positions;
        if (found.length > 1) throw UNPLANNED;
        const end = at + window.length - keep; // later windows may still find bytes after this
        const p = found[0] ?? Infinity;
        if (p >= done && p < end) {
          if (p > done) await write(window.subarray(done - at, p - at));
          if (replacement.length > 0) await write(replacement);
          done = p + needleLength;
        }
        if (done < end) await write(window.subarray(done - at, end - at));
        done = Math.max(done, end);
      };
      plan = await scanFile(stream, each);
      if (!plan || plan.positions.length !== 1) throw UNPLANNED;
    },
  };
  return { content, plan: () => plan! };
}

/**
 * The new content of `file` as `plan` makes it, read again from the file's start through a
 * reused buffer. Each replaced occurrence is checked to be there still (`FS_STALE` if not: a
 * writer that ignores the lock changed the file).
 */
function streamedContent(
  file: Deno.FsFile,
  plan: StreamedPlan,
  signal?: AbortSignal,
  chunkSize = CHUNK,
): ContentStream {
  const { positions, needle, replacement } = plan;
  const m = needle.length;
  return {
    length: plan.after,
    async emit(write) {
      const buffer = borrow(chunkSize);
      let stage: Uint8Array | null = null;
      try {
        file.seekSync(0, Deno.SeekMode.Start);
        let at = 0; // where the chunk starts in the old file
        let next = 0; // the next position to replace
        let skipTo = 0; // the old bytes before this are written (or replaced)
        while (at < plan.before) {
          signal?.throwIfAborted();
          const n = await file.read(buffer.subarray(0, Math.min(chunkSize, plan.before - at)));
          if (n === null) throw new FsError("FS_STALE");
          const chunk = buffer.subarray(0, n);
          const end = at + n;
          const pieces: Uint8Array[] = [];
          let from = Math.min(Math.max(skipTo - at, 0), n);
          checkNeedle(chunk, at, skipTo - m, needle); // the rest of one begun in the chunk before
          for (; next < positions.length && positions[next] < end; next++) {
            const start = positions[next] - at;
            if (start > from) pieces.push(chunk.subarray(from, start));
            if (replacement.length > 0) pieces.push(replacement);
            checkNeedle(chunk, at, positions[next], needle);
            skipTo = positions[next] + m;
            from = Math.min(skipTo - at, n);
          }
          if (from < n) pieces.push(chunk.subarray(from));
          if (pieces.length <= MAX_SCATTERED) {
            for (const piece of pieces) await write(piece);
          } else {
            stage ??= borrow(2 * chunkSize);
            await writeStaged(pieces, stage, write);
          }
          at = end;
        }
      } finally {
        giveBack(buffer);
        if (stage) giveBack(stage);
      }
    },
  };
}

/** Checks the bytes of `needle` at `position` of the file that lie in `chunk` (at `at`). */
function checkNeedle(chunk: Uint8Array, at: number, position: number, needle: Uint8Array): void {
  const from = Math.max(position, at);
  const to = Math.min(position + needle.length, at + chunk.length);
  for (let i = from; i < to; i++) {
    if (chunk[i - at] !== needle[i - position]) throw new FsError("FS_STALE");
  }
}

/** Writes `pieces` in order, copied together into `stage` (a piece larger than it, alone). */
async function writeStaged(
  pieces: readonly Uint8Array[],
  stage: Uint8Array,
  write: (chunk: Uint8Array) => Promise<void>,
): Promise<void> {
  let filled = 0;
  for (const piece of pieces) {
    if (filled + piece.length > stage.length && filled > 0) {
      await write(stage.subarray(0, filled));
      filled = 0;
    }
    if (piece.length > stage.length) await write(piece);
    else {
      stage.set(piece, filled);
      filled += piece.length;
    }
  }
  if (filled > 0) await write(stage.subarray(0, filled));
}
