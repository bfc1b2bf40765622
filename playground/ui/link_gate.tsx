/**
 * What a shared link would do, before it does it: a link whose calls change files waits for a
 * click (a link never writes on open), and a link opened without the playground's token explains
 * how to run the playground locally instead of showing a bare error.
 *
 * @module
 */

import type { JSX } from "preact";
import { isMutation, type SharedEntry } from "./session_log.ts";

/** Props of {@linkcode LinkGate}. */
export interface LinkGateProps {
  /** The link's calls, in order. */
  entries: readonly SharedEntry[];
  /** Whether the author's history started on a freshly reset workspace. */
  fromReset: boolean;
  /** `fixtures` (resettable) or `directory` (the user's own: writes are real, no reset). */
  kind: "fixtures" | "directory";
  /** Replays the calls; `reset` restores the fixture workspace first. */
  onReplay: (reset: boolean) => void;
  /** Closes the banner without running anything. */
  onDismiss: () => void;
}

/**
 * The banner listing a link's calls with the buttons that run them.
 *
 * @param props The calls and handlers.
 * @returns The banner.
 */
export function LinkGate(props: LinkGateProps): JSX.Element {
  const { entries, fromReset, kind, onReplay, onDismiss } = props;
  const writes = entries.filter((e) => isMutation(e.call)).length;
  return (
    <section class="link-gate card" data-testid="link-gate" aria-label="shared link">
      <h2>This link would run {entries.length} call{entries.length === 1 ? "" : "s"}</h2>
      <p>
        {writes} of them change files, so nothing has run yet. {kind === "fixtures"
          ? (
            <>
              <b>Reset and replay</b>{" "}
              restores the fixture workspace first, then runs the calls in order in your session, so
              each one meets the files its author's did
              {fromReset
                ? ""
                : " (the author's calls did not start on a fresh workspace, so results may differ)"};
              each result is compared with the author's by its hash.
            </>
          )
          : (
            <>
              This playground runs in{" "}
              <b>your own directory</b>: it cannot be reset, and the writes are real.
            </>
          )}
      </p>
      <ol class="link-calls" data-testid="link-calls">
        {entries.map((e, i) => (
          <li key={i} class={isMutation(e.call) ? "mutation" : ""}>
            <span class={`op op-${isMutation(e.call) ? "write" : "read"}`}>{e.call.tool}</span>
            <code>{JSON.stringify(e.call.args ?? {})}</code>
            <span class="muted">→ {e.pane}</span>
          </li>
        ))}
      </ol>
      <div class="link-buttons">
        {kind === "fixtures"
          ? (
            <button
              type="button"
              class="primary"
              data-testid="link-reset-replay"
              onClick={() => onReplay(true)}
            >
              Reset workspace and replay
            </button>
          )
          : (
            <button
              type="button"
              class="primary"
              data-testid="link-replay"
              onClick={() => onReplay(false)}
            >
              Run these calls in my directory
            </button>
          )}
        <button type="button" class="small" data-testid="link-dismiss" onClick={onDismiss}>
          Don't run
        </button>
      </div>
    </section>
  );
}

/** Props of {@linkcode NoTokenPage}. */
export interface NoTokenPageProps {
  /** What the API said. */
  message: string;
  /** The link's calls, when the address carries some. */
  entries: readonly SharedEntry[];
}

/**
 * The page a link opened without the token gets: what the link holds and how to run it locally.
 *
 * @param props The API's message and the link's calls.
 * @returns The page.
 */
export function NoTokenPage(props: NoTokenPageProps): JSX.Element {
  const { message, entries } = props;
  const fragment = location.hash;
  return (
    <div class="fatal no-token" data-testid="no-token">
      <h1>toolfs playground</h1>
      <p>
        This page needs the playground's token, which only the address its server printed carries
        ({message}). A shared link never includes it: the playground runs on the machine of whoever
        started it and writes files there, so it only takes calls from them.
      </p>
      <h2>Run it yourself</h2>
      <ol>
        <li>
          In a clone of toolfs: <code>deno task playground</code>
        </li>
        <li>
          Open the address it prints (<code>http://127.0.0.1:8787/?token=…</code>)
          {fragment ? " and add this link's fragment to it:" : "."}
        </li>
      </ol>
      {fragment ? <pre class="json small" data-testid="no-token-fragment">{fragment}</pre> : null}
      {entries.length
        ? (
          <>
            <h2>This link holds {entries.length} call{entries.length === 1 ? "" : "s"}</h2>
            <ol class="link-calls">
              {entries.map((e, i) => (
                <li key={i}>
                  <span class={`op op-${isMutation(e.call) ? "write" : "read"}`}>
                    {e.call.tool}
                  </span>
                  <code>{JSON.stringify(e.call.args ?? {})}</code>
                </li>
              ))}
            </ol>
            <p class="muted">
              Calls that change files wait for a click there too; the playground's fixture workspace
              is reset before they run.
            </p>
          </>
        )
        : null}
    </div>
  );
}

/** The keyboard shortcuts, as the `?` overlay lists them. */
export const SHORTCUTS: readonly [keys: string, what: string][] = Object.freeze([
  ["Ctrl/⌘ + Enter", "run the call in pane A"],
  ["Ctrl/⌘ + Shift + Enter", "run the call in pane B"],
  ["f", "fold or unfold the call form"],
  ["w", "wrap long lines"],
  ["d", "line diff of B against A"],
  ["1 … 5", "Calls, Session, Variants, System prompt, Prompt cost"],
  ["?", "this list"],
  ["Esc", "close this list"],
]);

/**
 * The shortcut overlay.
 *
 * @param props The close handler.
 * @returns The overlay.
 */
export function Shortcuts(props: { onClose: () => void }): JSX.Element {
  return (
    <div class="overlay" data-testid="shortcuts" role="dialog" onClick={props.onClose}>
      <div class="card shortcuts" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard shortcuts</h2>
        <table>
          <tbody>
            {SHORTCUTS.map(([keys, what]) => (
              <tr key={keys}>
                <td>
                  <kbd>{keys}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="muted">Letters and digits work when no text field has the focus.</p>
      </div>
    </div>
  );
}
