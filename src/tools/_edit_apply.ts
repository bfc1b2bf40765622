// The literal replacement of `edit` on bytes (CONTRACT C4.4). Pure. Private to src/tools.

import { Buffer } from "node:buffer";

const encoder = new TextEncoder();

export interface EditRequest {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

/** Thrown when the match count is not acceptable; the tool renders the message. */
export class MatchError extends Error {
  constructor(readonly count: number) {
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

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

/** How often each byte value occurs in a few samples of `bytes` (start, middle, end). */
function sampleFrequencies(bytes: Uint8Array): Uint32Array {
  const counts = new Uint32Array(256);
  const span = 16 * 1024;
  const starts = bytes.length <= 3 * span
    ? [0]
    : [0, (bytes.length >>> 1) - (span >>> 1), bytes.length - span];
  for (const start of starts) {
    const end = Math.min(bytes.length, start + (bytes.length <= 3 * span ? bytes.length : span));
    for (let i = start; i < end; i++) counts[bytes[i]]++;
  }
  return counts;
}

/**
 * The non-overlapping occurrences of `needle` in `haystack`, left to right. Candidates are found
 * with `indexOf` on the needle's rarest byte (by a sample of the haystack), which runs at memory
 * speed where `Buffer#indexOf` crawls; each candidate is then checked byte by byte. Should the
 * checks cost far more than the scan (a needle of nothing but common bytes), the rest of the
 * search falls back to `Buffer#indexOf`.
 */
function occurrences(haystack: Uint8Array, needle: Uint8Array): number[] {
  const found: number[] = [];
  const m = needle.length;
  const last = haystack.length - m; // the last possible start
  if (last < 0) return found;
  const counts = sampleFrequencies(haystack);
  let k = 0; // the anchor: the needle's rarest byte
  for (let j = 1; j < m; j++) if (counts[needle[j]] < counts[needle[k]]) k = j;
  const anchor = needle[k];
  let budget = 8 * haystack.length + (1 << 20); // byte comparisons before the fallback
  let from = 0; // the first start not yet ruled out
  for (let i = haystack.indexOf(anchor, k); i >= 0; i = haystack.indexOf(anchor, i + 1)) {
    const start = i - k;
    if (start > last) break;
    if (start < from) continue;
    let j = 0;
    while (j < m && haystack[start + j] === needle[j]) j++;
    budget -= j + 1;
    if (j === m) {
      found.push(start);
      from = start + m;
      i = from + k - 1;
    }
    if (budget < 0) {
      const rest = Buffer.from(haystack.buffer, haystack.byteOffset, haystack.length);
      for (let at = rest.indexOf(needle, from); at >= 0; at = rest.indexOf(needle, at + m)) {
        found.push(at);
      }
      break;
    }
  }
  return found;
}

/** An applied edit: the new bytes and where the replacements went. */
export interface EditPlan {
  /** The file's bytes after the edit. */
  after: Uint8Array;
  /** Where each replaced occurrence started in the old bytes, in order. */
  positions: number[];
  /** The bytes replaced at each position (`old_string`, maybe with `\r\n` breaks). */
  needle: Uint8Array;
  /** The bytes put in their place. */
  replacement: Uint8Array;
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
 * {@linkcode applyEdit}, also telling where the replacements went (for {@linkcode editTexts}).
 *
 * @throws {MatchError} With count 0 for no match, or the count when ambiguous.
 */
export function planEdit(bytes: Uint8Array, edit: EditRequest): EditPlan {
  const variants: Array<[string, string]> = [[edit.oldString, edit.newString]];
  if ((edit.oldString + edit.newString).includes("\n") && prefersCrlf(bytes)) {
    variants.unshift([toCrlf(edit.oldString), toCrlf(edit.newString)]);
  }
  let positions: number[] = [];
  let needle = new Uint8Array();
  let replacement = new Uint8Array();
  for (const [oldText, newText] of variants) {
    needle = encoder.encode(oldText);
    positions = occurrences(bytes, needle);
    replacement = encoder.encode(newText);
    if (positions.length > 0) break;
  }
  if (positions.length === 0) throw new MatchError(0);
  if (positions.length > 1 && !edit.replaceAll) throw new MatchError(positions.length);
  const out = new Uint8Array(
    bytes.length + positions.length * (replacement.length - needle.length),
  );
  let from = 0;
  let to = 0;
  for (const at of positions) {
    out.set(bytes.subarray(from, at), to);
    to += at - from;
    out.set(replacement, to);
    to += replacement.length;
    from = at + needle.length;
  }
  out.set(bytes.subarray(from), to);
  return { after: out, positions, needle, replacement };
}

const stripBom = new TextDecoder("utf-8");
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
export function editTexts(before: Uint8Array, plan: EditPlan): { before: string; after: string } {
  const { positions, needle, replacement, after } = plan;
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
  const clean = positions.length <= MAX_SHARED_PIECES &&
    gaps.every(([start, end], i) => i === 0 || start === end || (before[start] & 0xc0) !== 0x80);
  if (!clean) return { before: stripBom.decode(before), after: stripBom.decode(after) };
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
    const text = decode(stretch, beforeAt);
    beforeText += text;
    afterText += (beforeAt === 0) === (afterAt === 0) ? text : decode(stretch, afterAt);
    beforeAt += stretch.length;
    afterAt += stretch.length;
  });
  return { before: beforeText, after: afterText };
}
