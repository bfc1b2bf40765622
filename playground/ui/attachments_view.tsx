/**
 * The media a result carries after its text (CONTRACT C17.3): each image as the model gets it,
 * with its dimensions and an estimate of what it costs in tokens.
 *
 * @module
 */

import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { ExecuteResponse } from "./api.ts";

/** Props of {@linkcode AttachmentsView}. */
export interface AttachmentsViewProps {
  /** The result's attachments. */
  attachments: NonNullable<ExecuteResponse["attachments"]>;
  /** The result's value, whose `image` names the dimensions when the read gave them. */
  value: unknown;
}

const number = new Intl.NumberFormat("en-US");

/**
 * Anthropic's published estimate of an image's input tokens: width × height / 750, after an image
 * whose long edge exceeds 1568 px is scaled down to it.
 *
 * @param width Width in pixels.
 * @param height Height in pixels.
 * @returns The estimated tokens, rounded up.
 */
export function anthropicImageTokens(width: number, height: number): number {
  const scale = Math.min(1, 1568 / Math.max(width, height));
  return Math.ceil((Math.round(width * scale) * Math.round(height * scale)) / 750);
}

/**
 * Renders the attachments.
 *
 * @param props The attachments and the result's value.
 * @returns The images, each with its caption.
 */
export function AttachmentsView(props: AttachmentsViewProps): JSX.Element {
  const known = (props.value as { image?: { width: number; height: number } } | undefined)?.image;
  return (
    <div class="attachments" data-testid="attachments">
      {props.attachments.map((a, i) => <AttachedImage key={i} attachment={a} known={known} />)}
    </div>
  );
}

function AttachedImage(props: {
  attachment: AttachmentsViewProps["attachments"][number];
  known?: { width: number; height: number };
}): JSX.Element {
  const [loaded, setLoaded] = useState<{ width: number; height: number }>();
  const size = props.known ?? loaded;
  const { mimeType, data } = props.attachment;
  return (
    <figure class="attachment">
      <img
        src={`data:${mimeType};base64,${data}`}
        alt={`attachment: ${mimeType}`}
        data-testid="attachment-image"
        onLoad={(e) =>
          setLoaded({
            width: e.currentTarget.naturalWidth,
            height: e.currentTarget.naturalHeight,
          })}
      />
      <figcaption>
        <span class="mono">{mimeType}</span>
        {size
          ? (
            <>
              {" "}
              {size.width}×{size.height} ·{" "}
              <span data-testid="image-tokens">
                ≈ {number.format(anthropicImageTokens(size.width, size.height))} tokens
              </span>{" "}
              <span class="muted">(Anthropic estimate: width × height / 750)</span>
            </>
          )
          : null}
      </figcaption>
    </figure>
  );
}
