/**
 * The playground: compose a call, run it into pane A or B, compare what the model would see.
 * All state lives in one reducer (`state.ts`); the shareable part is mirrored in the address.
 *
 * @module
 */

import type { JSX } from "preact";
import { useCallback, useEffect, useReducer, useRef } from "preact/hooks";
import {
  execute,
  type ExecuteRequest,
  type ExecuteResponse,
  getDefinitions,
  getTree,
  resetWorkspace,
  type TokenizerInfo,
  type TreeNode,
} from "./api.ts";
import { ArgForm } from "./arg_form.tsx";
import { ConfigPanel } from "./config_panel.tsx";
import { EXAMPLE_SESSION, HistoryView } from "./history_view.tsx";
import { LinkGate, NoTokenPage, Shortcuts } from "./link_gate.tsx";
import { LineDiff } from "./line_diff.tsx";
import { PromptCost } from "./prompt_cost.tsx";
import { ResultPane } from "./result_pane.tsx";
import { SessionPanel } from "./session_panel.tsx";
import {
  cliLine,
  historyEntry,
  isMutation,
  type SharedCall,
  type SharedEntry,
} from "./session_log.ts";
import {
  currentRequest,
  decodeShare,
  encodeShare,
  initialState,
  linkEntries,
  type PaneLabel,
  type PaneState,
  reducer,
  refusedShareTool,
  type SharedState,
  type View,
} from "./state.ts";
import { SystemPromptView } from "./system_prompt.tsx";
import { TreeView } from "./tree_view.tsx";
import { VariantsView } from "./variants_view.tsx";

const SESSION_KEY = "toolfs-playground-session";
const IS_MAC = /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = IS_MAC ? "⌘" : "Ctrl";
const number = new Intl.NumberFormat("en-US", { signDisplay: "exceptZero" });

function newSessionId(): string {
  return `s-${crypto.randomUUID().slice(0, 8)}`;
}

function storedSessionId(): string {
  const stored = sessionStorage.getItem(SESSION_KEY);
  if (stored) return stored;
  const id = newSessionId();
  sessionStorage.setItem(SESSION_KEY, id);
  return id;
}

const VIEWS: { view: View; label: string; testId: string }[] = [
  { view: "calls", label: "Calls", testId: "view-calls" },
  { view: "session", label: "Session", testId: "view-session" },
  { view: "variants", label: "Variants", testId: "view-variants" },
  { view: "system", label: "System prompt", testId: "view-system-prompt" },
  { view: "cost", label: "Prompt cost", testId: "view-prompt-cost" },
];

/**
 * The whole playground page.
 *
 * @returns The app.
 */
export function App(): JSX.Element {
  const shared = useRef<SharedState | undefined>(decodeShare(location.hash));
  const [state, dispatch] = useReducer(
    reducer,
    undefined,
    () => initialState(storedSessionId(), shared.current),
  );
  const configKey = JSON.stringify(state.config);

  // A link naming a tool the playground does not run is refused whole (issue 30 item 8).
  useEffect(() => {
    const refused = refusedShareTool(location.hash);
    if (refused === undefined) return;
    const url = new URL(location.href);
    url.hash = "";
    history.replaceState(history.state, "", url.href);
    dispatch({
      type: "replay-report",
      report: `This link names an unknown tool ${JSON.stringify(refused)}: it was not opened.`,
    });
  }, []);

  useEffect(() => {
    getDefinitions(state.config).then(
      (defs) => dispatch({ type: "defs", defs }),
      (e: Error) => dispatch({ type: "defs-error", message: e.message }),
    );
  }, [configKey]);

  const refreshTree = useCallback(() => {
    getTree().then(
      (tree) => dispatch({ type: "tree", tree }),
      (e: Error) => dispatch({ type: "notice", notice: `Could not load the tree: ${e.message}` }),
    );
  }, []);

  useEffect(refreshTree, []);

  useEffect(() => {
    if (!state.notice) return;
    const timer = setTimeout(() => dispatch({ type: "notice" }), 4000);
    return () => clearTimeout(timer);
  }, [state.notice]);

  async function runRequest(
    target: PaneLabel,
    request: ExecuteRequest,
  ): Promise<ExecuteResponse | undefined> {
    dispatch({ type: "running", pane: target });
    try {
      const response = await execute(request);
      dispatch({ type: "pane", pane: target, state: { request, response } });
      dispatch({ type: "history-add", entry: historyEntry(request, target, response) });
      if (!response.isError && isMutation(request)) refreshTree();
      return response;
    } catch (e) {
      dispatch({ type: "pane", pane: target, state: { request, error: (e as Error).message } });
      return undefined;
    }
  }

  /**
   * Runs calls in order into their panes, after a workspace reset when asked, and says how many
   * results match the recorded ones (by hash).
   */
  async function replay(entries: readonly SharedEntry[], reset: boolean): Promise<void> {
    dispatch({ type: "link-plan" });
    dispatch({ type: "replay-report" });
    if (reset) {
      await resetWorkspace();
      dispatch({ type: "reset" });
      refreshTree();
    } else {
      dispatch({ type: "history-clear", fromReset: false });
    }
    let compared = 0;
    const differing: number[] = [];
    for (const [i, entry] of entries.entries()) {
      const response = await runRequest(entry.pane, {
        ...entry.call,
        session: sessionRef.current,
      });
      if (!entry.hash) continue;
      compared++;
      if (!response || historyEntry(entry.call, entry.pane, response).hash !== entry.hash) {
        differing.push(i + 1);
      }
    }
    if (compared) {
      dispatch({
        type: "replay-report",
        report: differing.length
          ? `Replayed ${entries.length} calls${reset ? " on a reset workspace" : ""}: ${
            compared - differing.length
          } of ${compared} results match the recorded ones; call ${differing.join(", ")} differ.`
          : `Replayed ${entries.length} calls${
            reset ? " on a reset workspace" : ""
          }: all ${compared} results match the recorded ones.`,
      });
    }
  }

  function run(target: PaneLabel): void {
    if (state.jsonError || state.running) return;
    runRequest(target, currentRequest(state));
  }

  /**
   * The same call twice, side by side (issue 32 item 1): A with the design notes' footers (the
   * default), B with `detailedFooters` (C4.2a). Only for the tools that change nothing.
   */
  async function runBothFooters(): Promise<void> {
    if (state.jsonError || state.running) return;
    const request = currentRequest(state);
    const config = { ...request.config };
    await runRequest("A", { ...request, config: { ...config, detailedFooters: false } });
    await runRequest("B", { ...request, config: { ...config, detailedFooters: true } });
  }

  const sessionRef = useRef(state.sessionId);
  sessionRef.current = state.sessionId;

  // A shared link re-runs its calls once the definitions are in, in order. Calls that only look
  // run at once; a link with a call that changes files shows its calls and waits for a click
  // (finding 5 of issue 19: a link never writes on open).
  const replayed = useRef(false);
  useEffect(() => {
    if (!state.defs || replayed.current) return;
    replayed.current = true;
    if (!shared.current) return;
    const entries = linkEntries(shared.current);
    if (entries.some((e) => isMutation(e.call))) {
      dispatch({ type: "link-plan", plan: { entries, fromReset: shared.current.fromReset } });
    } else if (entries.length) {
      replay(entries, false);
    }
  }, [state.defs]);

  // Mirror the shareable state in the address, without adding history entries.
  const share = encodeShare(state);
  useEffect(() => {
    if (!replayed.current) return;
    const url = new URL(location.href);
    url.hash = share;
    history.replaceState(history.state, "", url.href);
  }, [share]);

  const runRef = useRef(run);
  runRef.current = run;
  const stateRef = useRef(state);
  stateRef.current = state;
  useEffect(() => {
    function onKey(e: KeyboardEvent): void {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        runRef.current(e.shiftKey ? "B" : "A");
        return;
      }
      const target = e.target as HTMLElement | null;
      const typing = target?.closest("input, textarea, select, [contenteditable]");
      if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
      const s = stateRef.current;
      const toggles: Record<string, "formCollapsed" | "wrap" | "showDiff"> = {
        f: "formCollapsed",
        w: "wrap",
        d: "showDiff",
      };
      if (e.key === "?") {
        dispatch({ type: "toggle", key: "showShortcuts", on: !s.showShortcuts });
      } else if (e.key === "Escape") {
        dispatch({ type: "toggle", key: "showShortcuts", on: false });
      } else if (toggles[e.key]) {
        dispatch({ type: "toggle", key: toggles[e.key], on: !s[toggles[e.key]] });
      } else if (/^[1-9]$/.test(e.key) && VIEWS[Number(e.key) - 1]) {
        dispatch({ type: "view", view: VIEWS[Number(e.key) - 1].view });
      } else {
        return;
      }
      e.preventDefault();
    }
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  function pick(node: TreeNode): void {
    dispatch({ type: "view", view: "calls" });
    if (node.type === "directory") {
      dispatch({ type: "tool", tool: "list", args: node.path === "." ? {} : { path: node.path } });
    } else {
      dispatch({ type: "tool", tool: "read", args: { file_path: node.path } });
    }
  }

  function freshSession(): void {
    const id = newSessionId();
    sessionStorage.setItem(SESSION_KEY, id);
    dispatch({ type: "session-id", id });
    dispatch({ type: "history-clear", fromReset: false });
    dispatch({ type: "notice", notice: `Fresh session ${id}: nothing has been read in it.` });
  }

  async function reset(): Promise<void> {
    try {
      const { restored } = await resetWorkspace();
      dispatch({ type: "reset" });
      refreshTree();
      dispatch({
        type: "notice",
        notice: restored
          ? "Workspace restored from playground/fixtures/; sessions cleared."
          : "Sessions cleared (your directory is left as it is).",
      });
    } catch (e) {
      dispatch({ type: "notice", notice: `Reset failed: ${(e as Error).message}` });
    }
  }

  function copyLink(): void {
    const writes = state.history.some((e) => isMutation(e.call));
    navigator.clipboard?.writeText(location.href).then(
      () =>
        dispatch({
          type: "notice",
          notice: writes
            ? "Link copied: it replays the session's calls after a workspace reset, on a click."
            : "Link copied: it re-runs the session's calls.",
        }),
      () => dispatch({ type: "notice", notice: "Copy the address bar: it holds the calls." }),
    );
  }

  function copy(text: string, what: string): void {
    navigator.clipboard?.writeText(text).then(
      () => dispatch({ type: "notice", notice: `${what} copied.` }),
      () => dispatch({ type: "notice", notice: `Could not copy the ${what}.` }),
    );
  }

  function loadCall(call: SharedCall): void {
    dispatch({ type: "load-call", request: call });
  }

  const { defs } = state;
  if (state.loadError) {
    if (/missing or wrong token/.test(state.loadError)) {
      return (
        <NoTokenPage
          message={state.loadError}
          entries={shared.current ? linkEntries(shared.current) : []}
        />
      );
    }
    return (
      <div class="fatal">
        <h1>toolfs playground</h1>
        <p>The API did not answer: {state.loadError}</p>
      </div>
    );
  }
  if (!defs) return <div class="loading">Loading…</div>;

  const definition = defs.tools.find((t) => t.name === state.tool);
  const tokenizers = state.tokenizers;
  const readOnly = defs.workspace.roots.filter((r) => !r.writable).map((r) => r.path);
  const blocked = !!state.jsonError || !!state.configError || !!state.running;

  return (
    <div class="app">
      <header class="topbar">
        <div class="brand">
          toolfs <span>playground</span>
        </div>
        <nav class="tabs" role="tablist" aria-label="view">
          {VIEWS.map((v) => (
            <button
              type="button"
              role="tab"
              key={v.view}
              aria-selected={state.view === v.view}
              data-testid={v.testId}
              onClick={() => dispatch({ type: "view", view: v.view })}
            >
              {v.label}
            </button>
          ))}
        </nav>
        <TokenizerPicker
          all={defs.tokenizers}
          chosen={tokenizers}
          onChange={(next) => dispatch({ type: "tokenizers", tokenizers: next })}
        />
        <div class="workspace-info" title={defs.workspace.root}>
          <span class="tag">
            {defs.workspace.kind === "fixtures" ? "fixture workspace" : "your directory"}
          </span>
          <code>{defs.workspace.root}</code>
        </div>
        <button type="button" class="small" data-testid="copy-link" onClick={copyLink}>
          Copy link
        </button>
        <button type="button" class="small" data-testid="reset-workspace" onClick={reset}>
          {defs.workspace.kind === "fixtures" ? "Reset workspace" : "Clear sessions"}
        </button>
        <button
          type="button"
          class="small"
          data-testid="show-shortcuts"
          title="Keyboard shortcuts (?)"
          onClick={() => dispatch({ type: "toggle", key: "showShortcuts", on: true })}
        >
          ?
        </button>
      </header>
      {state.notice ? <div class="notice" role="status">{state.notice}</div> : null}
      {state.showShortcuts
        ? (
          <Shortcuts
            onClose={() => dispatch({ type: "toggle", key: "showShortcuts", on: false })}
          />
        )
        : null}
      <div class="body">
        <aside class="sidebar">
          <section class="files" aria-label="workspace">
            <div class="side-head">
              <h2>Workspace</h2>
              <button type="button" class="small" onClick={refreshTree} title="Reload the tree">
                Refresh
              </button>
            </div>
            <p class="hint">Click a file to prefill read, a folder to prefill list.</p>
            {state.tree
              ? (
                <TreeView
                  key={state.treeVersion}
                  tree={state.tree.tree}
                  readOnly={readOnly}
                  onPick={pick}
                  onRun={(node) => {
                    pick(node);
                    setTimeout(() => runRef.current("A"), 0);
                  }}
                />
              )
              : <p class="muted">Loading…</p>}
          </section>
          <SessionPanel
            session={state.session}
            id={state.sessionId}
            onFresh={freshSession}
            onPick={(path) => dispatch({ type: "tool", tool: "read", args: { file_path: path } })}
          />
        </aside>
        <main class="main">
          {state.linkPlan
            ? (
              <LinkGate
                entries={state.linkPlan.entries}
                fromReset={state.linkPlan.fromReset}
                kind={defs.workspace.kind}
                onReplay={(reset) => replay(state.linkPlan!.entries, reset)}
                onDismiss={() => dispatch({ type: "link-plan" })}
              />
            )
            : null}
          {state.replayReport && state.view === "calls"
            ? <p class="replay-report" data-testid="replay-report">{state.replayReport}</p>
            : null}
          {state.view === "session"
            ? (
              <HistoryView
                history={state.history}
                tokenizers={tokenizers}
                fromReset={state.historyFromReset}
                kind={defs.workspace.kind}
                replayReport={state.replayReport}
                busy={!!state.running}
                onReplay={() =>
                  replay(
                    state.history.map((e) => ({ ...e })),
                    defs.workspace.kind === "fixtures",
                  )}
                onExample={() =>
                  replay(
                    EXAMPLE_SESSION.map((call, i) => ({
                      call: { ...call, ...(tokenizers.length ? { tokenizers } : {}) },
                      pane: i % 2 ? "B" : "A",
                      hash: "",
                      tokens: {},
                    })),
                    true,
                  )}
                onLoad={loadCall}
                onCopy={copy}
              />
            )
            : state.view === "variants"
            ? (
              <VariantsView
                tools={defs.tools.filter((t) => (defs.defaultTools ?? []).includes(t.name))}
                texts={state.texts}
                onTexts={(variant, texts) => dispatch({ type: "texts", variant, texts })}
                config={state.configError ? {} : state.config}
                tokenizers={tokenizers}
                sessionTokens={Object.fromEntries(
                  tokenizers.map((t) => [t, state.history.map((e) => e.tokens[t] ?? 0)]),
                )}
                onCopy={copy}
              />
            )
            : state.view === "cost"
            ? (
              <PromptCost
                config={state.configError ? {} : state.config}
                tokenizers={tokenizers}
              />
            )
            : state.view === "system"
            ? (
              <SystemPromptView
                config={state.configError ? {} : state.config}
                tokenizers={tokenizers}
                labels={defs.tokenizers}
              />
            )
            : (
              <div
                class={`calls-layout${state.formCollapsed ? " collapsed" : ""}`}
                data-testid="calls-layout"
              >
                {state.formCollapsed
                  ? (
                    <button
                      type="button"
                      class="unfold"
                      data-testid="unfold-form"
                      title="Show the call form (f)"
                      onClick={() => dispatch({ type: "toggle", key: "formCollapsed", on: false })}
                    >
                      ▸ {state.tool}
                    </button>
                  )
                  : null}
                <section class="editor card" aria-label="call editor" hidden={state.formCollapsed}>
                  <div class="editor-head">
                    <div class="tool-picker" role="tablist" aria-label="tool">
                      {defs.tools.map((t) => {
                        // move, delete and patch are opt-in (C15.1): shown apart, all runnable.
                        const optIn = !(defs.defaultTools ?? []).includes(t.name);
                        return (
                          <button
                            type="button"
                            role="tab"
                            key={t.name}
                            class={optIn ? "opt-in" : undefined}
                            title={optIn
                              ? "not offered by default: createFsTools({ tools: [...] }) names it"
                              : undefined}
                            aria-selected={t.name === state.tool}
                            data-testid={`tool-${t.name}`}
                            onClick={() => dispatch({ type: "tool", tool: t.name })}
                          >
                            {t.name}
                          </button>
                        );
                      })}
                    </div>
                    <p class="tool-desc" title="the tool's description, as the model sees it">
                      {definition?.description}
                    </p>
                  </div>
                  <div class="editor-grid">
                    <div>
                      <h3>Arguments</h3>
                      {definition
                        ? (
                          <ArgForm
                            definition={definition}
                            args={state.argsByTool[state.tool] ?? {}}
                            onChange={(args) => dispatch({ type: "args", args })}
                          />
                        )
                        : <p class="muted">No tool named "{state.tool}".</p>}
                    </div>
                    <div class="json-editor">
                      <h3>
                        JSON <span class="muted">the arguments as a model sends them</span>
                      </h3>
                      <textarea
                        data-testid="args-json"
                        aria-label="arguments as JSON"
                        class={state.jsonError ? "invalid" : ""}
                        spellcheck={false}
                        value={state.jsonText}
                        onInput={(e) => dispatch({ type: "json", text: e.currentTarget.value })}
                      />
                      {state.jsonError ? <div class="json-error">{state.jsonError}</div> : null}
                    </div>
                  </div>
                  <div class="editor-foot">
                    <ConfigPanel
                      defaults={defs.defaults}
                      bounds={defs.bounds}
                      overrides={state.config}
                      onChange={(config) => dispatch({ type: "config", config })}
                      policy={state.policy}
                      onPolicy={(policy) => dispatch({ type: "policy", policy })}
                    />
                    <div class="run-buttons">
                      <button
                        type="button"
                        class="primary"
                        data-testid="run-a"
                        disabled={blocked}
                        onClick={() => run("A")}
                      >
                        Run in A <kbd>{MOD} ⏎</kbd>
                      </button>
                      <button
                        type="button"
                        class="secondary"
                        data-testid="run-b"
                        disabled={blocked}
                        onClick={() => run("B")}
                      >
                        Run in B <kbd>{MOD} ⇧ ⏎</kbd>
                      </button>
                      <button
                        type="button"
                        class="secondary"
                        data-testid="run-footers"
                        disabled={blocked || isMutation({ tool: state.tool })}
                        title="Run this call twice: A with the default footers, B with detailedFooters"
                        onClick={() => runBothFooters()}
                      >
                        Both footers <span class="muted">A default · B detailed</span>
                      </button>
                    </div>
                  </div>
                  {state.configError ? <div class="json-error">{state.configError}</div> : null}
                </section>
                <div class="results">
                  <div class="panes-toolbar">
                    <button
                      type="button"
                      class="small"
                      data-testid="fold-form"
                      title="Fold the call form away (f)"
                      onClick={() =>
                        dispatch({
                          type: "toggle",
                          key: "formCollapsed",
                          on: !state.formCollapsed,
                        })}
                    >
                      {state.formCollapsed ? "Show form" : "Hide form"}
                    </button>
                    <Toggle
                      testId="toggle-whitespace"
                      checked={state.showWhitespace}
                      onChange={(on) => dispatch({ type: "toggle", key: "showWhitespace", on })}
                      label="Show whitespace"
                    />
                    <Toggle
                      testId="toggle-diff"
                      checked={state.showDiff}
                      onChange={(on) => dispatch({ type: "toggle", key: "showDiff", on })}
                      label="Line diff"
                    />
                    <Toggle
                      testId="toggle-wrap"
                      checked={state.wrap}
                      onChange={(on) => dispatch({ type: "toggle", key: "wrap", on })}
                      label="Wrap lines"
                    />
                    <span class="spacer" />
                    <TokenDiff a={state.panes.A} b={state.panes.B} />
                  </div>
                  {state.showDiff
                    ? (
                      <LineDiff
                        a={state.panes.A?.response?.content}
                        b={state.panes.B?.response?.content}
                        showWhitespace={state.showWhitespace}
                        wrap={state.wrap}
                      />
                    )
                    : null}
                  <div class="panes">
                    {(["A", "B"] as const).map((label) => (
                      <ResultPane
                        key={label}
                        label={label}
                        state={state.panes[label]}
                        running={state.running === label}
                        defaults={defs.defaults}
                        showWhitespace={state.showWhitespace}
                        wrap={state.wrap}
                        onLoad={(request) => dispatch({ type: "load-call", request })}
                        onCopyCli={(request) => copy(cliLine(request), "CLI line")}
                      />
                    ))}
                  </div>
                </div>
              </div>
            )}
        </main>
      </div>
    </div>
  );
}

/** The tokenizers to count with: at least one stays chosen. */
function TokenizerPicker(props: {
  all: TokenizerInfo[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
}): JSX.Element {
  const { all, chosen, onChange } = props;
  return (
    <details class="tokenizer-picker" data-testid="tokenizers">
      <summary title="Tokenizers counted in panes and prompt views">
        Tokens: <b>{chosen.length ? chosen.join(", ") : "none"}</b>
      </summary>
      <div class="tokenizer-menu">
        {all.map((t) => (
          <label key={t.name}>
            <input
              type="checkbox"
              data-testid={`tokenizer-${t.name}`}
              checked={chosen.includes(t.name)}
              disabled={chosen.length === 1 && chosen.includes(t.name)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                onChange(
                  all.map((x) => x.name).filter((n) => n === t.name ? on : chosen.includes(n)),
                );
              }}
            />{" "}
            {t.label} <code class="muted">{t.name}</code>
          </label>
        ))}
        <p class="hint">Loaded on first use: a new vocabulary takes a moment.</p>
      </div>
    </details>
  );
}

function TokenDiff(props: { a?: PaneState; b?: PaneState }): JSX.Element | null {
  const a = props.a?.response;
  const b = props.b?.response;
  if (!a || !b) {
    return <span class="muted token-diff">Run calls into A and B to compare them.</span>;
  }
  function delta(x: number, y: number): string {
    const d = y - x;
    const pct = x === 0 ? "" : ` (${number.format(Math.round((d / x) * 1000) / 10)}%)`;
    return d === 0 ? "±0" : `${number.format(d)}${pct}`;
  }
  const common = Object.keys(a.tokens).filter((t) => t in b.tokens);
  return (
    <span class="token-diff" data-testid="token-diff">
      <strong>B − A</strong>
      {common.map((t) => (
        <span
          key={t}
          class={b.tokens[t] > a.tokens[t] ? "up" : b.tokens[t] < a.tokens[t] ? "down" : ""}
        >
          {t} <b>{delta(a.tokens[t], b.tokens[t])}</b>
        </span>
      ))}
      <span>
        bytes <b>{delta(a.bytes, b.bytes)}</b>
      </span>
    </span>
  );
}

/** A labelled checkbox of the panes toolbar. */
function Toggle(props: {
  testId: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
}): JSX.Element {
  return (
    <label>
      <input
        type="checkbox"
        data-testid={props.testId}
        checked={props.checked}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
      />{" "}
      {props.label}
    </label>
  );
}
