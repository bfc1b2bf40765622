/**
 * What a tool spec holds (`ToolSpec`), and the small helpers the specs share: the ACP
 * presentation types and clipping (C8), the MCP annotation and output-schema shapes.
 *
 * A tool is declared once, in `specs/<tool>.ts`; every surface (definitions, guidance, MCP tools
 * and output schemas, ACP presentation, wire formats) loops over `SPECS` in `specs/mod.ts`.
 *
 * @module
 */

import { resolve } from "node:path";
import type { FsToolsConfig } from "../../config.ts";
import type { ToolInputSchema } from "../../types.ts";

/** The MCP tool annotations toolfs sets (all hints). */
export interface McpToolAnnotations {
  /** `true` for the tools that change nothing (`list`, `read`, `glob`, `grep`). */
  readOnlyHint: boolean;
  /** `true` for the tools that may destroy data; absent on the read-only tools. */
  destructiveHint?: boolean;
  /** Whether repeating the same call has no further effect. */
  idempotentHint: boolean;
  /** Always `false`: the tools touch only the roots. */
  openWorldHint: false;
}

/** A JSON Schema object, as MCP `outputSchema` takes it. */
export type OutputSchema = { type: "object" } & Record<string, unknown>;

/** A file a call reads or changes, for an editor to follow. */
export interface ToolCallLocation {
  /** Absolute path (lexical). */
  path: string;
  /** 1-based line, when known. */
  line?: number;
}

/** The ACP tool kinds toolfs uses. */
export type AcpToolKind = "read" | "edit" | "delete" | "move" | "search" | "other";

/** The ACP `tool_call` fields toolfs fills in. */
export interface ToolCallPresentation {
  /** A short human title. */
  title: string;
  /** The ACP tool kind. */
  kind: AcpToolKind;
  /** The arguments worth showing. */
  rawInput?: Record<string, unknown>;
  /** The files involved. */
  locations?: ToolCallLocation[];
}

/** One tool, declared once. */
export interface ToolSpec {
  /** The one-line description a model sees (C1.3). */
  description: string;
  /** The tool's system-prompt section (C1.3). */
  guidance: string;
  /**
   * The input schema for the resolved caps (a fresh object per call).
   *
   * @param config The resolved caps.
   * @returns The schema.
   */
  inputSchema(config: Readonly<FsToolsConfig>): ToolInputSchema;
  /** The MCP tool annotations. */
  annotations: Readonly<McpToolAnnotations>;
  /** The MCP `outputSchema` of the tool's structured value (C6), loose on purpose. */
  outputSchema: Readonly<OutputSchema>;
  /**
   * Presents a call as an ACP `tool_call` (C8): synchronous, no file access.
   *
   * @param args The call's arguments as an object (need not be valid).
   * @param cwd The absolute session directory locations resolve against.
   * @returns Title, kind, rawInput and locations.
   */
  present(args: Readonly<Record<string, unknown>>, cwd: string): ToolCallPresentation;
}

/** The description of a path argument. */
export const PATH_ARGUMENT = { type: "string", description: "Absolute or workspace-relative." };

/** The description of an optional directory argument. */
export const DIRECTORY_ARGUMENT = { type: "string", description: "Directory; default: workspace." };

/**
 * A glob argument (C9.3): one pattern or a list of them, as `anyOf` branches of one `type` each
 * (a `type` array is legal JSON Schema, but clients that map schemas onto a single-`type`
 * dialect, such as Gemini's function declarations, may reject it; issue 34 item 4).
 */
export const GLOBS = { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] };

/** The `offset` of the search tools: the first result to show (C10, C11). */
export const OFFSET = { type: "integer", minimum: 1 };

/** The `limit` of the search tools: the most results to show (C10, C11). */
export const LIMIT = { type: "integer", minimum: 1 };

/** A string in an output schema. */
export const TEXT = { type: "string" };

/** A count in an output schema. */
export const COUNT = { type: "integer", minimum: 0 };

/** The annotations of a tool that changes nothing. */
export const READ_ONLY: Readonly<McpToolAnnotations> = Object.freeze({
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: false,
});

/**
 * An input schema: `properties`, `required`, no other argument.
 *
 * @param properties The arguments, snake_case.
 * @param required The required ones.
 * @returns The schema.
 */
export function inputObject(
  properties: ToolInputSchema["properties"],
  required: string[] = [],
): ToolInputSchema {
  return { type: "object", properties, required, additionalProperties: false };
}

/**
 * An output schema: `properties` and the `required` ones, other fields allowed (loose, C6).
 *
 * @param properties The fields.
 * @param required The required ones.
 * @returns The schema.
 */
export function outputObject(
  properties: Record<string, unknown>,
  required: string[],
): OutputSchema {
  return { type: "object", properties, required };
}

/**
 * The annotations of a tool that changes files.
 *
 * @param hints Whether it may destroy data, and whether repeating a call changes nothing more.
 * @returns The annotations.
 */
export function changing(
  hints: { destructive: boolean; idempotent: boolean },
): Readonly<McpToolAnnotations> {
  return Object.freeze({
    readOnlyHint: false,
    destructiveHint: hints.destructive,
    idempotentHint: hints.idempotent,
    openWorldHint: false,
  });
}

/**
 * A one-file call's presentation (C8): `<Verb> <path>`, the path as location.
 *
 * @param verb The title's verb.
 * @param path The path argument as given (anything).
 * @param cwd The absolute session directory.
 * @param fields The kind, and the rawInput worth showing.
 * @returns The presentation.
 */
export function presentFile(
  verb: string,
  path: unknown,
  cwd: string,
  fields: Pick<ToolCallPresentation, "kind" | "rawInput">,
): ToolCallPresentation {
  const given_ = given(path) ? path : "";
  return withLocations({ title: titled(verb, given_), ...fields }, locate(cwd, { path: given_ }));
}

const CLIP = 80;

/**
 * Clips text to at most 80 code points; a clipped one ends in `…`.
 *
 * @param text The text.
 * @returns The clipped text.
 *
 * @example
 * ```ts
 * import { clip } from "./spec.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(clip("x".repeat(100)), `${"x".repeat(79)}…`);
 * assert.equal(clip("short"), "short");
 * ```
 */
export function clip(text: string): string {
  const points = Array.from(text);
  return points.length <= CLIP ? text : points.slice(0, CLIP - 1).join("") + "…";
}

/**
 * Whether an argument is a non-empty string.
 *
 * @param value The argument.
 * @returns `true` for a non-empty string.
 */
export function given(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

/**
 * `<verb> <path>`, or the bare verb when the call names no path.
 *
 * @param verb The title's verb.
 * @param path The path as given, or `""`.
 * @returns The title.
 */
export function titled(verb: string, path: string): string {
  return path ? `${verb} ${path}` : verb;
}

/**
 * The locations of a call: the path resolved lexically against the cwd, none for an empty path
 * or one with a NUL byte.
 *
 * @param cwd The absolute session directory.
 * @param paths The paths as given, with their line where known.
 * @returns The locations, or `undefined` when there are none.
 */
export function locate(
  cwd: string,
  ...paths: { path: string; line?: number }[]
): ToolCallLocation[] | undefined {
  const out: ToolCallLocation[] = [];
  for (const { path, line } of paths) {
    if (path === "" || path.includes("\0")) continue;
    out.push(
      line === undefined ? { path: resolve(cwd, path) } : { path: resolve(cwd, path), line },
    );
  }
  return out.length > 0 ? out : undefined;
}

/**
 * A presentation with its locations, when there are any.
 *
 * @param presentation Title, kind and rawInput.
 * @param locations The locations.
 * @returns The presentation.
 */
export function withLocations(
  presentation: ToolCallPresentation,
  locations: ToolCallLocation[] | undefined,
): ToolCallPresentation {
  return locations ? { ...presentation, locations } : presentation;
}

/**
 * A search call's presentation (C8): `<Verb> <pattern>`, `… in <path>` when a path is given,
 * kind `search`, the search path as location.
 *
 * @param verb `Glob` or `Grep`.
 * @param a The arguments.
 * @param cwd The absolute session directory.
 * @returns The presentation.
 */
export function presentSearch(
  verb: string,
  a: Readonly<Record<string, unknown>>,
  cwd: string,
): ToolCallPresentation {
  // A list of globs (C9.3) shows as its JSON, as the footers quote it.
  const pattern = typeof a.pattern === "string"
    ? a.pattern
    : Array.isArray(a.pattern)
    ? JSON.stringify(a.pattern)
    : "";
  const title = given(a.path) ? `${verb} ${pattern} in ${a.path}` : `${verb} ${pattern}`;
  return withLocations(
    { title, kind: "search" },
    locate(cwd, { path: given(a.path) ? a.path : "." }),
  );
}
