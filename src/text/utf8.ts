// UTF-8 lengths of JavaScript strings without encoding them. Pure.

/**
 * The number of UTF-8 bytes of a string (lone surrogates count as U+FFFD, three bytes).
 *
 * @param text The string.
 * @returns Its UTF-8 length.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // four bytes for two units
        i++;
        continue;
      }
      bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}
