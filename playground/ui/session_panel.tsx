/**
 * The session: which files it has read (or written), and a button for a fresh one.
 *
 * @module
 */

import type { JSX } from "preact";
import type { SessionInfo } from "./api.ts";

/** Props of {@linkcode SessionPanel}. */
export interface SessionPanelProps {
  /** The session; `undefined` before the first call. */
  session: SessionInfo | undefined;
  /** The session id in use. */
  id: string;
  /** Starts a fresh session. */
  onFresh: () => void;
  /** Prefills `read` of a file. */
  onPick: (path: string) => void;
}

/**
 * Renders the session's files, most recent op per file.
 *
 * @param props The session and handlers.
 * @returns The panel.
 */
export function SessionPanel(props: SessionPanelProps): JSX.Element {
  const { session, id, onFresh, onPick } = props;
  const files = session?.files ?? [];
  return (
    <section class="session" aria-label="session">
      <div class="side-head">
        <h2>Session</h2>
        <code class="muted" title="session id" data-testid="session-id">{id}</code>
        <button type="button" class="small" data-testid="fresh-session" onClick={onFresh}>
          Fresh session
        </button>
      </div>
      <p class="hint">
        Files this session has read, written or edited. With read-before-write on, only these can be
        overwritten or edited.
      </p>
      {files.length === 0
        ? <p class="muted empty-note" data-testid="session-files">Nothing read yet.</p>
        : (
          <ul class="session-files" data-testid="session-files">
            {files.map((f) => (
              <li key={f.path}>
                <span class={`op op-${f.op}`}>{f.op}</span>
                <button type="button" class="link mono" onClick={() => onPick(f.path)}>
                  {f.path}
                </button>
                {f.count > 1 ? <span class="muted">×{f.count}</span> : null}
              </li>
            ))}
          </ul>
        )}
    </section>
  );
}
