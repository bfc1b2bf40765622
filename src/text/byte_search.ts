/**
 * A needle's search in bytes with V8's native typed-array `indexOf`, for `grep`'s prefilter
 * (CONTRACT C11). Pure: no I/O.
 *
 * Everything is made by {@linkcode makeByteSearch}, whose body refers to nothing outside itself:
 * the search worker runs the very same code from its source text (`String(makeByteSearch)`).
 *
 * @module
 */

/** The byte search's functions. */
export interface ByteSearch {
  /** Whether `bytes` contain `needle`. */
  containsBytes(bytes: Uint8Array, needle: Uint8Array): boolean;
  /** Where `needle` first occurs in `bytes` at or after `from`, or -1. */
  indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from: number): number;
  /** A rough rarity of a byte in source text: higher is rarer. */
  rarity(byte: number): number;
}

/**
 * Makes the byte search. Self-contained (no reference to anything outside this function), so
 * its source text can be evaluated in a worker thread.
 *
 * @returns The functions.
 */
export function makeByteSearch(): ByteSearch {
  const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  /** Each needle's rarest-looking byte pair's index, worked out once. */
  const pairs = new WeakMap<Uint8Array, number>();
  /** Each needle's rarest-looking byte's index, worked out once. */
  const pivots = new WeakMap<Uint8Array, number>();

  /**
   * Whether `bytes` contain `needle` (a native search).
   *
   * @param bytes The haystack.
   * @param needle The bytes to find.
   * @returns `true` when found.
   */
  function containsBytes(bytes: Uint8Array, needle: Uint8Array): boolean {
    return indexOfBytes(bytes, needle, 0) !== -1;
  }

  /**
   * Where `needle` first occurs in `bytes` at or after `from` (a native search for its rarest
   * byte, then a comparison).
   *
   * @param bytes The haystack.
   * @param needle The bytes to find.
   * @param from Where to start.
   * @returns The index, or -1.
   */
  function indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from: number): number {
    const n = needle.length;
    if (n === 0) return from <= bytes.length ? from : -1;
    if (n >= 3 && LITTLE_ENDIAN && bytes.length - from >= 256) {
      return indexOfPairs(bytes, needle, from);
    }
    // Scan for the needle's rarest-looking byte (a native `indexOf`), then compare the rest.
    let k = pivots.get(needle);
    if (k === undefined) {
      k = 0;
      for (let i = 1; i < n; i++) if (rarity(needle[i]) > rarity(needle[k])) k = i;
      pivots.set(needle, k);
    }
    const pivot = needle[k];
    const last = bytes.length - n + k;
    for (
      let i = bytes.indexOf(pivot, from + k);
      i !== -1 && i <= last;
      i = bytes.indexOf(pivot, i + 1)
    ) {
      const start = i - k;
      let j = 0;
      while (j < n && bytes[start + j] === needle[j]) j++;
      if (j === n) return start;
    }
    return -1;
  }

  /**
   * `indexOfBytes` for a needle of 3 bytes or more: two native `indexOf` scans of the bytes as
   * 16-bit words, one for the needle's rarest-looking byte pair at even offsets, one for the pair
   * after it (which is then at an even offset), so candidates are rare even when single bytes are
   * not, and each scan steps two bytes at a time.
   */
  function indexOfPairs(bytes: Uint8Array, needle: Uint8Array, from: number): number {
    const n = needle.length;
    let k = pairs.get(needle);
    if (k === undefined) {
      k = 0;
      let best = -1;
      for (let i = 0; i + 2 < n; i++) {
        const score = rarity(needle[i]) + 2 * rarity(needle[i + 1]) + rarity(needle[i + 2]);
        if (score > best) [best, k] = [score, i];
      }
      pairs.set(needle, k);
    }
    const a = needle[k] | (needle[k + 1] << 8); // at an even offset when needle[k] is
    const b = needle[k + 1] | (needle[k + 2] << 8); // at an even offset when needle[k + 1] is
    const off = bytes.byteOffset & 1; // the first byte at an even offset in the buffer
    const words = new Uint16Array(bytes.buffer, bytes.byteOffset + off, (bytes.length - off) >> 1);
    const last = bytes.length - n; // the last possible start
    // Word w holds bytes off + 2w and off + 2w + 1: needle[k] there means a start at off + 2w - k.
    let wa = words.indexOf(a, Math.max(0, Math.ceil((from + k - off) / 2)));
    let wb = words.indexOf(b, Math.max(0, Math.ceil((from + k + 1 - off) / 2)));
    while (wa !== -1 || wb !== -1) {
      const sa = wa === -1 ? Infinity : off + 2 * wa - k;
      const sb = wb === -1 ? Infinity : off + 2 * wb - k - 1;
      let start: number;
      if (sa < sb) {
        start = sa;
        wa = words.indexOf(a, wa + 1);
      } else {
        start = sb;
        wb = words.indexOf(b, wb + 1);
      }
      if (start > last) return -1;
      if (start < from) continue;
      let j = 0;
      while (j < n && bytes[start + j] === needle[j]) j++;
      if (j === n) return start;
    }
    return -1;
  }

  /** A rough rarity of a byte in source text: higher is rarer. */
  function rarity(byte: number): number {
    if (byte === 0x20 || byte === 0x0a || byte === 0x09) return 0;
    if (byte >= 0x61 && byte <= 0x7a) {
      return "etaoinsrhldcumfpgwybvkxjqz".indexOf(String.fromCharCode(byte)) + 10;
    }
    if (byte >= 0x41 && byte <= 0x5a) return 40;
    if (byte >= 0x30 && byte <= 0x39) return 38;
    if (byte >= 0x80) return 45;
    return "(),.;:=_'\"/-{}[]<>*+!?&|#@$%^~`\\".indexOf(String.fromCharCode(byte)) + 20;
  }

  return { containsBytes, indexOfBytes, rarity };
}

/** This thread's byte search. */
export const byteSearch: ByteSearch = makeByteSearch();

/**
 * Whether `bytes` contain `needle` (a native search).
 *
 * @param bytes The haystack.
 * @param needle The bytes to find.
 * @returns `true` when found.
 */
export const containsBytes: (bytes: Uint8Array, needle: Uint8Array) => boolean =
  byteSearch.containsBytes;

/**
 * Where `needle` first occurs in `bytes` at or after `from` (a native search for its rarest
 * bytes, then a comparison).
 *
 * @param bytes The haystack.
 * @param needle The bytes to find.
 * @param from Where to start.
 * @returns The index, or -1.
 */
export const indexOfBytes: (bytes: Uint8Array, needle: Uint8Array, from: number) => number =
  byteSearch.indexOfBytes;
