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
 * Calls `visit` with each start of `needle` in `haystack`, left to right, until it returns
 * `true`. The byte under the window's last position says how far the window may move, so a
 * needle of a dozen bytes reads a fraction of a source file, decoding nothing. A haystack much
 * like the needle would cost up to its length times the needle's: once the budget is spent the
 * search stops and says where, for the caller to search the rest another way.
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
  const m = needle.length;
  const shift = new Uint32Array(256).fill(m);
  for (let j = 0; j < m - 1; j++) shift[needle[j]] = m - 1 - j;
  const lastByte = needle[m - 1];
  const end = haystack.length - m; // the last possible start
  let budget = options.budget;
  let i = 0;
  while (i <= end) {
    const c = haystack[i + m - 1];
    if (c === lastByte) {
      let j = 0;
      while (j < m - 1 && haystack[i + j] === needle[j]) j++;
      budget -= j;
      if (j === m - 1) {
        if (visit(i)) return -1;
        if (!options.overlapping) {
          i += m;
          continue;
        }
      }
    }
    i += shift[c];
    if (--budget < 0) return i <= end ? i : -1;
  }
  return -1;
}

/**
 * {@linkcode skipSearch} moving by the last two bytes of the window instead of the last one:
 * where most bytes of the haystack occur in the needle (digits in a log, say) a pair of them
 * mostly does not, and the window still moves by nearly the needle's length. Same contract as
 * {@linkcode skipSearch}; the needle must be at least two bytes long.
 */
export function pairSkipSearch(
  haystack: Uint8Array,
  needle: Uint8Array,
  options: SkipSearchOptions,
  visit: (at: number) => boolean,
): number {
  const m = needle.length;
  // Where a pair last occurs before the needle's last pair, as the shift that aligns it there.
  const shift = new Uint16Array(65536).fill(Math.min(m - 1, 65535));
  for (let j = 0; j < m - 2; j++) {
    shift[(needle[j] << 8) | needle[j + 1]] = Math.min(m - 2 - j, 65535);
  }
  const lastPair = (needle[m - 2] << 8) | needle[m - 1];
  const end = haystack.length - m; // the last possible start
  let budget = options.budget;
  let i = 0;
  while (i <= end) {
    const pair = (haystack[i + m - 2] << 8) | haystack[i + m - 1];
    if (pair === lastPair) {
      let j = 0;
      while (j < m - 2 && haystack[i + j] === needle[j]) j++;
      budget -= j;
      if (j === m - 2) {
        if (visit(i)) return -1;
        if (!options.overlapping) {
          i += m;
          continue;
        }
      }
    }
    i += shift[pair];
    if (--budget < 0) return i <= end ? i : -1;
  }
  return -1;
}
