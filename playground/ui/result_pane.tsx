/**
 * One result pane (A or B): the exact text, its sizes, the structured value and the ACP card.
 *
 * @module
 */

import type { JSX } from "preact";
import type { ExecuteRequest, ExecuteResponse, ToolsConfig } from "./api.ts";
import { OutputView } from "./output_view.tsx";
import { pinnedFooter } from "./measures.ts";
import { AttachmentsView } from "./attachments_view.tsx";
import type { PaneState } from "./state.ts";

export type { PaneState };

/** Props of {@linkcode ResultPane}. */
export interface ResultPaneProps {
  /** `A` or `B`. */
  label: "A" | "B";
  /** The pane's call and result. */
  state: PaneState | undefined;
  /** Whether a call is running into this pane. */
  running: boolean;
  /** The library defaults, to show which caps were overridden. */
  defaults: ToolsConfig;
  /** Show whitespace marks. */
  showWhitespace: boolean;
  /** Wrap long lines. */
  wrap: boolean;
  /** Loads the pane's call back into the editor. */
  onLoad: (request: ExecuteRequest) => void;
  /** Copies the pane's call as a CLI line. */
  onCopyCli?: (request: ExecuteRequest) => void;
}

const number = new Intl.NumberFormat("en-US");

/**
 * Renders a pane.
 *
 * @param props The pane's state and display options.
 * @returns The pane.
 */
export function ResultPane(props: ResultPaneProps): JSX.Element {
  const { label, state, running, defaults, showWhitespace, wrap, onLoad, onCopyCli } = props;
  const response = state?.response;
  const testid = `pane-${label.toLowerCase()}`;
  if (!state) {
    return (
      <section class="pane empty" data-testid={testid} aria-label={`pane ${label}`}>
        <header class="pane-head">
          <span class="pane-label">{label}</span>
          <span class="muted">{running ? "Running…" : "No call yet"}</span>
        </header>
        <div class="pane-empty muted">
          Run a call into {label} with{" "}
          <kbd>{label === "A" ? "Ctrl/⌘ + Enter" : "Ctrl/⌘ + Shift + Enter"}</kbd>.
        </div>
      </section>
    );
  }
  const overrides = Object.keys(defaults).filter((k) =>
    response && response.config[k] !== defaults[k]
  );
  const tokenizers = Object.keys(response?.tokens ?? {});
  return (
    <section
      class={`pane${running ? " running" : ""}`}
      data-testid={testid}
      aria-label={`pane ${label}`}
    >
      <header class="pane-head">
        <span class="pane-label">{label}</span>
        <span class="pane-title" title={response?.presentation.title}>
          {response?.presentation.title ?? state.request.tool}
        </span>
        {response
          ? (
            <span
              class={`status ${response.isError ? "bad" : "ok"}`}
              data-testid="status"
            >
              {response.isError ? response.error?.code ?? "error" : "ok"}
            </span>
          )
          : null}
        <span class="spacer" />
        {response ? <span class="ms" data-testid="ms">{response.ms} ms</span> : null}
        <button
          type="button"
          class="small"
          title="Load this call into the editor"
          onClick={() => onLoad(state.request)}
        >
          Edit call
        </button>
        {onCopyCli
          ? (
            <button
              type="button"
              class="small"
              data-testid="copy-cli"
              title="Copy this call as a command line (the CLI from JSR)"
              onClick={() => onCopyCli(state.request)}
            >
              CLI
            </button>
          )
          : null}
      </header>
      {state.error
        ? <div class="request-error" data-testid="request-error">{state.error}</div>
        : null}
      {response
        ? (
          <>
            <div class="chips">
              {overrides.map((k) => (
                <span class="chip" key={k}>
                  {k}={String(response.config[k])}
                </span>
              ))}
              {response.policy ? null : <span class="chip">read-before-write off</span>}
              <span class="chip muted">session {response.session.id}</span>
            </div>
            <div class="metrics">
              {tokenizers.map((t) => (
                <div class="metric primary" key={t}>
                  <span
                    class="value"
                    data-testid={`tokens-${t}`}
                    title={response.tokensEstimated
                      ? "extrapolated from the first 1 Mi characters"
                      : undefined}
                  >
                    {response.tokensEstimated ? "≈" : ""}
                    {number.format(response.tokens[t])}
                  </span>
                  <span class="label">{t} tokens</span>
                </div>
              ))}
              <div class="metric">
                <span class="value" data-testid="bytes">{number.format(response.bytes)}</span>
                <span class="label">bytes</span>
              </div>
              <div class="metric">
                <span class="value" data-testid="chars">{number.format(response.chars)}</span>
                <span class="label">chars</span>
              </div>
              <div class="metric">
                <span class="value" data-testid="lines">{number.format(response.lines)}</span>
                <span class="label">lines</span>
              </div>
            </div>
            <PinnedFooter content={response.content} isError={response.isError} />
            <OutputView
              content={response.content}
              isError={response.isError}
              tool={state.request.tool}
              showWhitespace={showWhitespace}
              wrap={wrap || response.isError}
            />
            {response.attachments?.length
              ? <AttachmentsView attachments={response.attachments} value={response.value} />
              : null}
            <AcpCard response={response} />
            <details class="section">
              <summary>
                Structured value{" "}
                <span class="muted">
                  {response.value === undefined ? "(none: error result)" : "result.value"}
                </span>
              </summary>
              <pre class="json">{JSON.stringify(response.value ?? response.error, null, 2)}</pre>
            </details>
            <details class="section">
              <summary>
                Call <span class="muted">as sent</span>
              </summary>
              <pre class="json">{JSON.stringify(state.request, null, 2)}</pre>
            </details>
          </>
        )
        : null}
    </section>
  );
}

/** The footer of a long result, shown before its text (it stays in the text too). */
function PinnedFooter(props: { content: string; isError: boolean }): JSX.Element | null {
  const footer = pinnedFooter(props.content, props.isError);
  if (footer === undefined) return null;
  return (
    <div
      class="footer-pin"
      data-testid="footer-pin"
      title="The text's footer line, shown first for a long result; it is also in the text below"
    >
      <span class="footer-pin-label">footer</span>
      <code>{footer}</code>
    </div>
  );
}

function AcpCard(props: { response: ExecuteResponse }): JSX.Element {
  const p = props.response.presentation;
  const raw = p.rawInput && Object.keys(p.rawInput).length ? p.rawInput : undefined;
  return (
    <div class="acp" data-testid="acp-card">
      <div class="acp-head">
        <span class="acp-caption">ACP tool_call</span>
        <span class={`kind kind-${p.kind}`}>{p.kind}</span>
        <span class="acp-title">{p.title}</span>
        <span class={`acp-status ${props.response.isError ? "bad" : "ok"}`}>
          {props.response.isError ? "failed" : "completed"}
        </span>
      </div>
      {p.locations?.length
        ? (
          <ul class="acp-locations">
            {p.locations.map((l) => (
              <li key={`${l.path}:${l.line ?? ""}`} class="mono">
                {l.path}
                {l.line !== undefined ? <span class="muted">:{l.line}</span> : null}
              </li>
            ))}
          </ul>
        )
        : null}
      {raw ? <pre class="json small">{JSON.stringify(raw, null, 2)}</pre> : null}
    </div>
  );
}
