/**
 * Progress notifications for a long tool call (MCP `notifications/progress`): when the client
 * sent a `_meta.progressToken`, a call still running after an interval (1 s by default) reports
 * once per interval how long it has run, so a client can show that a big `grep` or `glob` walk
 * is alive. SDK-free: the caller supplies how to send a notification.
 *
 * @module
 */

import { progressMessage } from "../render/mcp_render.ts";

/** The `params` of one `notifications/progress`. */
export interface McpProgressParams {
  /** The client's token, as it sent it. */
  progressToken: string | number;
  /** Seconds the call has run so far (increases with each notification). */
  progress: number;
  /** What is going on, for a person. */
  message: string;
}

/** Options of {@linkcode withProgress}. */
export interface WithProgressOptions {
  /** The client's `_meta.progressToken`; without one, no notification is sent. */
  token: unknown;
  /** Sends one notification (failures are ignored: progress is best effort). */
  send: (params: McpProgressParams) => Promise<void>;
  /** The tool's name, for the message. */
  tool: string;
  /**
   * Milliseconds before the first notification and between two.
   * @default {1000}
   */
  intervalMs?: number;
}

/**
 * Runs `work`, sending a progress notification every `intervalMs` while it runs.
 *
 * @param work The call.
 * @param options The token, the sender and the interval.
 * @returns What `work` returns.
 */
export async function withProgress<T>(
  work: () => Promise<T>,
  options: WithProgressOptions,
): Promise<T> {
  const token = options.token;
  if (typeof token !== "string" && typeof token !== "number") return await work();
  const intervalMs = options.intervalMs ?? 1000;
  const started = Date.now();
  let last = 0;
  const timer = setInterval(() => {
    // Whole milliseconds as seconds, strictly increasing as the protocol requires.
    const progress = Math.max(last + 0.001, (Date.now() - started) / 1000);
    last = progress;
    options.send({
      progressToken: token,
      progress,
      message: progressMessage(options.tool, progress),
    }).catch(() => {});
  }, intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
