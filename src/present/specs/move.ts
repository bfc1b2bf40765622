/**
 * The `move` tool, declared once (C15.2): texts, schema, annotations, output schema, ACP.
 *
 * @module
 */

import {
  changing,
  given,
  inputObject,
  locate,
  outputObject,
  PATH_ARGUMENT,
  TEXT,
  type ToolSpec,
  withLocations,
} from "./spec.ts";

/** `move`: a file or directory to a new path, never over an existing one. */
export const MOVE_SPEC: ToolSpec = {
  description: "Move or rename a file or directory; never overwrites.",
  guidance:
    "Use move, not mv, to rename or move a file or directory (missing parents are created). It never overwrites: delete what is in the way first. No read is needed.",
  inputSchema: () =>
    inputObject({ source_path: { ...PATH_ARGUMENT }, destination_path: { ...PATH_ARGUMENT } }, [
      "source_path",
      "destination_path",
    ]),
  annotations: changing({ destructive: false, idempotent: false }),
  outputSchema: outputObject(
    { from: TEXT, to: TEXT, type: { enum: ["file", "directory", "other"] } },
    ["from", "to", "type"],
  ),
  present(a, cwd) {
    const source = given(a.source_path) ? a.source_path : "";
    const destination = given(a.destination_path) ? a.destination_path : "";
    const title = source && destination
      ? `Move ${source} to ${destination}`
      : source
      ? `Move ${source}`
      : "Move";
    return withLocations(
      { title, kind: "move" },
      locate(cwd, { path: source }, { path: destination }),
    );
  },
};
