// Whether bytes look binary to `read` and `edit` (CONTRACT C4.2): the head's rule. Pure.

/**
 * Whether the first 8 KiB hold a NUL byte (C4.2), or the file starts with a UTF-16 byte order
 * mark (`FF FE` or `FE FF`, never the start of UTF-8 text): UTF-16 is reported as binary rather
 * than decoded into replacement characters, even when its text has no NUL byte (CJK, say).
 */
export function looksBinary(head: Uint8Array): boolean {
  if (
    head.length >= 2 &&
    ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))
  ) {
    return true;
  }
  return head.subarray(0, 8192).includes(0);
}
