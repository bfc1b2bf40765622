// Counting and finding line feeds in bytes, word at a time. Pure.

const LF = 0x0a;

/**
 * Counts `\n` bytes in `bytes[start..end)`. Works on 32-bit words (SWAR): each word is XORed
 * with `0x0a0a0a0a` so line feeds become zero bytes, and an exact zero-byte mask (no false
 * positives from borrows) is summed lane-wise, 255 words at a time.
 */
export function countNewlines(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let count = 0;
  let i = start;
  // Scalar head up to a 4-byte boundary of the underlying buffer.
  while (i < end && ((bytes.byteOffset + i) & 3) !== 0) {
    if (bytes[i++] === LF) count++;
  }
  const words = (end - i) >>> 2;
  if (words > 0) {
    const view = new Int32Array(bytes.buffer, bytes.byteOffset + i, words);
    let w = 0;
    while (w < words) {
      const stop = Math.min(words, w + 255);
      let acc = 0;
      for (; w + 1 < stop; w += 2) {
        const x0 = view[w] ^ 0x0a0a0a0a;
        const x1 = view[w + 1] ^ 0x0a0a0a0a;
        const y0 = ~(((x0 & 0x7f7f7f7f) + 0x7f7f7f7f) | x0 | 0x7f7f7f7f);
        const y1 = ~(((x1 & 0x7f7f7f7f) + 0x7f7f7f7f) | x1 | 0x7f7f7f7f);
        acc += (y0 >>> 7) + (y1 >>> 7);
      }
      if (w < stop) {
        const x = view[w++] ^ 0x0a0a0a0a;
        acc += ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f) >>> 7;
      }
      count += (acc & 0xff) + ((acc >>> 8) & 0xff) + ((acc >>> 16) & 0xff) + (acc >>> 24);
    }
    i += words << 2;
  }
  while (i < end) {
    if (bytes[i++] === LF) count++;
  }
  return count;
}

/**
 * Passes `n` line feeds of `bytes[start..end)`: the index just past the `n`-th, or, when there
 * are only `count < n`, `-1 - count`. Counts 4 KiB blocks word at a time and walks only the
 * block holding the `n`-th line feed.
 */
export function skipNewlines(bytes: Uint8Array, n: number, start = 0, end = bytes.length): number {
  const BLOCK = 4096;
  let i = start;
  let left = n;
  while (end - i > BLOCK) {
    const here = countNewlines(bytes, i, i + BLOCK);
    if (here >= left) break;
    left -= here;
    i += BLOCK;
  }
  for (; left > 0; left--) {
    const at = bytes.indexOf(LF, i);
    if (at < 0 || at >= end) return -1 - (n - left);
    i = at + 1;
  }
  return i;
}

/** The index of the first byte of `bytes[start..end)` that is 0x80 or above, else `end`. */
export function firstNonAscii(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let i = start;
  while (i < end && ((bytes.byteOffset + i) & 3) !== 0) {
    if (bytes[i] & 0x80) return i;
    i++;
  }
  const words = i < end ? (end - i) >>> 2 : 0;
  if (words > 0) {
    const view = new Int32Array(bytes.buffer, bytes.byteOffset + i, words);
    let w = 0;
    while (w < words) {
      const stop = Math.min(words, w + 64);
      let any = 0;
      for (let v = w; v < stop; v++) any |= view[v];
      if (any & 0x80808080) break; // in these words: find it byte by byte below
      w = stop;
    }
    i += w << 2;
  }
  for (; i < end; i++) if (bytes[i] & 0x80) return i;
  return end;
}

/** Whether every byte of `bytes[start..end)` is below 0x80. */
export function isAscii(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
  return firstNonAscii(bytes, start, end) === end;
}
