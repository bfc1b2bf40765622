/**
 * The playground's UI state in one reducer, and its encoding in the address (`#s=…`): the
 * editor, config, tokenizers and both panes' calls, so reloading or sharing the link re-runs
 * both calls.
 *
 * @module
 */

import type {
  DefinitionsResponse,
  ExecuteRequest,
  ExecuteResponse,
  SessionInfo,
  ToolsConfig,
  TreeResponse,
} from "../server/api_types.ts"; // not ./api.ts: tests import this module without the DOM
import { FIXTURE_EXAMPLES } from "../server/fixture_examples.ts";
import {
  type HistoryEntry,
  KNOWN_TOOLS,
  type SharedCall,
  type SharedEntry,
} from "./session_log.ts";

/** Per-tool text overrides, as `createFsTools({ texts })` takes them. */
export type TextsOverride = Record<
  string,
  { description?: string; guidance?: string; parameters?: Record<string, string> }
>;

/** A tool's arguments as the model sends them. */
export type Args = Record<string, unknown>;
/** A result pane. */
export type PaneLabel = "A" | "B";
/** The main view. */
export type View = "calls" | "session" | "variants" | "system" | "cost";

const VIEW_NAMES: readonly View[] = ["calls", "session", "variants", "system", "cost"];

/** A shared link's calls that wait for a click (finding 5: a link never writes on open). */
export interface LinkPlan {
  /** The calls, in order. */
  entries: SharedEntry[];
  /** Whether the history started on a freshly reset workspace. */
  fromReset: boolean;
}

/** What a pane holds: the call and its response (or the request error). */
export interface PaneState {
  /** The call as sent. */
  request: ExecuteRequest;
  /** The response, on success of the HTTP request. */
  response?: ExecuteResponse;
  /** The HTTP error, when the request itself failed. */
  error?: string;
}

/** Everything the page shows. */
export interface State {
  /** Definitions, defaults, tokenizers and workspace, once loaded. */
  defs?: DefinitionsResponse;
  /** Why the API could not be reached at all. */
  loadError?: string;
  /** Why the current config was refused. */
  configError?: string;
  /** The main view. */
  view: View;
  /** The tool in the editor. */
  tool: string;
  /** The arguments per tool (switching tools keeps each one's). */
  argsByTool: Record<string, Args>;
  /** The JSON editor's text: the current tool's arguments unless being edited. */
  jsonText: string;
  /** Why `jsonText` is not an arguments object. */
  jsonError?: string;
  /** Config overrides. */
  config: Partial<ToolsConfig>;
  /** Whether the read-before-write gate applies. */
  policy: boolean;
  /** The tokenizers counted, in the server's order. */
  tokenizers: string[];
  /** The session id. */
  sessionId: string;
  /** The session as last reported. */
  session?: SessionInfo;
  /** The panes. */
  panes: Partial<Record<PaneLabel, PaneState>>;
  /** The pane a call runs into. */
  running?: PaneLabel;
  /** The workspace tree. */
  tree?: TreeResponse;
  /** Bumped to re-mount the tree (collapsing it) after a reset. */
  treeVersion: number;
  /** Show whitespace marks in the panes. */
  showWhitespace: boolean;
  /** Wrap long lines in the panes. */
  wrap: boolean;
  /** Show the line diff of B against A. */
  showDiff: boolean;
  /** A transient message. */
  notice?: string;
  /** The session's calls in order (since the last reset or fresh session). */
  history: HistoryEntry[];
  /** Whether the history started right after a workspace reset (so a replay after one matches). */
  historyFromReset: boolean;
  /** The form is folded away, so the panes take the width. */
  formCollapsed: boolean;
  /** The keyboard shortcut list is open. */
  showShortcuts: boolean;
  /** A link's calls waiting for a click. */
  linkPlan?: LinkPlan;
  /** How the last replay compared with the recorded results. */
  replayReport?: string;
  /** Prompt variants A and B: text overrides per tool. */
  texts: { A: TextsOverride; B: TextsOverride };
}

/** Every change the page makes. */
export type Action =
  | { type: "defs"; defs: DefinitionsResponse }
  | { type: "defs-error"; message: string }
  | { type: "view"; view: View }
  | { type: "tool"; tool: string; args?: Args }
  | { type: "args"; args: Args }
  | { type: "json"; text: string }
  | { type: "config"; config: Partial<ToolsConfig> }
  | { type: "policy"; policy: boolean }
  | { type: "tokenizers"; tokenizers: string[] }
  | { type: "session-id"; id: string }
  | { type: "session"; session?: SessionInfo }
  | { type: "running"; pane: PaneLabel }
  | { type: "pane"; pane: PaneLabel; state: PaneState }
  | { type: "tree"; tree: TreeResponse }
  | { type: "reset" }
  | {
    type: "toggle";
    key: "showWhitespace" | "wrap" | "showDiff" | "formCollapsed" | "showShortcuts";
    on: boolean;
  }
  | { type: "history-add"; entry: HistoryEntry }
  | { type: "history-clear"; fromReset: boolean }
  | { type: "link-plan"; plan?: LinkPlan }
  | { type: "replay-report"; report?: string }
  | { type: "texts"; variant: "A" | "B"; texts: TextsOverride }
  | { type: "notice"; notice?: string }
  | { type: "load-call"; request: ExecuteRequest };

/** Example arguments per tool, until the workspace's own come with the definitions. */
export const EXAMPLES: Readonly<Record<string, Args>> = FIXTURE_EXAMPLES;

function isSharedEntry(value: unknown): value is SharedEntry {
  return isObject(value) && isObject(value.call) && typeof value.call.tool === "string" &&
    (value.pane === "A" || value.pane === "B") && typeof value.hash === "string" &&
    isObject(value.tokens);
}

/**
 * The calls a shared link would run, in order: its history when it has one, else its panes'.
 *
 * @param shared What the link carries.
 * @returns The entries (a pane call without history has an empty hash and no tokens).
 */
export function linkEntries(shared: SharedState): SharedEntry[] {
  if (shared.history.length) return shared.history;
  return (["A", "B"] as const).flatMap((pane) => {
    const call = shared.panes[pane];
    return call ? [{ call, pane, hash: "", tokens: {} }] : [];
  });
}

function pretty(args: Args): string {
  return JSON.stringify(args, null, 2);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The first state.
 *
 * @param sessionId The tab's session id.
 * @param shared What the address carried, if anything.
 * @returns The state.
 */
export function initialState(sessionId: string, shared?: SharedState): State {
  const tool = shared?.tool ?? "read";
  const argsByTool = { ...EXAMPLES, ...(shared ? { [tool]: shared.args } : {}) };
  return {
    view: shared?.view ?? "calls",
    tool,
    argsByTool,
    jsonText: pretty(argsByTool[tool] ?? {}),
    config: shared?.config ?? {},
    policy: shared?.policy ?? true,
    tokenizers: shared?.tokenizers ?? [],
    sessionId,
    panes: {},
    treeVersion: 0,
    showWhitespace: false,
    wrap: false,
    showDiff: shared?.showDiff ?? false,
    history: [],
    historyFromReset: false,
    formCollapsed: false,
    showShortcuts: false,
    texts: shared?.texts ?? { A: {}, B: {} },
  };
}

/**
 * Applies an action.
 *
 * @param state The state.
 * @param action The change.
 * @returns The next state.
 */
export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case "defs": {
      // The workspace's own examples replace the built-in ones not yet edited (issue 34.9: with
      // --root the form names a file that exists there, not a fixture path).
      const argsByTool = { ...state.argsByTool };
      for (const [tool, args] of Object.entries(action.defs.examples ?? {})) {
        if (argsByTool[tool] === undefined || argsByTool[tool] === EXAMPLES[tool]) {
          argsByTool[tool] = args;
        }
      }
      const current = argsByTool[state.tool];
      return {
        ...state,
        argsByTool,
        jsonText: current !== state.argsByTool[state.tool] ? pretty(current) : state.jsonText,
        defs: action.defs,
        loadError: undefined,
        configError: undefined,
        tokenizers: state.tokenizers.length
          ? state.tokenizers.filter((t) => action.defs.tokenizers.some((x) => x.name === t))
          : [...action.defs.defaultTokenizers],
      };
    }
    case "defs-error":
      return state.defs
        ? { ...state, configError: action.message }
        : { ...state, loadError: action.message };
    case "view":
      return { ...state, view: action.view };
    case "tool": {
      const args = action.args ?? state.argsByTool[action.tool] ?? {};
      return {
        ...state,
        tool: action.tool,
        argsByTool: { ...state.argsByTool, [action.tool]: args },
        jsonText: pretty(args),
        jsonError: undefined,
      };
    }
    case "args":
      return {
        ...state,
        argsByTool: { ...state.argsByTool, [state.tool]: action.args },
        jsonText: pretty(action.args),
        jsonError: undefined,
      };
    case "json": {
      let parsed: unknown;
      try {
        parsed = JSON.parse(action.text);
      } catch (e) {
        return { ...state, jsonText: action.text, jsonError: (e as Error).message };
      }
      if (!isObject(parsed)) {
        return {
          ...state,
          jsonText: action.text,
          jsonError: "The arguments must be a JSON object.",
        };
      }
      return {
        ...state,
        jsonText: action.text,
        jsonError: undefined,
        argsByTool: { ...state.argsByTool, [state.tool]: parsed },
      };
    }
    case "config":
      return { ...state, config: action.config };
    case "policy":
      return { ...state, policy: action.policy };
    case "tokenizers":
      return { ...state, tokenizers: action.tokenizers };
    case "session-id":
      return { ...state, sessionId: action.id, session: undefined };
    case "session":
      return { ...state, session: action.session };
    case "running":
      return { ...state, running: action.pane };
    case "pane":
      return {
        ...state,
        running: state.running === action.pane ? undefined : state.running,
        panes: { ...state.panes, [action.pane]: action.state },
        session: action.state.response?.session ?? state.session,
      };
    case "tree":
      return { ...state, tree: action.tree };
    case "reset":
      return {
        ...state,
        session: undefined,
        treeVersion: state.treeVersion + 1,
        history: [],
        historyFromReset: true,
      };
    case "history-add":
      return { ...state, history: [...state.history, action.entry] };
    case "history-clear":
      return { ...state, history: [], historyFromReset: action.fromReset };
    case "link-plan":
      return { ...state, linkPlan: action.plan };
    case "replay-report":
      return { ...state, replayReport: action.report };
    case "texts":
      return { ...state, texts: { ...state.texts, [action.variant]: action.texts } };
    case "toggle":
      return { ...state, [action.key]: action.on };
    case "notice":
      return { ...state, notice: action.notice };
    case "load-call": {
      const next = reducer(state, {
        type: "tool",
        tool: action.request.tool,
        args: action.request.args ?? {},
      });
      return {
        ...next,
        config: action.request.config ?? {},
        policy: action.request.policy ?? true,
        view: "calls",
      };
    }
  }
}

/** The request a run sends, from the editor's state. */
export function currentRequest(state: State): ExecuteRequest {
  return {
    tool: state.tool,
    args: state.argsByTool[state.tool] ?? {},
    session: state.sessionId,
    ...(Object.keys(state.config).length ? { config: state.config } : {}),
    ...(state.policy ? {} : { policy: false }),
    ...(state.tokenizers.length ? { tokenizers: state.tokenizers } : {}),
  };
}

/** What the address carries. */
export interface SharedState {
  /** The view. */
  view: View;
  /** The tool in the editor. */
  tool: string;
  /** Its arguments. */
  args: Args;
  /** Config overrides. */
  config: Partial<ToolsConfig>;
  /** The gate. */
  policy: boolean;
  /** The tokenizers counted. */
  tokenizers: string[];
  /** Whether the line diff shows. */
  showDiff: boolean;
  /** The panes' calls (without session: a shared link runs in the opener's own session). */
  panes: Partial<Record<PaneLabel, SharedCall>>;
  /** The session's calls in order, with hashes of the author's results. */
  history: SharedEntry[];
  /** Whether the author's history started on a freshly reset workspace. */
  fromReset: boolean;
  /** Prompt variants. */
  texts: { A: TextsOverride; B: TextsOverride };
}

/**
 * The state worth sharing, as it goes into the address.
 *
 * @param state The state.
 * @returns `s=<base64url JSON>`, for the address's fragment.
 */
export function encodeShare(state: State): string {
  const shared: SharedState = {
    view: state.view,
    tool: state.tool,
    args: state.argsByTool[state.tool] ?? {},
    config: state.config,
    policy: state.policy,
    tokenizers: state.tokenizers,
    showDiff: state.showDiff,
    panes: {},
    history: state.history.map((e) => ({
      call: e.call,
      pane: e.pane,
      hash: e.hash,
      tokens: e.tokens,
    })),
    fromReset: state.historyFromReset,
    texts: state.texts,
  };
  for (const label of ["A", "B"] as const) {
    const request = state.panes[label]?.request;
    if (request) {
      const { session: _session, ...rest } = request;
      shared.panes[label] = rest;
    }
  }
  const bytes = new TextEncoder().encode(JSON.stringify(shared));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `s=${base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
}

/**
 * Reads shared state from an address fragment; anything malformed is ignored.
 *
 * @param hash `location.hash`.
 * @returns The shared state, or `undefined`.
 */
export function decodeShare(hash: string): SharedState | undefined {
  const shared = parseShare(hash);
  return shared && !unknownTool(shared) ? shared : undefined;
}

/**
 * The tool a link names that the playground does not run, if any: such a link is refused whole
 * (issue 30 item 8), so a crafted name never reaches the form, a replay or an exported script.
 *
 * @param hash `location.hash`.
 * @returns The first unknown tool name, or `undefined`.
 */
export function refusedShareTool(hash: string): string | undefined {
  const shared = parseShare(hash);
  return shared && unknownTool(shared);
}

function unknownTool(shared: SharedState): string | undefined {
  const names = [
    shared.tool,
    ...Object.values(shared.panes).map((call) => call?.tool),
    ...shared.history.map((entry) => entry.call.tool),
  ];
  return names.find((name) => typeof name !== "string" || !KNOWN_TOOLS.includes(name));
}

function parseShare(hash: string): SharedState | undefined {
  const found = /(?:^#|&)s=([A-Za-z0-9_-]+)/.exec(hash);
  if (!found) return undefined;
  try {
    const base64 = found[1].replaceAll("-", "+").replaceAll("_", "/");
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const value = JSON.parse(new TextDecoder().decode(bytes));
    if (!isObject(value) || typeof value.tool !== "string" || !isObject(value.args)) {
      return undefined;
    }
    const panes: SharedState["panes"] = {};
    if (isObject(value.panes)) {
      for (const label of ["A", "B"] as const) {
        const pane = value.panes[label];
        if (isObject(pane) && typeof pane.tool === "string") {
          panes[label] = pane as unknown as Omit<ExecuteRequest, "session">;
        }
      }
    }
    return {
      view: VIEW_NAMES.includes(value.view as View) ? value.view as View : "calls",
      tool: value.tool,
      args: value.args,
      config: isObject(value.config) ? value.config as Partial<ToolsConfig> : {},
      policy: value.policy !== false,
      tokenizers: Array.isArray(value.tokenizers)
        ? value.tokenizers.filter((t: unknown): t is string => typeof t === "string")
        : [],
      showDiff: value.showDiff === true,
      panes,
      history: Array.isArray(value.history) ? value.history.filter(isSharedEntry) : [],
      fromReset: value.fromReset === true,
      texts: isObject(value.texts) && isObject(value.texts.A) && isObject(value.texts.B)
        ? value.texts as SharedState["texts"]
        : { A: {}, B: {} },
    };
  } catch {
    return undefined;
  }
}
