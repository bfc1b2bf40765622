/**
 * The literals of a `grep` pattern (CONTRACT C11) and their search in bytes: what every matching
 * line must contain, so blocks without it are skipped undecoded. Pure: no I/O.
 *
 * @module
 */

const LITERAL_CHAR = /[A-Za-z0-9_ \-:;,'"<>=\/#%&~`@!]/;

/**
 * The longest literal every match of a pattern contains, when one can be told by a simple
 * reading: no alternation, no flags, only top-level runs of plain or escaped punctuation
 * characters not made optional by a quantifier. `null` otherwise (then no prefilter applies).
 *
 * @param pattern The pattern, in RE2 syntax.
 * @returns The literal (at least 3 characters), or `null`.
 */
export function requiredLiteral(pattern: string): string | null {
  const runs = literalRuns(pattern);
  if (runs === null) return null;
  let best = "";
  for (const run of runs) if (run.length > best.length) best = run;
  return best.length >= 3 ? best : null;
}

/**
 * Every literal of at least 3 characters that every match of a pattern contains (read as
 * {@linkcode requiredLiteral} reads), the rarest-looking first: the one whose rarest byte is
 * rarest in source text, then the longest.
 *
 * @param pattern The pattern, in RE2 syntax.
 * @returns The literals (none when no simple reading applies).
 */
export function requiredLiterals(pattern: string): string[] {
  const runs = (literalRuns(pattern) ?? []).filter((r) => r.length >= 3);
  const score = (run: string) => {
    let best = 0;
    for (let i = 0; i < run.length; i++) best = Math.max(best, rarity(run.charCodeAt(i)));
    return best;
  };
  return [...new Set(runs)].sort((a, b) => score(b) - score(a) || b.length - a.length);
}

/** The top-level literal runs of a pattern, or `null` when it cannot be read simply. */
function literalRuns(pattern: string): string[] | null {
  if (pattern.includes("|") || pattern.includes("(?")) return null;
  const runs: string[] = [];
  let run = "";
  let depth = 0;
  const end = () => {
    if (run !== "") runs.push(run);
    run = "";
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    let lit: string | null = null;
    let next = i + 1;
    if (c === "\\") {
      const e = pattern[i + 1];
      if (e !== undefined && /[.+*?()|[\]{}^$\\\/\-]/.test(e)) lit = e;
      else if (e === undefined || !/[dDwWsSbBAz]/.test(e)) return null; // \x41, \pL, \Q…: bail
      else end();
      next = i + 2;
    } else if (c === "{") {
      end();
      while (i < pattern.length && pattern[i] !== "}") i++;
      continue;
    } else if (depth === 0 && LITERAL_CHAR.test(c)) {
      lit = c;
    } else if (c === "(") {
      end();
      depth++;
    } else if (c === ")") {
      end();
      depth = Math.max(0, depth - 1);
    } else if (c === "[") {
      end();
      // Skip the class: `]` right after `[` or `[^` is part of it.
      let j = i + 1;
      if (pattern[j] === "^") j++;
      if (pattern[j] === "]") j++;
      while (j < pattern.length && pattern[j] !== "]") j += pattern[j] === "\\" ? 2 : 1;
      i = j;
      continue;
    } else {
      end();
    }
    if (lit !== null && depth === 0) {
      const q = pattern[next];
      if (q === "?" || q === "*" || q === "{") end();
      else run += lit;
    } else if (lit !== null) {
      end();
    }
    i = next - 1;
  }
  end();
  return runs;
}

/**
 * Whether `bytes` contain `needle` (a native search).
 *
 * @param bytes The haystack.
 * @param needle The bytes to find.
 * @returns `true` when found.
 */
export function containsBytes(bytes: Uint8Array, needle: Uint8Array): boolean {
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
export function indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from: number): number {
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

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

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

/** Each needle's rarest-looking byte pair's index, worked out once. */
const pairs = new WeakMap<Uint8Array, number>();

/** Each needle's rarest-looking byte's index, worked out once. */
const pivots = new WeakMap<Uint8Array, number>();

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
