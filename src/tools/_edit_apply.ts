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

function occurrences(haystack: Buffer, needle: Uint8Array): number[] {
  const found: number[] = [];
  for (
    let at = haystack.indexOf(needle);
    at >= 0;
    at = haystack.indexOf(needle, at + needle.length)
  ) {
    found.push(at);
  }
  return found;
}

/**
 * Replaces `oldString` with `newString` in `bytes`, literally. In a CRLF file an `oldString`
 * written with `\n` matches `\r\n` and the replacement is written with `\r\n`. Everything
 * outside the replaced occurrences is kept byte for byte.
 *
 * @throws {MatchError} With count 0 for no match, or the count when ambiguous.
 */
export function applyEdit(bytes: Uint8Array, edit: EditRequest): Uint8Array {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const variants: Array<[string, string]> = [[edit.oldString, edit.newString]];
  if ((edit.oldString + edit.newString).includes("\n") && prefersCrlf(bytes)) {
    variants.unshift([toCrlf(edit.oldString), toCrlf(edit.newString)]);
  }
  let positions: number[] = [];
  let needle = new Uint8Array();
  let replacement = new Uint8Array();
  for (const [oldText, newText] of variants) {
    needle = encoder.encode(oldText);
    positions = occurrences(haystack, needle);
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
  return out;
}
