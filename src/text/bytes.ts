// Byte buffers joined into one. Pure.

/**
 * The parts, in order, as one new buffer (never one of the parts itself).
 *
 * @param parts The buffers.
 * @returns Their bytes joined.
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
