/**
 * Which roots the MCP server works on (C13.2): the command line's, the client's, or the
 * client's that lie inside the command line's. SDK-free.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { isInside } from "../provider/roots.ts";
import type { RootAccess } from "../types.ts";

/** Where the roots in force came from. */
export type RootsSource = "command line" | "client";

/**
 * The roots in force. Without command-line roots, the client's (all writable). With them, each
 * client root inside one takes the access of the most specific command-line root containing it;
 * when no client root lies inside any, the command-line roots.
 *
 * @param cli The command-line roots, real paths.
 * @param client The client's roots as real paths, or `null` when the client gives none.
 * @returns The roots and where they came from.
 */
export function rootsInForce(
  cli: readonly RootAccess[],
  client: readonly string[] | null,
): { roots: RootAccess[]; source: RootsSource } {
  if (client === null) return { roots: [...cli], source: "command line" };
  if (cli.length === 0) {
    return { roots: unique(client).map((path) => ({ path, write: true })), source: "client" };
  }
  const inside: RootAccess[] = [];
  for (const path of unique(client)) {
    let best: RootAccess | undefined;
    for (const root of cli) {
      if (isInside(root.path, path) && (!best || root.path.length > best.path.length)) best = root;
    }
    if (best) inside.push({ path, write: best.write });
  }
  return inside.length > 0
    ? { roots: inside, source: "client" }
    : { roots: [...cli], source: "command line" };
}

/**
 * The identity of a directory at a real path, `"<dev>:<ino>"`, or `null` when the path is not a
 * directory itself (missing, or a symlink: `lstat`, links not followed).
 *
 * @param path A real path.
 * @returns The identity, or `null`.
 */
export function directoryIdentity(path: string): string | null {
  try {
    const info = Deno.lstatSync(path);
    return info.isDirectory ? `${info.dev}:${info.ino}` : null;
  } catch {
    return null;
  }
}

/**
 * The local paths of a `roots/list` answer: `file:` URIs only, each resolved to its real path;
 * a root that is not a `file:` URI or is not an existing directory is left out (and reported).
 * Each path comes with the identity of the directory found there (`directoryIdentity`), so the
 * caller can check that the provider it builds holds that very directory (issue 19).
 *
 * @param uris The `uri` of each root the client listed.
 * @returns The directories, their identities by path, and a note for each root left out.
 */
export async function clientRootPaths(
  uris: readonly string[],
): Promise<{ paths: string[]; ids: Map<string, string>; skipped: string[] }> {
  const paths: string[] = [];
  const ids = new Map<string, string>();
  const skipped: string[] = [];
  for (const uri of uris) {
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      skipped.push(`${JSON.stringify(uri)}: not a file: URI`);
      continue;
    }
    try {
      const real = await Deno.realPath(path);
      const id = directoryIdentity(real);
      if (id === null) {
        skipped.push(`${JSON.stringify(path)}: not a directory`);
        continue;
      }
      paths.push(real);
      ids.set(real, id);
    } catch (error) {
      skipped.push(
        `${JSON.stringify(path)}: ${
          error instanceof Deno.errors.NotFound ? "does not exist" : (
            error instanceof Error ? error.message : String(error)
          )
        }`,
      );
    }
  }
  return { paths, ids, skipped };
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}
