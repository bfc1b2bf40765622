// PDF parsing off the calling thread, bounded (CONTRACT C17.2a). Private to src/tools: `_media.ts`
// opens a document here and asks for its pages' text.
//
// pdf.js runs in a worker thread (`_pdf_worker.ts`, started from source text). One document is
// parsed at a time, so the memory bound is the process's: the resident size is sampled every few
// milliseconds while a read runs, and the worker is ended when it has grown too far, when the
// read's time (`readDocumentTimeMs`) is up or when the caller aborts. The worker's V8 heap has a
// limit of its own, each byte array pdf.js makes is capped (a stream decodes into one buffer) and
// its native inflation goes in small pieces, counted, so no single step can jump past the bound
// between two samples. A worker that ends a read well is kept, idle and not keeping the process
// alive, for the next read.

import { Worker } from "node:worker_threads";
import process from "node:process";
import { pdfWorkerSource, type WorkerRequest } from "./_pdf_worker.ts";
import type { DocumentBound } from "../render/media_render.ts";

const MiB = 1 << 20;
/** What a document read may add to the process's resident size (C17.2a). */
export const DOCUMENT_MEMORY_BYTES = 256 * MiB;
/** The growth at which the worker is ended: room below the bound for one step between samples. */
const WATCH_BYTES = 176 * MiB;
/** The largest byte array pdf.js may make: each stream inflates to at most this. */
export const MAX_STREAM_BYTES = 48 * MiB;
/** The worker's V8 heap limits. */
const HEAP_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 };
/**
 * The worker's heap use past which pdf.js's caches are let go (between pages, at most every
 * {@linkcode CLEANUP_PAGES} pages): near the limit, where V8 has collected what it could, since
 * letting them go makes the next pages slower to find (pdf.js walks its page tree again).
 */
const CLEANUP_BYTES = 104 * MiB;
const CLEANUP_PAGES = 200;
const SAMPLE_MS = 5;
/**
 * A worker at its heap limit stops without a word (Deno ends its execution): a request in flight
 * while the process's CPU time advances less than `STALL_CPU_US` in `STALL_MS` is one.
 */
const STALL_MS = 1000;
const STALL_CPU_US = 3000;

/** A read ended by one of its bounds. */
export class DocumentBoundError extends Error {
  /** The bound reached. */
  readonly bound: DocumentBound;
  constructor(bound: DocumentBound) {
    super(bound.kind);
    this.name = "DocumentBoundError";
    this.bound = bound;
  }
}

/** The worker could not start or stopped on its own. */
export class DocumentWorkerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DocumentWorkerError";
  }
}

/** pdf.js refused the document (`name`: pdf.js's, e.g. `PasswordException`). */
export class DocumentParseError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** The worker kept between reads. */
let idle: Worker | null = null;
/** The end of the read in progress: reads take turns. */
let turn: Promise<void> = Promise.resolve();
/** Workers that have loaded pdf.js (before that, one may wait on a download). */
const loaded = new WeakSet<Worker>();
/** Reads holding or waiting for the turn. */
let reading = 0;

/** Options of {@linkcode openDocument}. */
export interface OpenOptions {
  /** Ends the read (and its worker) within milliseconds. */
  signal?: AbortSignal;
  /** The read's time bound (`readDocumentTimeMs`). */
  timeMs: number;
  /** When the read began (`performance.now()`): the time bound counts from there. */
  started?: number;
}

/**
 * Parses a PDF in the worker thread, once the reads before it are done.
 *
 * @param bytes The PDF (may be transferred: the caller must not use them after).
 * @param options The signal and the time bound.
 * @returns The open document; {@linkcode PdfSession.close} it.
 * @throws {DocumentBoundError} A bound was reached.
 * @throws {DocumentParseError} pdf.js refused the file.
 * @throws {DocumentWorkerError} No worker thread could run.
 */
export async function openDocument(bytes: Uint8Array, options: OpenOptions): Promise<PdfSession> {
  const { signal } = options;
  signal?.throwIfAborted();
  let release!: () => void;
  const previous = turn;
  turn = new Promise((resolve) => release = resolve);
  const waits = reading > 0;
  try {
    await waitOrAbort(previous, signal);
  } catch (error) {
    previous.then(release); // leave the line without holding up those behind
    throw error;
  }
  reading++;
  // A read that waited for another's turn gets its whole time from now.
  const session = new PdfSession(waits ? { ...options, started: undefined } : options, () => {
    reading--;
    release();
  });
  try {
    let data: SharedArrayBuffer | Uint8Array = bytes;
    let transfer = [bytes.buffer as ArrayBuffer];
    if (typeof SharedArrayBuffer === "function") {
      data = new SharedArrayBuffer(bytes.length);
      new Uint8Array(data).set(bytes);
      transfer = [];
    }
    const { pages } = await session.request<{ pages: number }>({ op: "open", data }, transfer);
    session.pages = pages;
    return session;
  } catch (error) {
    await session.close();
    throw error;
  }
}

/** One document open in the worker, with the bounds of its read running. */
export class PdfSession {
  /** The page count. */
  pages = 0;
  #worker: Worker | null;
  #failure: unknown = null;
  #pending: { resolve(reply: unknown): void; reject(error: unknown): void } | null = null;
  #timer: ReturnType<typeof setTimeout>;
  #sampler: ReturnType<typeof setInterval>;
  #signal?: AbortSignal;
  #onAbort = () => this.#fail(this.#signal!.reason);
  #release: () => void;
  #closed = false;
  /** When the request in flight was last seen making progress, and the CPU time then. */
  #mark = { at: 0, cpu: 0 };

  constructor(options: OpenOptions, release: () => void) {
    this.#release = release;
    this.#signal = options.signal;
    const baseline = process.memoryUsage.rss();
    this.#worker = idle;
    idle = null;
    if (!this.#worker) {
      try {
        this.#worker = startWorker();
      } catch (error) {
        this.#failure = new DocumentWorkerError(error instanceof Error ? error.message : "");
        this.#worker = null;
      }
    }
    const worker = this.#worker;
    if (worker) {
      worker.ref();
      worker.on("message", this.#onMessage);
      worker.on("error", this.#onError);
      worker.on("exit", this.#onExit);
    }
    const left = options.timeMs - (performance.now() - (options.started ?? performance.now()));
    this.#timer = setTimeout(
      () => this.#fail(bound({ kind: "time", ms: options.timeMs })),
      Math.max(0, left),
    );
    this.#sampler = setInterval(() => {
      if (process.memoryUsage.rss() - baseline > WATCH_BYTES || this.#stalled()) {
        this.#fail(bound({ kind: "memory", bytes: DOCUMENT_MEMORY_BYTES }));
      }
    }, SAMPLE_MS);
    this.#signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** Whether a bound or an abort has ended the read. */
  get failed(): boolean {
    return this.#failure !== null;
  }

  /**
   * One page's text: its text items in order, a line break where the page has one.
   *
   * @param page The 1-based page number.
   * @returns The text (ending with a line break unless empty).
   */
  async pageText(page: number): Promise<string> {
    const { text } = await this.request<{ text: string }>({ op: "page", page });
    return text;
  }

  /** Sends one request and waits for its reply (or the read's end). */
  request<T>(request: WorkerRequest, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.#failure !== null) return Promise.reject(this.#failure);
    return new Promise<unknown>((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#mark = { at: performance.now(), cpu: cpuTime() };
      this.#worker!.postMessage(request, transfer);
    }).then((reply) => {
      const failed = (reply as { error?: { name: string; message: string } }).error;
      if (!failed) return reply as T;
      if (failed.name === "StreamBound") {
        const error = bound({ kind: "stream", bytes: MAX_STREAM_BYTES });
        this.#fail(error);
        throw error;
      }
      throw new DocumentParseError(failed.name, failed.message);
    });
  }

  /** Ends the read: the worker is kept for the next read when it ended well, else ended. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    let keep = this.#failure === null && this.#worker !== null;
    if (keep) {
      try {
        await this.request({ op: "close" });
      } catch {
        keep = false;
      }
      keep &&= this.#failure === null;
    }
    this.#stopWatching();
    const worker = this.#worker;
    this.#worker = null;
    if (worker) {
      worker.off("message", this.#onMessage);
      worker.off("error", this.#onError);
      worker.off("exit", this.#onExit);
      if (keep && idle === null) {
        worker.unref();
        idle = worker;
      } else {
        worker.terminate().catch(() => {});
      }
    }
    this.#release();
  }

  #onMessage = (reply: unknown) => {
    if ((reply as { loaded?: boolean }).loaded === true) {
      loaded.add(this.#worker!);
      return;
    }
    const pending = this.#pending;
    this.#pending = null;
    pending?.resolve(reply);
  };

  #onError = (error: unknown) => {
    this.#fail(new DocumentWorkerError(error instanceof Error ? error.message : String(error)));
  };

  #onExit = () => {
    this.#fail(new DocumentWorkerError("it stopped"));
  };

  /** Ends the read with `error`: the worker is ended at once, a waiting request fails. */
  #fail(error: unknown): void {
    if (this.#failure !== null) return;
    this.#failure = error;
    this.#stopWatching();
    const worker = this.#worker;
    if (worker) {
      worker.off("exit", this.#onExit);
      worker.terminate().catch(() => {});
    }
    const pending = this.#pending;
    this.#pending = null;
    pending?.reject(error);
  }

  /** Whether the request in flight has stalled (see {@linkcode STALL_MS}). */
  #stalled(): boolean {
    if (!this.#pending || !loaded.has(this.#worker!)) return false;
    const at = performance.now();
    if (at - this.#mark.at < STALL_MS) return false;
    const cpu = cpuTime();
    if (cpu - this.#mark.cpu < STALL_CPU_US) return true;
    this.#mark = { at, cpu };
    return false;
  }

  #stopWatching(): void {
    clearTimeout(this.#timer);
    clearInterval(this.#sampler);
    this.#signal?.removeEventListener("abort", this.#onAbort);
  }
}

/** A new worker, with the listeners it keeps for life. */
function startWorker(): Worker {
  const worker = new Worker(pdfWorkerSource(CLEANUP_BYTES, CLEANUP_PAGES, MAX_STREAM_BYTES), {
    eval: true,
    resourceLimits: HEAP_LIMITS,
  });
  worker.on("error", () => {}); // a session listens while it uses the worker
  worker.on("exit", () => {
    if (idle === worker) idle = null;
  });
  return worker;
}

/** The process's CPU time, in microseconds. */
function cpuTime(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function bound(reached: DocumentBound): DocumentBoundError {
  return new DocumentBoundError(reached);
}

/** Waits for `promise`, or rejects with the signal's reason once it aborts. */
function waitOrAbort(promise: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
