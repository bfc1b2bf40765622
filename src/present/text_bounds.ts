// How long the texts of a `write` or `edit` value (C6) can be, known from byte counts: an MCP
// result judges whether to carry them (C13.1) without decoding a large file. Pure.

/** The key of a value's bounds; not enumerable, so never serialized or spread. */
export const TEXT_BOUNDS: unique symbol = Symbol("toolfs.textBounds");

/** Bounds on `before.length + after.length`, in UTF-16 code units. */
export interface TextBounds {
  min: number;
  max: number;
}

/**
 * The bounds of texts decoded from UTF-8 byte counts (BOM dropped, invalid bytes as U+FFFD),
 * plus texts already known: a byte decodes to at most one code unit, and every three bytes to
 * at least one, but for a dropped BOM (a four-byte character gives two units, a three-byte one
 * or a maximal invalid subpart one).
 *
 * @param bytes The byte lengths still to be decoded.
 * @param known The code units already known (a text given as a string).
 */
export function textBounds(bytes: readonly number[], known = 0): TextBounds {
  let min = known;
  let max = known;
  for (const n of bytes) {
    max += n;
    min += Math.max(0, Math.ceil((n - 3) / 3));
  }
  return { min, max };
}

/** Attaches `bounds` to a value (non-enumerable). */
export function withBounds<T extends object>(value: T, bounds: TextBounds): T {
  return Object.defineProperty(value, TEXT_BOUNDS, { value: bounds, enumerable: false });
}

/** A value's bounds, when it has them. */
export function boundsOf(value: object): TextBounds | undefined {
  return (value as { [TEXT_BOUNDS]?: TextBounds })[TEXT_BOUNDS];
}
