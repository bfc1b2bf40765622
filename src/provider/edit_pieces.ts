/**
 * What an edit function (`FsEditFunction`) returns, checked the same way by every provider.
 * Pure: no I/O.
 *
 * @module
 */

/**
 * The slices an edit function returned (`FsEditFunction`), checked: one buffer, or an array of
 * buffers.
 *
 * @param after What the edit function returned.
 * @returns The slices, in order.
 * @throws {TypeError} For anything else.
 */
export function editPieces(after: Uint8Array | readonly Uint8Array[]): readonly Uint8Array[] {
  if (after instanceof Uint8Array) return [after];
  if (Array.isArray(after) && after.every((piece) => piece instanceof Uint8Array)) {
    return Object.freeze([...after]);
  }
  throw new TypeError("an edit function must return a Uint8Array or an array of Uint8Arrays");
}
