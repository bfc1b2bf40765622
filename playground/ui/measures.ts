/**
 * What the panes measure and point out, as pure functions the tests import without a browser:
 * an image's Anthropic token estimate, and the footer line of a result.
 *
 * @module
 */

/** The long edge Anthropic scales an image down to (pixels). */
export const ANTHROPIC_MAX_EDGE = 1568;
/**
 * The most pixels Anthropic keeps of an image: "~1,600 tokens" × 750 px a token, the docs'
 * "about 1.15 megapixels" (their 1:1 maximum, 1092×1092 px, is 1.19 MP).
 */
export const ANTHROPIC_MAX_PIXELS = 1600 * 750;

/**
 * Anthropic's published estimate of an image's input tokens, tokens ≈ width × height / 750,
 * counted after the image is scaled down (aspect ratio kept) until its long edge is at most
 * 1568 px *and* it is at most ~1,600 tokens (~1.15 megapixels). Both bounds apply: a 1280×1280
 * image is within the edge but over the pixel bound, so it costs ~1,600 tokens, not ~2,185.
 *
 * Source: Anthropic, "Vision", section "Evaluate image size"
 * (https://docs.anthropic.com/en/docs/build-with-claude/vision#evaluate-image-size): "If your
 * image's long edge is more than 1568 pixels, or your image is more than ~1,600 tokens, it will
 * first be scaled down, preserving aspect ratio, until it's within the size limits", with
 * "tokens = (width px * height px)/750" and the largest unscaled sizes per aspect ratio
 * (1:1 1092×1092 px, 1:2 784×1568 px). Models with a larger limit (Claude Opus 4.7: 2576 px)
 * cost more; this is the documented ceiling of the others.
 *
 * @param width Width in pixels.
 * @param height Height in pixels.
 * @returns The estimated tokens, rounded up.
 */
export function anthropicImageTokens(width: number, height: number): number {
  const scale = Math.min(
    1,
    ANTHROPIC_MAX_EDGE / Math.max(width, height),
    Math.sqrt(ANTHROPIC_MAX_PIXELS / (width * height)),
  );
  const w = Math.max(1, Math.floor(width * scale));
  const h = Math.max(1, Math.floor(height * scale));
  return Math.ceil((w * h) / 750);
}

/**
 * Finds the footer: the line between a blank line and the closing `</content>` tag.
 *
 * @param lines The text's lines.
 * @returns The footer's index, or -1.
 */
export function footerIndex(lines: readonly string[]): number {
  const n = lines.length;
  if (n >= 3 && lines[n - 1] === "</content>" && lines[n - 3] === "" && lines[n - 2] !== "") {
    return n - 2;
  }
  return -1;
}

/** Results longer than this many lines show their footer first, above the text (issue 34.9). */
export const PIN_FOOTER_LINES = 30;

/**
 * The footer line of a long result (the line a prompt author came to see, which sits below the
 * fold there), or `undefined` for a short one, an error or a text without a footer.
 *
 * @param content The model-facing text.
 * @param isError Whether the call failed.
 * @returns The footer, or `undefined`.
 */
export function pinnedFooter(content: string, isError: boolean): string | undefined {
  if (isError) return undefined;
  const lines = content.split("\n");
  if (lines.length <= PIN_FOOTER_LINES) return undefined;
  const i = footerIndex(lines);
  return i < 0 ? undefined : lines[i];
}
