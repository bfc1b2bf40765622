/**
 * `createFsTools`: the tools over a provider, with validation, the policy gate, events and
 * error results (CONTRACT C1).
 *
 * @module
 */

import { resolve } from "node:path";
import { type FsToolsConfig, resolveConfig } from "../config.ts";
import { FsError } from "../fs_error.ts";
import {
  type FsObservation,
  type FsPolicy,
  NO_POLICY,
  ReadBeforeWritePolicy,
} from "../policy/read_before_write.ts";
import type { FsProvider, FsTarget } from "../provider/fs_provider.ts";
import { displayPath, findRoot } from "../provider/roots.ts";
import { toFsError } from "../provider/to_fs_error.ts";
import {
  IO_DETAILS,
  renderFailure,
  sessionNotObjectMessage,
  unknownToolMessage,
  VALIDATION_MESSAGES,
} from "../render/errors.ts";
import { ARGUMENTS_NOT_OBJECT, unknownArgumentMessage } from "../render/hints.ts";
import { notOfferedMessage } from "../render/entry_render.ts";
import { closestKey } from "../text/close_names.ts";
import { presentToolCall, type ToolCallPresentation } from "../present/acp.ts";
import type { FsTextsOverride } from "../present/texts.ts";
import { definitionsOf, selectTools } from "../present/definitions.ts";
import { invalid, optional } from "./_args.ts";
import { LineIndexCache, type Tool, type ToolEnv, type ToolSuccess } from "./_context.ts";
import { queueOf } from "../keyed_queue.ts";
import type { FsOp, FsToolDefinition, FsToolName, FsToolResult, FsToolValue } from "../types.ts";
import { deleteTool } from "./delete.ts";
import { editTool } from "./edit.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep/mod.ts";
import { listTool } from "./list.ts";
import { moveTool } from "./move.ts";
import { readTool } from "./read.ts";
import { notFoundSuggestions, outsideRootSuggestions } from "./suggest_paths.ts";
import { type PatchArgs, patchTool } from "./patch/patch.ts";
import { writeTool } from "./write.ts";

export { toolDefinitions, type ToolDefinitionsOptions } from "../present/definitions.ts";

/** The registry: each tool's `{ parse, run }`, by name. */
/** Linux's PATH_MAX in bytes (with the NUL): no path of this many UTF-16 units exists. */
const PATH_MAX = 4096;

const TOOLS: Readonly<Record<FsToolName, Tool<unknown>>> = {
  list: listTool,
  read: readTool,
  write: writeTool,
  edit: editTool,
  glob: globTool,
  grep: grepTool,
  move: moveTool,
  delete: deleteTool,
  patch: patchTool,
};

/** The tools a provider's {@linkcode FsProvider.entriesNeed} withholds (C15.5). */
const ENTRY_TOOLS: readonly FsToolName[] = ["move", "delete"];

/** What the one catch needs to know about a call, filled in as the call learns it. */
interface Call {
  op: FsOp;
  /** The target as the caller gave it (`.` when absent). */
  given: string;
  /** The absolute session directory. */
  here: string;
  signal: AbortSignal | undefined;
}

/**
 * A provider that can tell its roots: every provider can now (`roots` is part of
 * {@linkcode FsProvider}).
 *
 * @deprecated Use {@linkcode FsProvider}.
 */
export type FsProviderWithRoots = FsProvider;

/** Options of {@linkcode createFsTools}. */
export interface CreateFsToolsOptions {
  /** The file system, e.g. a `LocalFileSystem`. */
  fs: FsProvider;
  /**
   * The default session directory; relative resolves against the first root.
   * @default {the first root}
   */
  cwd?: string;
  /**
   * `true`: the read-before-write gate; `false`: none; or a policy object of your own.
   * @default {true}
   */
  policy?: boolean | FsPolicy;
  /** Overrides of the caps (C2). */
  config?: Partial<FsToolsConfig>;
  /**
   * The tools to expose, e.g. `["list", "read", "glob", "grep"]` for a read-only agent (C9.1),
   * or the six with `"move"` and `"delete"`, which are opt-in (C15.1). Where the provider
   * cannot rule out a race for them (`fs.entriesNeed()`: a `LocalFileSystem` without Deno's
   * `--allow-all` on Linux), `move` and `delete` are left out, and a call to them says what
   * they need (C15.5).
   * @default {list, read, write, edit, glob, grep}
   */
  tools?: readonly FsToolName[];
  /**
   * Your own texts for the definitions: per tool a `description`, `guidance` (its system-prompt
   * section; `""` drops it) and `parameters` (argument descriptions by name). Schemas and
   * behaviour stay the library's. An unknown tool, field or argument throws a `TypeError` that
   * names it.
   *
   * @example Ship a prompt variant
   * ```ts
   * import { createFsTools } from "@toolfs/fs";
   * import { MemoryFileSystem } from "@toolfs/fs/memory";
   * import assert from "node:assert/strict";
   *
   * const tools = createFsTools({
   *   fs: new MemoryFileSystem({ roots: ["/w"] }),
   *   texts: { read: { description: "Read a file.", parameters: { offset: "Start line." } } },
   * });
   * const read = tools.definitions.find((d) => d.name === "read")!;
   * assert.equal(read.description, "Read a file.");
   * assert.equal(read.inputSchema.properties.offset.description, "Start line.");
   * ```
   */
  texts?: FsTextsOverride;
}

/** Per-call context of {@linkcode FsTools.execute}. */
export interface FsCallContext {
  /** The session directory for this call (relative resolves against the tools' `cwd`). */
  cwd?: string;
  /** Cancels the call. */
  signal?: AbortSignal;
  /** The session read observations are scoped to; any object. */
  session?: object;
}

/** Detail of the events {@linkcode FsTools.events} dispatches. */
export interface FsToolEventDetail extends FsObservation {}

/** The tools, ready to execute. */
export interface FsTools {
  /**
   * The definitions in the order list, read, write, edit, glob, grep, move, delete (the selected
   * ones).
   */
  readonly definitions: readonly FsToolDefinition[];
  /** The resolved caps. */
  readonly config: Readonly<FsToolsConfig>;
  /** The absolute default session directory. */
  readonly cwd: string;
  /**
   * Dispatches `read`, `write`, `edit`, `move` and `delete` `CustomEvent`s with
   * {@linkcode FsToolEventDetail}.
   */
  readonly events: EventTarget;
  /** Runs a tool. Resolves to an error result, never rejects, for a tool-level failure. */
  execute(name: string, args: unknown, ctx?: FsCallContext): Promise<FsToolResult>;
  /** Presents a call for an ACP client; synchronous, touches no file (C8). */
  presentCall(name: string, args: unknown, ctx?: FsCallContext): ToolCallPresentation;
}

/**
 * Creates the tools over a provider.
 *
 * @param options The provider, default cwd, policy and caps.
 * @returns The tools.
 * @throws {Error} When `cwd` lies outside every root or a config value is invalid.
 *
 * @example Read a file
 * ```ts
 * import { createFsTools, LocalFileSystem } from "@toolfs/fs";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/README.md`, "one\ntwo\n");
 * const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
 * const result = await tools.execute("read", { file_path: "README.md", limit: 1 });
 * assert.equal(result.isError, false);
 * assert.deepEqual(result.value, { path: `${await Deno.realPath(root)}/README.md`, offset: 1, lines: [{ number: 1, text: "one" }], totalLines: 2 });
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function createFsTools(options: CreateFsToolsOptions): FsTools {
  const fs = options?.fs;
  if (!fs || !Array.isArray(fs.roots) || fs.roots.length === 0) {
    throw new TypeError("createFsTools needs { fs }: a provider with at least one root");
  }
  const config = resolveConfig(options.config);
  const cwd = resolve(fs.roots[0].path, options.cwd ?? ".");
  // Decided on the real path where the provider can tell it: a link to outside is outside.
  const realCwd = fs.realPathSync?.(cwd) ?? cwd;
  if (!findRoot(fs.roots, cwd) || !findRoot(fs.roots, realCwd)) {
    throw new Error(
      `cwd "${options.cwd ?? cwd}" lies outside every root${
        realCwd === cwd ? "" : ` (it resolves to ${realCwd})`
      }: ${fs.roots.map((r) => r.path).join(", ")}`,
    );
  }
  const policy: FsPolicy = options.policy === undefined || options.policy === true
    ? new ReadBeforeWritePolicy()
    : options.policy === false
    ? NO_POLICY
    : options.policy;
  const defaultSession = {};
  const events = new EventTarget();
  const lineIndexes = new LineIndexCache();
  const mutations = queueOf(fs);
  const asked = selectTools(options.tools);
  // C15.5: where the provider cannot rule out a race, `move` and `delete` are not offered, and
  // a call to them says what they need.
  const need = fs.entriesNeed?.() ?? null;
  const names = need === null ? asked : asked.filter((name) => !ENTRY_TOOLS.includes(name));
  const definitions = definitionsOf(names, config, options.texts);

  function sessionCwd(ctx: FsCallContext): string {
    return typeof ctx.cwd === "string" && ctx.cwd !== "" ? resolve(cwd, ctx.cwd) : cwd;
  }

  function execute(name: string, args: unknown, ctx: FsCallContext = {}): Promise<FsToolResult> {
    const call: Call = { op: name as FsOp, given: ".", here: cwd, signal: ctx?.signal };
    return settle(call, () => dispatch(name, args, ctx ?? {}, call));
  }

  /**
   * Runs a tool's executor on arguments parsed elsewhere, through the same checks, session,
   * locks and catch as `execute`, whether or not these tools expose it: the apply_patch hosts
   * hand `patch`'s engine the operations they built (C16.4).
   */
  function run<A>(
    tool: Tool<A>,
    op: FsOp,
    args: A,
    ctx: FsCallContext = {},
  ): Promise<FsToolResult> {
    const call: Call = { op, given: ".", here: cwd, signal: ctx?.signal };
    return settle(call, () => {
      checkSession(ctx ?? {});
      call.here = sessionCwd(ctx ?? {});
      return runParsed(tool, args, ctx ?? {}, call, false);
    });
  }

  /** The result of a call: its success, or its failure as text (the one catch). */
  async function settle(
    call: Call,
    task: () => Promise<ToolSuccess<FsToolValue>>,
  ): Promise<FsToolResult> {
    try {
      const { content, value, attachments } = await task();
      return attachments
        ? { content, isError: false, value, attachments }
        : { content, isError: false, value };
    } catch (error) {
      // The one place a failure becomes text.
      const e = toFsError(error, call.signal);
      // A path too long to exist is shown as given (clipped by the renderer): resolving millions
      // of components takes seconds (issue 19).
      const target = call.given.length >= PATH_MAX ? call.given : resolve(call.here, call.given);
      const suggestions = e.hasMessage
        ? []
        : e.code === "FS_NOT_FOUND" && call.op !== "write"
        ? await notFoundSuggestions(fs, call.op, target, call.here, call.signal)
        : e.code === "FS_OUTSIDE_ROOT"
        ? await outsideRootSuggestions(fs, call.op, call.given, call.here, call.signal)
        : [];
      const shown = displayPath(call.here, target);
      return {
        content: renderFailure(e, call.op, { given: call.given, shown }, suggestions),
        isError: true,
        error: { name: "FsError", code: e.code },
      };
    }
  }

  /** Looks the tool up, parses its arguments, checks the call, then runs it. */
  function dispatch(
    name: string,
    args: unknown,
    ctx: FsCallContext,
    call: Call,
  ): Promise<ToolSuccess<FsToolValue>> {
    const definition = definitions.find((d) => d.name === name);
    if (!definition && need !== null && asked.includes(name as FsToolName)) {
      throw new FsError("FS_PERMISSION_DENIED", { message: notOfferedMessage(name, need) });
    }
    if (!definition) {
      throw new FsError("FS_UNKNOWN_TOOL", {
        message: unknownToolMessage(String(name), definitions.map((d) => d.name)),
      });
    }
    checkSession(ctx);
    const a = checkArguments(args, definition);
    // The target argument: `file_path` where the schema has one, `move`'s `source_path`, else
    // `path` (list, delete, and the search tools' directory).
    const properties = definition.inputSchema.properties;
    const byFilePath = "file_path" in properties;
    const given = byFilePath
      ? a.file_path
      : "source_path" in properties
      ? a.source_path
      : optional(a.path);
    call.given = typeof given === "string" && given !== "" ? given : ".";
    call.here = sessionCwd(ctx);
    const tool = TOOLS[definition.name];
    return runParsed(tool, tool.parse(a, config), ctx, call, byFilePath);
  }

  /** Runs a tool on parsed arguments: abort, the target's NUL and length, the session cwd. */
  async function runParsed<A>(
    tool: Tool<A>,
    parsed: A,
    ctx: FsCallContext,
    call: Call,
    byFilePath: boolean,
  ): Promise<ToolSuccess<FsToolValue>> {
    if (call.signal?.aborted) throw new FsError("FS_ABORTED");
    if (call.given.includes("\0")) {
      throw invalid(byFilePath ? VALIDATION_MESSAGES.filePathNul : VALIDATION_MESSAGES.pathNul);
    }
    if (call.given.length >= PATH_MAX) {
      throw new FsError("FS_IO_ERROR", { detail: IO_DETAILS.nameTooLong });
    }
    const here = call.here;
    if (here !== cwd) await fs.resolve(here, { cwd: here, op: call.op, signal: call.signal });
    const env: ToolEnv = {
      fs,
      config,
      policy,
      session: ctx.session ?? defaultSession,
      cwd: here,
      signal: call.signal,
      lineIndexes,
      serialize: (realPath, task) => mutations.run(realPath, task, call.signal),
      emit(op, target: FsTarget, version, from?: FsTarget) {
        const detail: FsObservation = {
          op,
          session: env.session,
          path: target.path,
          realPath: target.realPath,
          version,
        };
        if (from) detail.from = from.realPath;
        policy.observed(detail);
        events.dispatchEvent(new CustomEvent(op, { detail }));
      },
    };
    return await tool.run(parsed, env);
  }

  /** Observations are keyed by the session object (a WeakMap): a string id would fail only
   * after the write had landed, so it is refused up front. */
  function checkSession(ctx: FsCallContext): void {
    const session: unknown = ctx.session;
    if (session != null && typeof session !== "object" && typeof session !== "function") {
      throw invalid(sessionNotObjectMessage(typeof session));
    }
  }

  return new CreatedTools({
    definitions,
    config,
    cwd,
    events,
    execute,
    presentCall(name, args, ctx = {}) {
      // A tool these tools do not offer is unknown here, as `execute` says (C8).
      if (!names.includes(name as FsToolName)) return { title: name, kind: "other" };
      return presentToolCall(name, args, sessionCwd(ctx ?? {}));
    },
    run,
  });
}

/** What {@linkcode CreatedTools} is made of: the tools' members and their private runner. */
interface ToolsParts extends FsTools {
  run<A>(tool: Tool<A>, op: FsOp, args: A, ctx?: FsCallContext): Promise<FsToolResult>;
}

/**
 * The tools object `createFsTools` returns: its members as own properties (so a spread copies
 * them), and a private runner only {@linkcode runPatch} reaches.
 */
class CreatedTools implements FsTools {
  readonly definitions: readonly FsToolDefinition[];
  readonly config: Readonly<FsToolsConfig>;
  readonly cwd: string;
  readonly events: EventTarget;
  readonly execute: FsTools["execute"];
  readonly presentCall: FsTools["presentCall"];
  readonly #run: ToolsParts["run"];

  constructor(parts: ToolsParts) {
    this.definitions = parts.definitions;
    this.config = parts.config;
    this.cwd = parts.cwd;
    this.events = parts.events;
    this.execute = parts.execute;
    this.presentCall = parts.presentCall;
    this.#run = parts.run;
  }

  /** Runs `patch`'s engine on parsed operations through `tools` (see {@linkcode runPatch}). */
  static runPatch(tools: FsTools, args: PatchArgs, ctx?: FsCallContext): Promise<FsToolResult> {
    if (!(#run in tools)) throw new TypeError("runPatch needs tools made by createFsTools");
    return tools.#run(patchTool, "patch", args, ctx);
  }
}

/**
 * Runs parsed V4A operations through `patch`'s engine and the tools (their roots, policy,
 * sessions and locks), even when `patch` is not among the tools they expose: the apply_patch
 * hosts (C16.4) bring their own tool declaration and build the operations themselves.
 *
 * @param tools Tools from {@linkcode createFsTools}.
 * @param args The operations, and the text the policy's intents quote.
 * @param ctx The call's context.
 * @returns The result a `patch` call gives.
 * @throws {TypeError} For tools that `createFsTools` did not make.
 */
export function runPatch(
  tools: FsTools,
  args: PatchArgs,
  ctx?: FsCallContext,
): Promise<FsToolResult> {
  return CreatedTools.runPatch(tools, args, ctx);
}

/**
 * The arguments as an object (absent or `null` = `{}`); refused when not an object or with a key
 * the tool's schema does not have, checked before anything else (C12.1).
 */
function checkArguments(args: unknown, definition: FsToolDefinition): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args !== "object" || Array.isArray(args)) throw invalid(ARGUMENTS_NOT_OBJECT);
  const properties = Object.keys(definition.inputSchema.properties);
  for (const key of Object.keys(args)) {
    if (!properties.includes(key)) {
      throw invalid(
        unknownArgumentMessage(key, definition.name, closestKey(key, properties), properties),
      );
    }
  }
  return args as Record<string, unknown>;
}
