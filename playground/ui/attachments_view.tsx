/**
 * The media a result carries after its text (CONTRACT C17.3): each image as the model gets it,
 * with its dimensions and an estimate of what it costs in tokens.
 *
 * @module
 */

import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { ExecuteResponse } from "./api.ts";
import { anthropicImageTokens } from "./measures.ts";

export { anthropicImageTokens };

/** Props of {@linkcode AttachmentsView}. */
export interface AttachmentsViewProps {
  /** The result's attachments. */
  attachments: NonNullable<ExecuteResponse["attachments"]>;
  /** The result's value, whose `image` names the dimensions when the read gave them. */
  value: unknown;
}

const number = new Intl.NumberFormat("en-US");

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
              <span class="muted">
                (Anthropic estimate: width × height / 750 after scaling to 1568 px and ~1.15 MP)
              </span>
            </>
          )
          : null}
      </figcaption>
    </figure>
  );
}
