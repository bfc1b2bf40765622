/**
 * A line diff of pane B's text against pane A's (npm `diff`), as a unified view: unchanged
 * lines plain, A's lines struck out, B's lines added.
 *
 * @module
 */

import type { JSX } from "preact";
import { diffLines } from "diff";

/** Props of {@linkcode LineDiff}. */
export interface LineDiffProps {
  /** Pane A's model-facing text. */
  a: string | undefined;
  /** Pane B's model-facing text. */
  b: string | undefined;
  /** Show spaces and tabs as marks. */
  showWhitespace: boolean;
  /** Wrap long lines. */
  wrap: boolean;
}

function marks(text: string): string {
  return text.replaceAll(" ", "·").replaceAll("\t", "→");
}

/**
 * Renders the diff, or says what is missing.
 *
 * @param props Both texts and display options.
 * @returns The diff block.
 */
export function LineDiff(props: LineDiffProps): JSX.Element {
  const { a, b, showWhitespace, wrap } = props;
  if (a === undefined || b === undefined) {
    return (
      <div class="line-diff card muted pad" data-testid="line-diff">
        Run calls into A and B to see B's text against A's, line by line.
      </div>
    );
  }
  const changes = diffLines(a, b);
  let added = 0;
  let removed = 0;
  const rows: JSX.Element[] = [];
  for (const change of changes) {
    const lines = change.value.replace(/\n$/, "").split("\n");
    const kind = change.added ? "add" : change.removed ? "del" : "same";
    if (change.added) added += lines.length;
    if (change.removed) removed += lines.length;
    for (const line of lines) {
      rows.push(
        <span class={`diff-line ${kind}`} data-kind={kind} key={rows.length}>
          <span class="diff-sign">{kind === "add" ? "+" : kind === "del" ? "-" : " "}</span>
          {showWhitespace ? marks(line) : line}
          {"\n"}
        </span>,
      );
    }
  }
  return (
    <section class="line-diff card" data-testid="line-diff" aria-label="line diff of B against A">
      <header class="pane-head">
        <strong>Line diff</strong>
        <span class="muted">B against A</span>
        <span class="chip diff-add" data-testid="diff-added">+{added}</span>
        <span class="chip diff-del" data-testid="diff-removed">-{removed}</span>
        {added === 0 && removed === 0 ? <span class="muted">identical</span> : null}
      </header>
      <pre class={`output diff${wrap ? " wrap" : ""}`}>{rows}</pre>
    </section>
  );
}
