// Worker threads started from source text, for work that would block the event loop or that a
// second core does while the first goes on: big directory listings (`_read_dir.ts`) and the
// search prefilter (`_search_worker.ts`). Private to src/provider/local.
//
// Each source gets one worker per process, started on first need, kept for later calls and
// never keeping the process alive when idle. The source defines `handle(request)`, which
// returns `[reply, transfer]` or throws; a thrown error comes back as the class Deno would have
// thrown here, so callers map it the same. A worker that cannot start or that stops fails its
// calls, and the next call starts a new one.

import { Worker } from "node:worker_threads";
import { IO_DETAILS } from "../../render/errors.ts";

const PROTOCOL = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ id, request }) => {
  try {
    const [reply, transfer] = handle(request);
    parentPort.postMessage({ id, reply }, transfer);
  } catch (error) {
    parentPort.postMessage({ id, error: { name: error?.name, message: String(error?.message) } });
  }
});
`;

interface Envelope {
  id: number;
  reply?: unknown;
  error?: { name?: string; message: string };
}

interface Pending {
  resolve(reply: unknown): void;
  reject(error: unknown): void;
}

/** A worker thread running one source's `handle`. */
export class SourceWorker {
  #worker: Worker;
  #pending = new Map<number, Pending>();
  #nextId = 0;
  #onGone: () => void;

  constructor(source: string, onGone: () => void) {
    this.#onGone = onGone;
    this.#worker = new Worker(source + PROTOCOL, { eval: true });
    this.#worker.unref();
    this.#worker.on("message", (envelope: Envelope) => this.#settle(envelope));
    this.#worker.on("error", (error: unknown) => this.#fail(error));
    this.#worker.on("exit", () => this.#fail(new Error(IO_DETAILS.workerStopped)));
  }

  /**
   * Sends a request and waits for its reply.
   *
   * @param request What `handle` gets (structured-cloned).
   * @param signal Stops the wait (the worker finishes the request and its reply is dropped).
   * @returns The reply.
   */
  call<Reply>(request: unknown, signal?: AbortSignal): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      const onAbort = () => {
        this.#pending.delete(id);
        this.#idle();
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, {
        resolve: (reply) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(reply as Reply);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      this.#worker.ref(); // a call in flight keeps the process alive
      this.#worker.postMessage({ id, request });
    });
  }

  #settle(envelope: Envelope): void {
    const pending = this.#pending.get(envelope.id);
    this.#pending.delete(envelope.id);
    this.#idle();
    if (!pending) return; // aborted meanwhile
    if (envelope.error) pending.reject(rebuildError(envelope.error));
    else pending.resolve(envelope.reply);
  }

  #fail(error: unknown): void {
    this.#onGone();
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const pending of waiting) pending.reject(error);
  }

  #idle(): void {
    if (this.#pending.size === 0) this.#worker.unref();
  }
}

const shared = new Map<string, SourceWorker>();
let unavailable = false;

/**
 * The process's worker for a source, started on first need; `null` where worker threads cannot
 * be started (the caller then does the work itself).
 *
 * @param source The worker's source: a script defining `handle(request)`.
 * @returns The worker, or `null`.
 */
export function sourceWorker(source: string): SourceWorker | null {
  const running = shared.get(source);
  if (running || unavailable) return running ?? null;
  try {
    const created: SourceWorker = new SourceWorker(source, () => {
      if (shared.get(source) === created) shared.delete(source);
    });
    shared.set(source, created);
    return created;
  } catch {
    unavailable = true; // e.g. a runtime without worker threads
    return null;
  }
}

/** A worker's error as the class Deno would have thrown here. */
function rebuildError(error: { name?: string; message: string }): Error {
  const errors = Deno.errors as unknown as Record<string, new (message: string) => Error>;
  const Class = error.name && Object.hasOwn(errors, error.name) ? errors[error.name] : Error;
  return new Class(error.message);
}
