// The literal replacement of `edit` (CONTRACT C4.4) planned over a file read window by window,
// as a streamed edit reads it: the same positions, line-break variant and replacement as
// `planEdit` finds in the joined bytes, with nothing of the file kept but a window. Pure.

import { findOccurrences, skipSearcherFor, toCrlf } from "./edit_apply.ts";
import type { EditRequest } from "./edit_apply.ts";
import type { SkipSearcher } from "./skip_search.ts";

const encoder = new TextEncoder();
/** The bytes the binary rule (C4.2) looks at. */
const HEAD = 8192;

/** One needle's leftmost non-overlapping occurrences, found window by window. */
class NeedleScan {
  readonly positions: number[] = [];
  readonly needle: Uint8Array;
  readonly #searcher: SkipSearcher | undefined;
  #from = 0; // no occurrence starts before this: it would overlap the last one found
  #searched = 0; // every start before this was searched in a window holding it whole

  constructor(needle: Uint8Array) {
    this.needle = needle;
    this.#searcher = skipSearcherFor(needle);
  }

  /** Searches `window` (the stream's bytes from `at` on) for the starts not searched yet. */
  scan(window: Uint8Array, at: number): void {
    const m = this.needle.length;
    const end = at + window.length;
    const begin = Math.max(this.#from, this.#searched, at);
    if (end - begin >= m) {
      const found = findOccurrences(window.subarray(begin - at), this.needle, this.#searcher);
      for (const p of found) this.positions.push(begin + p);
      if (found.length > 0) this.#from = begin + found[found.length - 1] + m;
    }
    this.#searched = Math.max(this.#searched, end - m + 1);
  }
}

/** A replacement as {@linkcode EditScan.plan} decided it. */
export interface ScannedPlan {
  /** Where each replaced occurrence starts in the old bytes, in order. */
  positions: number[];
  /** The bytes replaced at each position (`oldString`, maybe with `\r\n` breaks). */
  needle: Uint8Array;
  /** The bytes put in their place. */
  replacement: Uint8Array;
}

/**
 * Plans a literal replacement over windows of a file fed in order. Each window starts with the
 * last {@linkcode EditScan.overlap} bytes of the one before (fewer only when fewer were read),
 * so an occurrence across two reads is seen whole; `fresh` says how many of its bytes are new.
 */
export class EditScan {
  readonly #request: EditRequest;
  readonly #plain: NeedleScan;
  /** The `\r\n` variant, when `oldString` or `newString` has a line break. */
  readonly #crlf: NeedleScan | undefined;
  #head = new Uint8Array(0);
  #crlfBreaks = 0;
  #bareBreaks = 0;
  #sawCr = false;
  #last = -1; // the byte before the window's fresh bytes

  /** @param request The replacement (`oldString` not empty). */
  constructor(request: EditRequest) {
    this.#request = request;
    this.#plain = new NeedleScan(encoder.encode(request.oldString));
    if ((request.oldString + request.newString).includes("\n")) {
      const needle = encoder.encode(toCrlf(request.oldString));
      this.#crlf = sameBytes(needle, this.#plain.needle) ? this.#plain : new NeedleScan(needle);
    }
  }

  /** How many bytes of each window the next must start with. */
  get overlap(): number {
    return Math.max(this.#plain.needle.length, this.#crlf?.needle.length ?? 0) - 1;
  }

  /**
   * Scans the next window.
   *
   * @param window The bytes from `at` on: the kept overlap, then `fresh` new bytes.
   * @param at Where the window starts in the file.
   * @param fresh How many of its bytes (at its end) were not in the window before.
   */
  feed(window: Uint8Array, at: number, fresh: number): void {
    const added = window.subarray(window.length - fresh);
    if (this.#head.length < HEAD && added.length > 0) {
      const head = new Uint8Array(Math.min(HEAD, this.#head.length + added.length));
      head.set(this.#head);
      head.set(added.subarray(0, head.length - this.#head.length), this.#head.length);
      this.#head = head;
    }
    if (this.#crlf) this.#countBreaks(added);
    this.#plain.scan(window, at);
    if (this.#crlf && this.#crlf !== this.#plain) this.#crlf.scan(window, at);
  }

  /** Where `oldString` (as written) occurs in the bytes fed so far. */
  get positions(): readonly number[] {
    return this.#plain.positions;
  }

  /** The file's first bytes, as far as fed: what the binary rule (C4.2) reads. */
  get head(): Uint8Array {
    return this.#head;
  }

  /**
   * The replacement `planEdit` would make of the bytes fed, when it would make one: `undefined`
   * when `oldString` occurs nowhere, or more than once without `replaceAll`.
   */
  plan(): ScannedPlan | undefined {
    const { newString, replaceAll } = this.#request;
    const variants: Array<[NeedleScan, string]> = [[this.#plain, newString]];
    if (this.#crlf && this.#prefersCrlf()) variants.unshift([this.#crlf, toCrlf(newString)]);
    for (const [scan, text] of variants) {
      if (scan.positions.length === 0) continue;
      if (scan.positions.length > 1 && !replaceAll) return undefined;
      return { positions: scan.positions, needle: scan.needle, replacement: encoder.encode(text) };
    }
    return undefined;
  }

  /** `prefersCrlf` of the bytes fed: `\r\n` breaks outnumber bare `\n` ones. */
  #prefersCrlf(): boolean {
    return this.#sawCr && this.#crlfBreaks > this.#bareBreaks;
  }

  #countBreaks(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (!this.#sawCr && bytes.includes(0x0d)) this.#sawCr = true;
    for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) {
      const before = i > 0 ? bytes[i - 1] : this.#last;
      if (before === 0x0d) this.#crlfBreaks++;
      else this.#bareBreaks++;
    }
    this.#last = bytes[bytes.length - 1];
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
