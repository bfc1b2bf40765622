/**
 * The `patch` tool, declared once (C16): texts, schema, annotations, output schema, ACP.
 *
 * @module
 */

import {
  changing,
  inputObject,
  locate,
  outputObject,
  TEXT,
  type ToolCallPresentation,
  type ToolSpec,
  withLocations,
} from "./spec.ts";

/** `patch`: add, update, move and delete files in one all-or-nothing V4A patch. */
export const PATCH_SPEC: ToolSpec = {
  description:
    "Apply a V4A patch (*** Begin Patch … *** End Patch) that adds, updates, moves or deletes files, all or nothing.",
  guidance:
    'Use patch for changes across several files at once (a rename, say): one call, and nothing changes unless every hunk applies. Format: "*** Begin Patch", then per file "*** Add File: <path>" with "+" lines, "*** Delete File: <path>", or "*** Update File: <path>" (optionally "*** Move to: <path>") with hunks that start with "@@" (or "@@ <a line above the change>") made of " " context, "-" removed and "+" added lines, then "*** End Patch". Give 3 lines of context around each change. Files you update or delete must have been read (a grep content view counts) and be unchanged since.',
  inputSchema: () =>
    inputObject({
      patch: { type: "string", description: "The whole patch, *** Begin Patch to *** End Patch." },
    }, ["patch"]),
  annotations: changing({ destructive: true, idempotent: false }),
  outputSchema: outputObject({
    operations: {
      type: "array",
      items: outputObject({
        kind: { enum: ["add", "update", "delete"] },
        path: TEXT,
        movedTo: TEXT,
      }, ["kind", "path"]),
    },
  }, ["operations"]),
  present(a, cwd) {
    return presentPatch(typeof a.patch === "string" ? a.patch : "", cwd);
  },
};

/** `Patch <path>` (`… and <n> more files`), kind `edit`, a location per path the patch names. */
function presentPatch(patch: string, cwd: string): ToolCallPresentation {
  const paths = patchPaths(patch);
  if (paths.length === 0) return { title: "Patch", kind: "edit" };
  const files = new Set(paths).size;
  const title = files <= 1
    ? `Patch ${paths[0]}`
    : `Patch ${paths[0]} and ${files - 1} more ${files === 2 ? "file" : "files"}`;
  return withLocations({ title, kind: "edit" }, locate(cwd, ...paths.map((path) => ({ path }))));
}

const PATH_MARKERS = ["*** Add File:", "*** Delete File:", "*** Update File:", "*** Move to:"];

/**
 * The paths a patch's operation headers name, in order, read from the headers alone: the parser
 * lives with the tool (src/tools/patch/), above this layer, and a title needs no more.
 */
function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const trimmed = line.trim();
    const marker = PATH_MARKERS.find((m) => trimmed.startsWith(m));
    const path = marker === undefined ? "" : trimmed.slice(marker.length).trim();
    if (path !== "") paths.push(path);
  }
  return paths;
}
