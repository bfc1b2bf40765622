/**
 * The playground: compose a call, run it into pane A or B, compare what the model would see.
 *
 * @module
 */

import type { JSX } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import {
  type DefinitionsResponse,
  execute,
  type ExecuteRequest,
  getDefinitions,
  getTree,
  resetWorkspace,
  type SessionInfo,
  type TokenizerName,
  type ToolsConfig,
  type TreeNode,
  type TreeResponse,
} from "./api.ts";
import { ArgForm } from "./arg_form.tsx";
import { ConfigPanel } from "./config_panel.tsx";
import { PromptCost } from "./prompt_cost.tsx";
import { type PaneState, ResultPane } from "./result_pane.tsx";
import { SessionPanel } from "./session_panel.tsx";
import { TreeView } from "./tree_view.tsx";

type Args = Record<string, unknown>;
type PaneLabel = "A" | "B";

const EXAMPLES: Record<string, Args> = {
  list: {},
  read: { file_path: "notes/todo.md" },
  write: {
    file_path: "notes/new-note.md",
    content: "# A new note\n\nWritten from the playground.\n",
  },
  edit: {
    file_path: "src/lib/text/greet.ts",
    old_string: "// TODO: localize",
    new_string: "// localized in v2",
  },
};

const SESSION_KEY = "toolfs-playground-session";
const IS_MAC = /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = IS_MAC ? "⌘" : "Ctrl";
const number = new Intl.NumberFormat("en-US", { signDisplay: "exceptZero" });

function pretty(args: Args): string {
  return JSON.stringify(args, null, 2);
}

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

/**
 * The whole playground page.
 *
 * @returns The app.
 */
export function App(): JSX.Element {
  const [defs, setDefs] = useState<DefinitionsResponse | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const [configError, setConfigError] = useState<string | undefined>();
  const [view, setView] = useState<"calls" | "cost">("calls");
  const [tool, setTool] = useState("read");
  const [argsByTool, setArgsByTool] = useState<Record<string, Args>>(EXAMPLES);
  const [jsonText, setJsonText] = useState(pretty(EXAMPLES.read));
  const [jsonError, setJsonError] = useState<string | undefined>();
  const [config, setConfig] = useState<Partial<ToolsConfig>>({});
  const [policy, setPolicy] = useState(true);
  const [sessionId, setSessionId] = useState(storedSessionId);
  const [session, setSession] = useState<SessionInfo | undefined>();
  const [panes, setPanes] = useState<Partial<Record<PaneLabel, PaneState>>>({});
  const [running, setRunning] = useState<PaneLabel | undefined>();
  const [tree, setTree] = useState<TreeResponse | undefined>();
  const [treeVersion, setTreeVersion] = useState(0);
  const [showWhitespace, setShowWhitespace] = useState(false);
  const [wrap, setWrap] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const configKey = JSON.stringify(config);

  useEffect(() => {
    getDefinitions(config).then(
      (d) => {
        setDefs(d);
        setConfigError(undefined);
        setLoadError(undefined);
      },
      (e: Error) => (defs ? setConfigError(e.message) : setLoadError(e.message)),
    );
  }, [configKey]);

  const refreshTree = useCallback(() => {
    getTree().then(setTree, (e: Error) => setNotice(`Could not load the tree: ${e.message}`));
  }, []);

  useEffect(refreshTree, []);

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(undefined), 4000);
    return () => clearTimeout(timer);
  }, [notice]);

  function selectTool(name: string, args?: Args): void {
    const next = args ?? argsByTool[name] ?? {};
    setTool(name);
    setArgsByTool({ ...argsByTool, [name]: next });
    setJsonText(pretty(next));
    setJsonError(undefined);
  }

  function onFormChange(args: Args): void {
    setArgsByTool({ ...argsByTool, [tool]: args });
    setJsonText(pretty(args));
    setJsonError(undefined);
  }

  function onJsonInput(text: string): void {
    setJsonText(text);
    try {
      const parsed = JSON.parse(text);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        setJsonError("The arguments must be a JSON object.");
        return;
      }
      setArgsByTool({ ...argsByTool, [tool]: parsed });
      setJsonError(undefined);
    } catch (e) {
      setJsonError((e as Error).message);
    }
  }

  async function run(target: PaneLabel): Promise<void> {
    if (jsonError || running) return;
    const request: ExecuteRequest = {
      tool,
      args: argsByTool[tool] ?? {},
      session: sessionId,
      ...(Object.keys(config).length ? { config } : {}),
      ...(policy ? {} : { policy: false }),
    };
    setRunning(target);
    try {
      const response = await execute(request);
      setPanes((p) => ({ ...p, [target]: { request, response } }));
      setSession(response.session);
      if (!response.isError && (tool === "write" || tool === "edit")) refreshTree();
    } catch (e) {
      setPanes((p) => ({ ...p, [target]: { request, error: (e as Error).message } }));
    } finally {
      setRunning(undefined);
    }
  }

  const runRef = useRef(run);
  runRef.current = run;
  useEffect(() => {
    function onKey(e: KeyboardEvent): void {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        runRef.current(e.shiftKey ? "B" : "A");
      }
    }
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  function pick(node: TreeNode): void {
    setView("calls");
    if (node.type === "directory") {
      selectTool("list", node.path === "." ? {} : { path: node.path });
    } else {
      selectTool("read", { file_path: node.path });
    }
  }

  function freshSession(): void {
    const id = newSessionId();
    sessionStorage.setItem(SESSION_KEY, id);
    setSessionId(id);
    setSession(undefined);
    setNotice(`Fresh session ${id}: nothing has been read in it.`);
  }

  async function reset(): Promise<void> {
    try {
      const { restored } = await resetWorkspace();
      setSession(undefined);
      setTreeVersion((v) => v + 1);
      refreshTree();
      setNotice(
        restored
          ? "Workspace restored from playground/fixtures/; sessions cleared."
          : "Sessions cleared (your directory is left as it is).",
      );
    } catch (e) {
      setNotice(`Reset failed: ${(e as Error).message}`);
    }
  }

  function loadCall(request: ExecuteRequest): void {
    setConfig(request.config ?? {});
    setPolicy(request.policy ?? true);
    selectTool(request.tool, request.args ?? {});
    setView("calls");
  }

  if (loadError) {
    return (
      <div class="fatal">
        <h1>toolfs playground</h1>
        <p>The API did not answer: {loadError}</p>
      </div>
    );
  }
  if (!defs) return <div class="loading">Loading…</div>;

  const definition = defs.tools.find((t) => t.name === tool);
  const tokenizers = defs.tokenizers;
  const readOnly = defs.workspace.roots.filter((r) => !r.writable).map((r) => r.path);

  return (
    <div class="app">
      <header class="topbar">
        <div class="brand">
          toolfs <span>playground</span>
        </div>
        <nav class="tabs" role="tablist" aria-label="view">
          <button
            type="button"
            role="tab"
            aria-selected={view === "calls"}
            data-testid="view-calls"
            onClick={() => setView("calls")}
          >
            Calls
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={view === "cost"}
            data-testid="view-prompt-cost"
            onClick={() => setView("cost")}
          >
            Prompt cost
          </button>
        </nav>
        <div class="workspace-info" title={defs.workspace.root}>
          <span class="tag">
            {defs.workspace.kind === "fixtures" ? "fixture workspace" : "your directory"}
          </span>
          <code>{defs.workspace.root}</code>
        </div>
        <button type="button" class="small" data-testid="reset-workspace" onClick={reset}>
          {defs.workspace.kind === "fixtures" ? "Reset workspace" : "Clear sessions"}
        </button>
      </header>
      {notice ? <div class="notice" role="status">{notice}</div> : null}
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
            {tree
              ? (
                <TreeView
                  key={treeVersion}
                  tree={tree.tree}
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
            session={session}
            id={sessionId}
            onFresh={freshSession}
            onPick={(path) => selectTool("read", { file_path: path })}
          />
        </aside>
        <main class="main">
          {view === "cost"
            ? <PromptCost config={configError ? {} : config} tokenizers={tokenizers} />
            : (
              <>
                <section class="editor card" aria-label="call editor">
                  <div class="editor-head">
                    <div class="tool-picker" role="tablist" aria-label="tool">
                      {defs.tools.map((t) => (
                        <button
                          type="button"
                          role="tab"
                          key={t.name}
                          aria-selected={t.name === tool}
                          data-testid={`tool-${t.name}`}
                          onClick={() => selectTool(t.name)}
                        >
                          {t.name}
                        </button>
                      ))}
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
                            args={argsByTool[tool] ?? {}}
                            onChange={onFormChange}
                          />
                        )
                        : null}
                    </div>
                    <div class="json-editor">
                      <h3>
                        JSON <span class="muted">the arguments as a model sends them</span>
                      </h3>
                      <textarea
                        data-testid="args-json"
                        aria-label="arguments as JSON"
                        class={jsonError ? "invalid" : ""}
                        spellcheck={false}
                        value={jsonText}
                        onInput={(e) => onJsonInput(e.currentTarget.value)}
                      />
                      {jsonError ? <div class="json-error">{jsonError}</div> : null}
                    </div>
                  </div>
                  <div class="editor-foot">
                    <ConfigPanel
                      defaults={defs.defaults}
                      overrides={config}
                      onChange={setConfig}
                      policy={policy}
                      onPolicy={setPolicy}
                    />
                    <div class="run-buttons">
                      <button
                        type="button"
                        class="primary"
                        data-testid="run-a"
                        disabled={!!jsonError || !!configError || !!running}
                        onClick={() => run("A")}
                      >
                        Run in A <kbd>{MOD} ⏎</kbd>
                      </button>
                      <button
                        type="button"
                        class="secondary"
                        data-testid="run-b"
                        disabled={!!jsonError || !!configError || !!running}
                        onClick={() => run("B")}
                      >
                        Run in B <kbd>{MOD} ⇧ ⏎</kbd>
                      </button>
                    </div>
                  </div>
                  {configError ? <div class="json-error">{configError}</div> : null}
                </section>
                <div class="panes-toolbar">
                  <Toggle
                    testId="toggle-whitespace"
                    checked={showWhitespace}
                    onChange={setShowWhitespace}
                    label="Show whitespace"
                  />
                  <Toggle
                    testId="toggle-wrap"
                    checked={wrap}
                    onChange={setWrap}
                    label="Wrap lines"
                  />
                  <span class="spacer" />
                  <TokenDiff a={panes.A} b={panes.B} tokenizers={tokenizers} />
                </div>
                <div class="panes">
                  {(["A", "B"] as const).map((label) => (
                    <ResultPane
                      key={label}
                      label={label}
                      state={panes[label]}
                      running={running === label}
                      defaults={defs.defaults}
                      tokenizers={tokenizers}
                      showWhitespace={showWhitespace}
                      wrap={wrap}
                      onLoad={loadCall}
                    />
                  ))}
                </div>
              </>
            )}
        </main>
      </div>
    </div>
  );
}

function TokenDiff(
  props: { a?: PaneState; b?: PaneState; tokenizers: readonly TokenizerName[] },
): JSX.Element | null {
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
  return (
    <span class="token-diff" data-testid="token-diff">
      <strong>B − A</strong>
      {props.tokenizers.map((t) => (
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
