// The literal replacement of `edit` on bytes (CONTRACT C4.4). Pure.

import { Buffer } from "node:buffer";
import { concatBytes } from "./bytes.ts";
import { isAscii } from "./newlines.ts";
import { SkipSearcher } from "./skip_search.ts";

const encoder = new TextEncoder();

export interface EditRequest {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

/** Thrown when the match count is not acceptable; the tool renders the message. */
export class MatchError extends Error {
  /**
   * @param count How many times the text occurs.
   * @param positions Where each occurrence starts in the file's bytes (for the hint of C12.4).
   */
  constructor(readonly count: number, readonly positions: readonly number[] = []) {
    super(`old_string matches ${count} times`);
  }
}

/** Whether `\r\n` breaks outnumber bare `\n` breaks. */
export function prefersCrlf(bytes: Uint8Array): boolean {
  if (!bytes.includes(0x0d)) return false; // no `\r` at all: the common case, at memory speed
  let crlf = 0;
  let bare = 0;
  for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) {
    if (i > 0 && bytes[i - 1] === 0x0d) crlf++;
    else bare++;
  }
  return crlf > bare;
}

/** `text` with every line break written `\r\n` (the variant of C4.4 for a CRLF file). */
export function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

/** How often each byte value occurs in a few samples of `bytes` (start, middle, end). */
function sampleFrequencies(bytes: Uint8Array): { counts: Uint32Array; sampled: number } {
  const counts = new Uint32Array(256);
  const span = 16 * 1024;
  const ranges = bytes.length <= 3 * span
    ? [[0, bytes.length]]
    : [0, (bytes.length >>> 1) - (span >>> 1), bytes.length - span].map((at) => [at, at + span]);
  let sampled = 0;
  for (const [start, end] of ranges) {
    for (let i = start; i < end; i++) counts[bytes[i]]++;
    sampled += end - start;
  }
  return { counts, sampled };
}

/**
 * The non-overlapping occurrences of `needle` in `haystack`, left to right. Candidates are the
 * places of the needle's rarest byte (by a sample of the haystack), each then checked byte by
 * byte: a rare anchor is found with `indexOf` (memchr speed), a common one word at a time
 * (SWAR), both far faster than `Buffer#indexOf`. Should the checks cost far more than the scan
 * (a needle of nothing but common bytes), the rest of the search falls back to `Buffer#indexOf`.
 */
function occurrences(haystack: Uint8Array, needle: Uint8Array): number[] {
  const found: number[] = [];
  const m = needle.length;
  const last = haystack.length - m; // the last possible start
  if (last < 0) return found;
  const { counts, sampled } = sampleFrequencies(haystack);
  let k = 0; // the anchor: the needle's rarest byte
  for (let j = 1; j < m; j++) if (counts[needle[j]] < counts[needle[k]]) k = j;
  const anchor = needle[k];
  let budget = 8 * haystack.length + (1 << 20); // byte comparisons before the fallback
  let from = 0; // the first start not yet ruled out
  let gaveUp = false;
  // Checks the candidate whose anchor byte is at `i`; false once the search must stop.
  const check = (i: number): boolean => {
    const start = i - k;
    if (start > last) return false;
    if (start < from) return true;
    let j = 0;
    while (j < m && haystack[start + j] === needle[j]) j++;
    budget -= j + 1;
    if (j === m) {
      found.push(start);
      from = start + m;
    }
    if (budget < 0) gaveUp = true;
    return !gaveUp;
  };
  if (counts[anchor] * 512 < sampled) {
    for (let i = haystack.indexOf(anchor, k); i >= 0; i = haystack.indexOf(anchor, i + 1)) {
      if (!check(i)) break;
      if (from > i - k) i = from + k - 1; // resume after the match
    }
  } else {
    scanForByte(haystack, anchor, k, check);
  }
  if (gaveUp) {
    const rest = Buffer.from(haystack.buffer, haystack.byteOffset, haystack.length);
    for (let at = rest.indexOf(needle, from); at >= 0; at = rest.indexOf(needle, at + m)) {
      found.push(at);
    }
  }
  return found;
}

/** Needles at least this long may be searched by {@linkcode skipOccurrences}. */
const MIN_SKIP_NEEDLE = 8;

/**
 * The searcher {@linkcode skipOccurrences} takes for `needle`: built once, it serves any number of
 * haystacks (the chunks of a streamed edit). `undefined` for a needle too short to skip well.
 */
export function skipSearcherFor(needle: Uint8Array): SkipSearcher | undefined {
  return needle.length < MIN_SKIP_NEEDLE ? undefined : new SkipSearcher(needle, 2);
}

/**
 * The non-overlapping occurrences of `needle` in `haystack`, left to right, by Horspool's skip
 * search on the window's last two bytes. Fast when most pairs of the haystack's bytes are not in
 * the needle (a line of a log, say, even one of digits): nothing decoded, nothing allocated.
 * `undefined` when it is not worth it (a short needle) or once it has done as much work as
 * `haystack.length / 2` steps (the haystack is too much like the needle): then another search
 * must be used.
 */
function skipOccurrences(
  haystack: Uint8Array,
  needle: Uint8Array,
  searcher = skipSearcherFor(needle),
): number[] | undefined {
  if (searcher === undefined) return undefined;
  const found: number[] = [];
  const budget = (haystack.length >>> 1) + 4096;
  const rest = searcher.search(haystack, { budget, overlapping: false }, (at) => {
    found.push(at);
    return false;
  });
  return rest === -1 ? found : undefined;
}

/**
 * The non-overlapping occurrences of `needle` in `haystack`, left to right, by the byte
 * searches of {@linkcode planEdit} (no decoding): the positions a search of the text finds.
 *
 * @param haystack The bytes.
 * @param needle The bytes to find (not empty).
 * @param searcher What {@linkcode skipSearcherFor} gave for `needle`, when already built.
 */
export function findOccurrences(
  haystack: Uint8Array,
  needle: Uint8Array,
  searcher: SkipSearcher | undefined = skipSearcherFor(needle),
): number[] {
  return skipOccurrences(haystack, needle, searcher) ?? occurrences(haystack, needle);
}

/**
 * Calls `visit(i)` for each `i >= start` where `bytes[i] === byte`, in order, until it returns
 * false. Works on 32-bit words: a word without the byte costs a handful of operations.
 */
function scanForByte(
  bytes: Uint8Array,
  byte: number,
  start: number,
  visit: (i: number) => boolean,
): void {
  const pattern = Math.imul(byte, 0x01010101);
  let i = start;
  while (i < bytes.length && ((bytes.byteOffset + i) & 3) !== 0) {
    if (bytes[i] === byte && !visit(i)) return;
    i++;
  }
  const words = i < bytes.length ? (bytes.length - i) >>> 2 : 0;
  const view = words > 0 ? new Int32Array(bytes.buffer, bytes.byteOffset + i, words) : [];
  for (let w = 0; w < words; w++) {
    const x = view[w] ^ pattern; // a zero byte where `byte` is
    if ((((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f) === -1) continue;
    const at = i + (w << 2);
    for (let b = at; b < at + 4; b++) if (bytes[b] === byte && !visit(b)) return;
  }
  for (let b = i + (words << 2); b < bytes.length; b++) {
    if (bytes[b] === byte && !visit(b)) return;
  }
}

/** An applied edit: the new bytes and where the replacements went. */
export interface EditPlan {
  /**
   * The file's bytes after the edit, as slices to write in order: stretches of the old bytes
   * (subarrays, not copies) and the replacement between them.
   */
  pieces: Uint8Array[];
  /** The total length of `pieces`: the size of the file after the edit. */
  length: number;
  /** The file's bytes after the edit, joined from `pieces` on first access. */
  readonly after: Uint8Array;
  /** Where each replaced occurrence started in the old bytes, in order. */
  positions: number[];
  /** The bytes replaced at each position (`old_string`, maybe with `\r\n` breaks). */
  needle: Uint8Array;
  /** The bytes put in their place. */
  replacement: Uint8Array;
  /** The old bytes as text, when they are all ASCII (then byte and text offsets agree). */
  text?: string;
}

/**
 * Replaces `oldString` with `newString` in `bytes`, literally. In a CRLF file an `oldString`
 * written with `\n` matches `\r\n` and the replacement is written with `\r\n`. Everything
 * outside the replaced occurrences is kept byte for byte.
 *
 * @throws {MatchError} With count 0 for no match, or the count when ambiguous.
 */
export function applyEdit(bytes: Uint8Array, edit: EditRequest): Uint8Array {
  return planEdit(bytes, edit).after;
}

/**
 * {@linkcode applyEdit}, also telling where the replacements went (for {@linkcode editTexts}),
 * with the new bytes as slices of the old ones and the replacement (nothing copied).
 *
 * @throws {MatchError} With count 0 for no match, or the count when ambiguous.
 */
export function planEdit(bytes: Uint8Array, edit: EditRequest): EditPlan {
  const variants: Array<[string, string]> = [[edit.oldString, edit.newString]];
  if ((edit.oldString + edit.newString).includes("\n") && prefersCrlf(bytes)) {
    variants.unshift([toCrlf(edit.oldString), toCrlf(edit.newString)]);
  }
  let text: string | undefined;
  let ascii: boolean | undefined;
  let positions: number[] = [];
  let needle = new Uint8Array();
  let replacement = new Uint8Array();
  for (const [oldText, newText] of variants) {
    needle = encoder.encode(oldText);
    // A long needle is first looked for by skipping (no decoding, a fraction of the bytes
    // read). Failing that, an ASCII file is decoded once: V8's string search finds the
    // matches (faster than the other byte searches here), and the text serves `editTexts`
    // without decoding again.
    let found = skipOccurrences(bytes, needle);
    if (found === undefined) {
      ascii ??= isAscii(bytes);
      if (ascii) text ??= stripBom.decode(bytes);
      found = text === undefined ? occurrences(bytes, needle) : needle.length === oldText.length // an ASCII needle; any other cannot occur
        ? textOccurrences(text, oldText)
        : [];
    }
    positions = found;
    replacement = encoder.encode(newText);
    if (positions.length > 0) break;
  }
  if (positions.length === 0) throw new MatchError(0);
  if (positions.length > 1 && !edit.replaceAll) {
    throw new MatchError(positions.length, positions);
  }
  const pieces = piecesAround(bytes, positions, needle.length, replacement);
  const length = bytes.length + positions.length * (replacement.length - needle.length);
  let joined: Uint8Array | undefined;
  return {
    pieces,
    length,
    get after() {
      return joined ??= concatBytes(pieces);
    },
    positions,
    needle,
    replacement,
    text,
  };
}

/**
 * The bytes after a replacement as slices: the stretches of `bytes` around the occurrences
 * (subarrays, not copies) and `replacement` between them.
 *
 * @param bytes The old bytes.
 * @param positions Where each replaced occurrence starts, in order, none overlapping.
 * @param needleLength The length of each occurrence.
 * @param replacement What each is replaced with.
 */
export function piecesAround(
  bytes: Uint8Array,
  positions: readonly number[],
  needleLength: number,
  replacement: Uint8Array,
): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const at of positions) {
    if (at > from) pieces.push(bytes.subarray(from, at));
    if (replacement.length > 0) pieces.push(replacement);
    from = at + needleLength;
  }
  if (from < bytes.length) pieces.push(bytes.subarray(from));
  return pieces;
}

/** The non-overlapping occurrences of `needle` in `text`, left to right. */
function textOccurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    found.push(at);
  }
  return found;
}

const stripBom = new TextDecoder("utf-8");

/** The text of `pieces` joined, as decoding the joined bytes whole gives it, without joining. */
function decodePieces(pieces: readonly Uint8Array[]): string {
  // The BOM is dropped here, not by the decoder: Deno's streaming decoder also drops one at the
  // start of a later piece. The text starts with U+FEFF only when the bytes start with its BOM.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let text = "";
  for (const piece of pieces) text += decoder.decode(piece, { stream: true });
  text += decoder.decode();
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}
const keepBom = new TextDecoder("utf-8", { ignoreBOM: true });
/** Beyond this many replacements the texts are decoded whole. */
const MAX_SHARED_PIECES = 64;

/**
 * The text of the bytes before and after an edit, as a whole-buffer UTF-8 decode (BOM dropped,
 * invalid bytes as U+FFFD) gives them, but decoding the unchanged stretches once and sharing
 * them between the two strings: half the decoding and half the memory of decoding both.
 *
 * @param before The bytes `plan` was made from.
 * @param plan What {@linkcode planEdit} returned for them.
 * @returns Both texts.
 */
export function editTexts(
  before: Uint8Array,
  plan: Omit<EditPlan, "length" | "after">,
): { before: string; after: string } {
  const { positions, needle, replacement, pieces, text: known } = plan;
  const gaps: Array<[number, number]> = [];
  let from = 0;
  for (const at of positions) {
    gaps.push([from, at]);
    from = at + needle.length;
  }
  gaps.push([from, before.length]);
  // Decoding in pieces equals decoding whole when no piece but the first starts with a UTF-8
  // continuation byte (the needle and the replacement are valid UTF-8, so only a stretch of
  // the file after a match can): then no sequence, and no BOM, spans two pieces.
  // An ASCII file's text is known already, and none of its bytes continues a sequence.
  const clean = positions.length <= MAX_SHARED_PIECES &&
    (known !== undefined ||
      gaps.every(([start, end], i) => i === 0 || start === end || (before[start] & 0xc0) !== 0x80));
  if (!clean) {
    return { before: known ?? stripBom.decode(before), after: decodePieces(pieces) };
  }
  let beforeText = "";
  let afterText = "";
  let beforeAt = 0; // bytes of each text so far: the piece at byte 0 drops a BOM
  let afterAt = 0;
  const decode = (bytes: Uint8Array, at: number): string =>
    (at === 0 ? stripBom : keepBom).decode(bytes);
  const needleText = decode(needle, 1);
  const replacementText = decode(replacement, 1);
  gaps.forEach(([start, end], i) => {
    if (i > 0) {
      beforeText += beforeAt === 0 ? decode(needle, 0) : needleText;
      beforeAt += needle.length;
      afterText += afterAt === 0 ? decode(replacement, 0) : replacementText;
      afterAt += replacement.length;
    }
    if (start === end) return;
    const stretch = before.subarray(start, end);
    // ASCII holds no BOM: the known text's slice is the stretch's text wherever it lands.
    const text = known?.slice(start, end) ?? decode(stretch, beforeAt);
    beforeText += text;
    afterText += known !== undefined || (beforeAt === 0) === (afterAt === 0)
      ? text
      : decode(stretch, afterAt);
    beforeAt += stretch.length;
    afterAt += stretch.length;
  });
  return { before: known ?? beforeText, after: afterText };
}
