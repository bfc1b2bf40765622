/**
 * The Session view: the calls in order with per-call and cumulative tokens, a chart of them
 * (plain SVG), replay, and exports (a CLI script, a golden-test file, one call as a CLI line).
 *
 * @module
 */

import type { JSX } from "preact";
import { useState } from "preact/hooks";
import {
  cliLine,
  cliScript,
  goldenTest,
  type HistoryEntry,
  type SharedCall,
  tokenSeries,
} from "./session_log.ts";

export { EXAMPLE_SESSION } from "./session_log.ts";

/** Props of {@linkcode HistoryView}. */
export interface HistoryViewProps {
  /** The calls in order. */
  history: readonly HistoryEntry[];
  /** The tokenizers counted (the first is charted unless another is picked). */
  tokenizers: readonly string[];
  /** Whether the history started on a freshly reset workspace. */
  fromReset: boolean;
  /** `fixtures` or `directory`. */
  kind: "fixtures" | "directory";
  /** How the last replay compared with the recorded results. */
  replayReport?: string;
  /** Replays the history (after a reset where the workspace allows it). */
  onReplay: () => void;
  /** Runs the five-call example session from a reset workspace. */
  onExample: () => void;
  /** Loads a call into the editor. */
  onLoad: (call: SharedCall) => void;
  /** Copies a text and says what it was. */
  onCopy: (text: string, what: string) => void;
  /** Whether a call is running. */
  busy: boolean;
}

const number = new Intl.NumberFormat("en-US");

/**
 * Renders the Session view.
 *
 * @param props The history and handlers.
 * @returns The view.
 */
export function HistoryView(props: HistoryViewProps): JSX.Element {
  const { history, tokenizers, fromReset, kind, replayReport, busy } = props;
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const tokenizer = picked && tokenizers.includes(picked) ? picked : tokenizers[0] ?? "";
  const { perCall, cumulative } = tokenSeries(history, tokenizer);
  const total = cumulative.at(-1) ?? 0;
  return (
    <section class="history card pad" data-testid="history" aria-label="session history">
      <div class="history-head">
        <h2>Session</h2>
        <span class="muted" data-testid="history-summary">
          {history.length} call{history.length === 1 ? "" : "s"}, <b>{number.format(total)}</b>{" "}
          {tokenizer} tokens of results in context
          {fromReset ? ", from a freshly reset workspace" : ""}
        </span>
        <span class="spacer" />
        {tokenizers.length > 1
          ? (
            <select
              aria-label="tokenizer charted"
              value={tokenizer}
              onChange={(e) => setPicked(e.currentTarget.value)}
            >
              {tokenizers.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          )
          : null}
        <button
          type="button"
          class="small"
          data-testid="history-example"
          disabled={busy || kind !== "fixtures"}
          title={kind === "fixtures" ? "" : "needs the fixture workspace"}
          onClick={props.onExample}
        >
          Example: read → edit → read
        </button>
        <button
          type="button"
          class="small"
          data-testid="history-replay"
          disabled={busy || history.length === 0}
          onClick={props.onReplay}
        >
          {kind === "fixtures" ? "Reset and replay" : "Replay"}
        </button>
      </div>
      {replayReport
        ? <p class="replay-report" data-testid="replay-report">{replayReport}</p>
        : null}
      {history.length === 0
        ? (
          <p class="muted">
            Every call you run (into A or B) is recorded here in order, with its tokens; the chart
            shows how the context grows.
          </p>
        )
        : (
          <>
            <TokenChart perCall={perCall} cumulative={cumulative} history={history} />
            <table class="cost-table history-table" data-testid="history-table">
              <thead>
                <tr>
                  <th>#</th>
                  <th>call</th>
                  <th>pane</th>
                  <th>result</th>
                  <th class="num">tokens</th>
                  <th class="num">cumulative</th>
                  <th>export</th>
                </tr>
              </thead>
              <tbody>
                {history.map((e, i) => (
                  <tr key={i} data-testid="history-row">
                    <td class="num">{i + 1}</td>
                    <td class="mono history-call">
                      <button type="button" class="link mono" onClick={() => props.onLoad(e.call)}>
                        {e.call.tool} {JSON.stringify(e.call.args ?? {})}
                      </button>
                    </td>
                    <td>{e.pane}</td>
                    <td>
                      <span class={`status ${e.isError ? "bad" : "ok"}`}>
                        {e.isError ? e.code ?? "error" : "ok"}
                      </span>
                    </td>
                    <td class="num" data-testid="history-tokens">{number.format(perCall[i])}</td>
                    <td class="num" data-testid="history-cumulative">
                      {number.format(cumulative[i])}
                    </td>
                    <td>
                      <button
                        type="button"
                        class="small"
                        onClick={() => props.onCopy(cliLine(e.call), "CLI line")}
                      >
                        CLI
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div class="history-exports">
              <button
                type="button"
                class="small"
                data-testid="export-cli-script"
                onClick={() => props.onCopy(cliScript(history), "CLI script")}
              >
                Copy as CLI script
              </button>
              <a
                class="button small"
                data-testid="export-golden"
                download="playground_session_test.ts"
                href={`data:text/typescript;charset=utf-8,${
                  encodeURIComponent(goldenTest(history))
                }`}
              >
                Download golden test
              </a>
              <span class="muted">
                The script and the test start from a copy of <code>playground/fixtures/</code>.
              </span>
            </div>
          </>
        )}
    </section>
  );
}

/**
 * Bars of tokens per call and a line of the cumulative total, in plain SVG.
 *
 * @param props The series and the calls (for labels).
 * @returns The chart.
 */
export function TokenChart(props: {
  perCall: readonly number[];
  cumulative: readonly number[];
  history: readonly HistoryEntry[];
}): JSX.Element {
  const { perCall, cumulative, history } = props;
  const width = 760;
  const height = 220;
  const left = 56;
  const right = 56;
  const top = 24;
  const bottom = 34;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const maxBar = Math.max(1, ...perCall);
  const maxLine = Math.max(1, ...cumulative);
  const step = plotW / Math.max(1, perCall.length);
  const barW = Math.max(4, Math.min(48, step * 0.6));
  const x = (i: number) => left + step * i + step / 2;
  const yBar = (n: number) => top + plotH - (n / maxBar) * plotH;
  const yLine = (n: number) => top + plotH - (n / maxLine) * plotH;
  const points = cumulative.map((n, i) => `${x(i).toFixed(1)},${yLine(n).toFixed(1)}`).join(" ");
  return (
    <svg
      class="token-chart"
      data-testid="token-chart"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label="tokens per call (bars) and cumulative (line)"
    >
      <line class="axis" x1={left} y1={top + plotH} x2={width - right} y2={top + plotH} />
      <text class="axis-label" x={left - 6} y={top + 4} text-anchor="end">
        {number.format(maxBar)}
      </text>
      <text class="axis-label" x={left - 6} y={top + plotH} text-anchor="end">0</text>
      <text class="axis-label cum" x={width - right + 6} y={top + 4}>
        {number.format(maxLine)}
      </text>
      {perCall.map((n, i) => (
        <g key={i} data-testid="chart-bar">
          <rect
            class={history[i]?.isError ? "bar bad" : "bar"}
            x={x(i) - barW / 2}
            y={yBar(n)}
            width={barW}
            height={top + plotH - yBar(n)}
          >
            <title>
              {`${i + 1}. ${history[i]?.call.tool}: ${n} tokens, ${cumulative[i]} in all`}
            </title>
          </rect>
          <text class="axis-label" x={x(i)} y={top + plotH + 14} text-anchor="middle">
            {i + 1}
          </text>
          <text class="axis-label tool" x={x(i)} y={top + plotH + 27} text-anchor="middle">
            {history[i]?.call.tool}
          </text>
        </g>
      ))}
      <polyline class="cum-line" points={points} />
      {cumulative.map((n, i) => (
        <circle key={i} class="cum-dot" cx={x(i)} cy={yLine(n)} r={3}>
          <title>{`after ${i + 1}: ${n}`}</title>
        </circle>
      ))}
      <g class="legend">
        <rect class="bar" x={left} y={3} width={10} height={8} />
        <text class="axis-label" x={left + 14} y={11}>tokens per call (left axis)</text>
        <line class="cum-line" x1={left + 170} y1={7} x2={left + 190} y2={7} />
        <text class="axis-label" x={left + 196} y={11}>cumulative (right axis)</text>
      </g>
    </svg>
  );
}
