/**
 * The exact model-facing text. Styling only: with whitespace markers off, the element's text is
 * byte for byte the tool's `content`.
 *
 * @module
 */

import type { JSX } from "preact";
import { footerIndex } from "./measures.ts";

export { footerIndex };

/** Props of {@linkcode OutputView}. */
export interface OutputViewProps {
  /** The model-facing text. */
  content: string;
  /** Whether the call failed. */
  isError: boolean;
  /** The tool that produced it (a `read` gets its line numbers dimmed). */
  tool: string;
  /** Show spaces, tabs and line ends as visible marks. */
  showWhitespace: boolean;
  /** Wrap long lines instead of scrolling. */
  wrap: boolean;
}

const EOL_MARK = "↵\n";

type LineKind = "tag" | "footer" | "numbered" | "error" | "plain";

const WHITESPACE = /([ \t\r\u00a0\u200b\u200c\u200d\ufeff])/;
const MARKS: Record<string, string> = {
  " ": "·",
  "\t": "→\t",
  "\r": "␍",
  "\u00a0": "⍽",
  "\u200b": "⟨ZWSP⟩",
  "\u200c": "⟨ZWNJ⟩",
  "\u200d": "⟨ZWJ⟩",
  "\ufeff": "⟨BOM⟩",
};

function classify(lines: readonly string[], isError: boolean, tool: string): LineKind[] {
  if (isError) return lines.map(() => "error");
  const footer = footerIndex(lines);
  const open = lines.indexOf("<content>");
  return lines.map((line, i) => {
    if (i === footer) return "footer";
    if (/^<\/?(path|type|content)>/.test(line) && (i <= open || i === lines.length - 1)) {
      return "tag";
    }
    if (tool === "read" && open >= 0 && i > open && (footer < 0 || i < footer - 1)) {
      return "numbered";
    }
    return "plain";
  });
}

function marked(text: string): (string | JSX.Element)[] {
  return text.split(WHITESPACE).map((part, i) =>
    i % 2 === 1 ? <span class="ws" key={i}>{MARKS[part] ?? part}</span> : part
  );
}

/**
 * Renders the text in a monospace block with the footer highlighted.
 *
 * @param props The text and display options.
 * @returns The `<pre>` element.
 */
export function OutputView(props: OutputViewProps): JSX.Element {
  const { content, isError, tool, showWhitespace, wrap } = props;
  const lines = content.split("\n");
  const kinds = classify(lines, isError, tool);
  const last = lines.length - 1;
  return (
    <pre
      class={`output${wrap ? " wrap" : ""}${isError ? " is-error" : ""}`}
      data-testid="output"
      tabIndex={0}
    >
      {lines.map((line, i) => {
        let body: (string | JSX.Element)[] | string = showWhitespace ? marked(line) : line;
        if (kinds[i] === "numbered") {
          const prefix = /^\d+: /.exec(line)?.[0] ?? "";
          const rest = line.slice(prefix.length);
          body = [
            <span class="ln" key="n">{prefix}</span>,
            ...(showWhitespace ? marked(rest) : [rest]),
          ];
        }
        return (
          <span key={i} class={`line ${kinds[i]}`}>
            {body}
            {i < last ? (showWhitespace ? <span class="ws eol">{EOL_MARK}</span> : "\n") : null}
          </span>
        );
      })}
    </pre>
  );
}
