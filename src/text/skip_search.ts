// Horspool's skip search over bytes, for `edit`'s exact and whitespace-insensitive searches.
// Pure.

/** How {@linkcode skipSearch} moves on after an occurrence, and how much work it may do. */
export interface SkipSearchOptions {
  /** Steps and byte comparisons it may spend before it hands the rest back. */
  budget: number;
  /** Whether occurrences may overlap (else the search goes on after each one). */
  overlapping: boolean;
}

/**
 * Horspool's skip search for one needle, its shift table built once, so one needle can be
 * looked for in many haystacks (the chunks of a streamed edit) at no further set-up cost. The
 * window moves by what its last `width` bytes say: the last byte (`width` 1), or the last two
 * (`width` 2), for haystacks where most bytes occur in the needle (digits in a log, say) while a
 * pair of them mostly does not, so the window still moves by nearly the needle's length.
 */
export class SkipSearcher {
  readonly #needle: Uint8Array;
  readonly #width: 1 | 2;
  readonly #shift: Uint32Array;
  readonly #lastKey: number;

  /**
   * @param needle The bytes to find (at least `width` bytes).
   * @param width How many bytes at the window's end decide its move: 1 or 2.
   */
  constructor(needle: Uint8Array, width: 1 | 2) {
    const m = needle.length;
    if (m < width) throw new RangeError(`a skip search of width ${width} needs a longer needle`);
    this.#needle = needle;
    this.#width = width;
    // Where a key (a byte, or a pair) last occurs before the needle's last one, as the shift
    // that aligns it there; a key not in the needle moves the window past it.
    this.#shift = new Uint32Array(width === 2 ? 65536 : 256).fill(m - width + 1);
    for (let j = 0; j < m - width; j++) this.#shift[keyAt(needle, j, width)] = m - width - j;
    this.#lastKey = keyAt(needle, m - width, width);
  }

  /**
   * Calls `visit` with each start of the needle in `haystack`, left to right, until it returns
   * `true`. A haystack much like the needle would cost up to its length times the needle's:
   * once the budget is spent the search stops and says where, for the caller to search the
   * rest another way.
   *
   * @param haystack The bytes.
   * @param options The budget and whether occurrences may overlap.
   * @param visit Called with each start; `true` stops the search.
   * @returns -1 when the search ended (the haystack searched, or `visit` stopped it); else the
   *   position from which the haystack was not searched.
   */
  search(
    haystack: Uint8Array,
    options: SkipSearchOptions,
    visit: (at: number) => boolean,
  ): number {
    const needle = this.#needle;
    const shift = this.#shift;
    const lastKey = this.#lastKey;
    const m = needle.length;
    const compared = m - this.#width; // the bytes left to compare once the key matches
    // The key's first byte, shifted into place (a one-byte key has none: masked off).
    const keyStart = m - this.#width;
    const mask = this.#width === 2 ? 0xff00 : 0;
    const end = haystack.length - m; // the last possible start
    let budget = options.budget;
    let i = 0;
    while (i <= end) {
      const key = ((haystack[i + keyStart] << 8) & mask) | haystack[i + m - 1];
      if (key === lastKey) {
        let j = 0;
        while (j < compared && haystack[i + j] === needle[j]) j++;
        budget -= j;
        if (j === compared) {
          if (visit(i)) return -1;
          if (!options.overlapping) {
            i += m;
            continue;
          }
        }
      }
      i += shift[key];
      if (--budget < 0) return i <= end ? i : -1;
    }
    return -1;
  }
}

/** The key of a window whose last `width` bytes start at `at`. */
function keyAt(bytes: Uint8Array, at: number, width: 1 | 2): number {
  return width === 2 ? (bytes[at] << 8) | bytes[at + 1] : bytes[at];
}

/**
 * Calls `visit` with each start of `needle` in `haystack`, left to right, until it returns
 * `true`, skipping by the byte under the window's last position ({@linkcode SkipSearcher} of
 * width 1): a needle of a dozen bytes reads a fraction of a source file, decoding nothing.
 *
 * @param haystack The bytes.
 * @param needle The bytes to find (at least one).
 * @param options The budget and whether occurrences may overlap.
 * @param visit Called with each start; `true` stops the search.
 * @returns -1 when the search ended (the haystack searched, or `visit` stopped it); else the
 *   position from which the haystack was not searched.
 */
export function skipSearch(
  haystack: Uint8Array,
  needle: Uint8Array,
  options: SkipSearchOptions,
  visit: (at: number) => boolean,
): number {
  return new SkipSearcher(needle, 1).search(haystack, options, visit);
}

/**
 * {@linkcode skipSearch} moving by the last two bytes of the window instead of the last one
 * ({@linkcode SkipSearcher} of width 2). Same contract; the needle must be at least two bytes
 * long.
 */
export function pairSkipSearch(
  haystack: Uint8Array,
  needle: Uint8Array,
  options: SkipSearchOptions,
  visit: (at: number) => boolean,
): number {
  return new SkipSearcher(needle, 2).search(haystack, options, visit);
}
