// The failure-path hints of `edit` (CONTRACT C12.3, C12.4) and the success snippet (C12.8).
// Nothing here runs on a default successful edit. Private to src/tools.

import { FsError } from "../fs_error.ts";
import {
  ambiguousMessage,
  type NoMatchHint,
  noMatchMessage,
  renderEditSnippet,
} from "../render/hints.ts";
import { lineCost, truncateLine } from "../render/read_render.ts";
import { hasLinePrefixes } from "../text/line_prefixes.ts";
import { findLoose } from "../text/loose_match.ts";
import { lineRange, linesOf } from "../text/match_lines.ts";
import type { ToolEnv } from "./_context.ts";
import type { EditPlan } from "../text/edit_apply.ts";
import { scanWindow } from "../text/read_window.ts";

/** Lines an ambiguous-match message lists at most (C12.4). */
const MAX_LINES = 10;

/**
 * The `FS_NO_MATCH` or `FS_AMBIGUOUS_MATCH` error for a failed match in `bytes`, with the hint
 * of C12.3 or the lines of C12.4.
 */
export function matchFailure(
  bytes: Uint8Array,
  oldString: string,
  shown: string,
  error: { count: number; positions: readonly number[] },
): FsError {
  if (error.count === 0) {
    return new FsError("FS_NO_MATCH", {
      message: noMatchMessage(shown, noMatchHint(bytes, oldString)),
    });
  }
  const { lines, more } = linesOf(bytes, error.positions, MAX_LINES);
  return new FsError("FS_AMBIGUOUS_MATCH", {
    message: ambiguousMessage(shown, error.count, lines, more),
  });
}

/** The first hint of C12.3 that applies. */
function noMatchHint(bytes: Uint8Array, oldString: string): NoMatchHint {
  if (hasLinePrefixes(oldString)) return { kind: "line-numbers" };
  const match = findLoose(bytes, oldString);
  if (!match) return { kind: "none" };
  const { first, last } = lineRange(bytes, match.start, match.end);
  return { kind: "whitespace", first, last };
}

/**
 * The success text with `env.config.editSnippet` lines of context around the first
 * replacement (C12.8); `success` as is when the config is 0.
 */
export async function withSnippet(
  success: string,
  plan: Pick<EditPlan, "after" | "positions" | "replacement"> | undefined,
  env: ToolEnv,
): Promise<string> {
  const n = env.config.editSnippet;
  if (n === 0 || !plan || plan.positions.length === 0) return success;
  const after = plan.after;
  const start = plan.positions[0];
  const end = start + plan.replacement.length;
  const { first, last } = end > start
    ? lineRange(after, start, end)
    : { first: lineRange(after, start, start + 1).first, last: 0 };
  const from = Math.max(1, first - n);
  const to = Math.max(first, last) + n;
  const window = await scanWindow(async function* (position: number) {
    yield after.subarray(position);
  }, {
    offset: from,
    limit: to - from + 1,
    maxBytes: env.config.readMaxBytes,
    maxLineLength: env.config.readMaxLineLength,
    truncate: truncateLine,
    cost: lineCost,
    signal: env.signal,
  });
  return renderEditSnippet(success, window.lines, plan.positions.length - 1);
}
