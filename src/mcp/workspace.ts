/**
 * The roots, tools and policy all sessions of one MCP server share: the command-line roots,
 * checked once, and the tools on each set of client roots, cached by path, access and identity
 * (C13.2, issue 19).
 *
 * @module
 */

import { createFsTools, type FsTools, toolDefinitions } from "../tools/tools.ts";
import { localEntriesNeed, LocalFileSystem, type RootSpec } from "../provider/local/local_fs.ts";
import { ReadBeforeWritePolicy } from "../policy/read_before_write.ts";
import { SERVED_TOOLS } from "../present/specs/mod.ts";
import type { FsToolName, RootAccess } from "../types.ts";
import { notOfferedLine } from "../render/entry_render.ts";
import { directoryIdentity } from "./roots.ts";
import type { McpServerOptions } from "./options.ts";

/** Tools and the roots their provider holds (what the log reports as in force). */
export interface ToolsInForce {
  /** The tools, or `null` when no root can be used. */
  tools: FsTools | null;
  /** The roots the provider holds. */
  roots: RootAccess[];
  /** Each root asked for and left out, with why (`"/w" changed while it was checked: refused`). */
  leftOut: string[];
}

/** The roots, tools and policy all sessions of one server share. */
export class Workspace {
  /** The command-line roots, resolved (empty when the client provides roots). */
  readonly cli: RootAccess[];
  /** The server's options. */
  readonly options: McpServerOptions;
  /** Where events go, one line each. */
  readonly log: (line: string) => void;
  /** The read-before-write policy every session shares, or `false`. */
  readonly policy: ReadBeforeWritePolicy | false;
  /** The definitions, which depend on the config only. */
  readonly definitions: FsTools["definitions"];
  #tools = new Map<string, ToolsInForce>();

  /**
   * Checks the command-line roots (throws when one is unusable) and builds their tools.
   *
   * @param roots The command-line roots; may be empty.
   * @param options The server's options.
   */
  constructor(roots: readonly RootSpec[], options: McpServerOptions) {
    this.options = options;
    this.log = options.log ?? ((line) => console.error(line));
    this.policy = options.policy === false ? false : new ReadBeforeWritePolicy();
    if (roots.length > 0) {
      const fs = new LocalFileSystem({ roots });
      this.cli = fs.roots.map((r) => ({ path: r.path, write: r.writable }));
      const k = JSON.stringify(this.cli.map((r) => [r.path, r.write, directoryIdentity(r.path)]));
      this.#tools.set(k, { tools: this.#create(fs, true), roots: this.cli, leftOut: [] });
    } else {
      this.cli = [];
    }
    // C15.5: the tools leave out move and delete where a race could take them outside the roots;
    // tools/list says what the tools offer, and the log says why.
    const served = options.tools ?? SERVED_TOOLS;
    const need = localEntriesNeed();
    const withheld: FsToolName[] = need === null
      ? []
      : served.filter((name) => name === "move" || name === "delete");
    if (withheld.length > 0) {
      this.log(`toolfs mcp: ${notOfferedLine(withheld, need!)}`);
    }
    this.definitions = toolDefinitions({
      config: options.config,
      tools: served.filter((name) => !withheld.includes(name)),
    });
  }

  /**
   * The tools on the given roots (`null` when none of them can be used) and the roots they
   * hold. A root is handed to the provider as the real path that was checked, and the provider
   * is kept only when the roots it resolved are those very paths, holding the directories of
   * `ids` (the identities they were checked with): a directory swapped for a link between the
   * check and the provider is refused, never resolved to somewhere else (issue 19). Cached by
   * path, access and identity (device and inode), so a later session never inherits a root
   * that changed since.
   */
  toolsFor(
    roots: readonly RootAccess[],
    fromCli: boolean,
    ids: ReadonlyMap<string, string> = new Map(),
  ): ToolsInForce {
    const idOf = (path: string) => ids.get(path) ?? directoryIdentity(path);
    const k = JSON.stringify(roots.map((root) => [root.path, root.write, idOf(root.path)]));
    const cached = this.#tools.get(k);
    if (cached) return cached;
    let fs: LocalFileSystem | null = null;
    let complete = false;
    const leftOut: string[] = [];
    if (roots.length > 0) {
      try {
        fs = this.#checked(roots, idOf);
        complete = true;
      } catch {
        const usable = roots.filter((root) => {
          try {
            this.#checked([root], idOf);
            return true;
          } catch (error) {
            this.log(`toolfs mcp: root ${root.path} left out: ${message(error)}`);
            leftOut.push(message(error));
            return false;
          }
        });
        if (usable.length > 0) {
          try {
            fs = this.#checked(usable, idOf);
          } catch (error) {
            this.log(`toolfs mcp: roots left out: ${message(error)}`);
            leftOut.push(message(error));
          }
        }
      }
    }
    const inForce: ToolsInForce = fs
      ? {
        tools: this.#create(fs, fromCli),
        roots: fs.roots.map((root) => ({ path: root.path, write: root.writable })),
        leftOut,
      }
      : { tools: null, roots: [], leftOut };
    // A root left out may be usable next time (it was being swapped, say): not cached.
    if (complete || roots.length === 0) this.#tools.set(k, inForce);
    return inForce;
  }

  /** A provider on `roots`, refused unless it holds exactly the checked directories. */
  #checked(
    roots: readonly RootAccess[],
    idOf: (path: string) => string | null,
  ): LocalFileSystem {
    const expected = roots.map((root) => idOf(root.path));
    const fs = new LocalFileSystem({ roots });
    fs.roots.forEach((held, i) => {
      const want = roots[i].path;
      if (held.path !== want || expected[i] === null || directoryIdentity(want) !== expected[i]) {
        throw new Error(`${JSON.stringify(want)} changed while it was checked: refused`);
      }
    });
    return fs;
  }

  #create(fs: LocalFileSystem, fromCli: boolean): FsTools {
    return createFsTools({
      fs,
      cwd: fromCli ? this.options.cwd : undefined,
      policy: this.policy,
      config: this.options.config,
      tools: this.options.tools ?? SERVED_TOOLS,
    });
  }
}

/** An error's message, or the thrown value as text. */
export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
