// The thread that parses PDFs (CONTRACT C17.2a). `_pdf.ts` starts it from source text, so it
// needs no read permission on a file of its own and runs however this package was imported
// (a local checkout, JSR over https). Private to src/tools.
//
// Requests, one at a time: `{ op: "open", data }` → `{ pages }` (`data`: the PDF in a shared
// buffer, where there is one: a transferred typed array costs Deno's `node:worker_threads` some
// 30 times its size in the worker's heap); `{ op: "page", page }` →
// `{ text }`; `{ op: "close" }` → `{}`. A failure replies `{ error: { name, message } }`, with
// `name: "StreamBound"` when a buffer over the cap was asked for (a stream inflating too far).
// Once pdf.js has loaded, the worker also says `{ loaded: true }`, unasked.

/** The part of `parentPort` the worker uses. */
interface Port {
  on(event: "message", listener: (request: WorkerRequest) => void): void;
  postMessage(reply: unknown): void;
}

/** A request to the worker. */
export type WorkerRequest =
  | { op: "open"; data: SharedArrayBuffer | Uint8Array }
  | { op: "page"; page: number }
  | { op: "close" };

/** What pdf.js gives of a page's text. */
interface TextItems {
  items: ({ str: string; hasEOL: boolean } | object)[];
}

/** What the worker uses of a pdf.js document. */
interface PdfDocument {
  numPages: number;
  cleanup(): Promise<void>;
  getPage(n: number): Promise<{ getTextContent(): Promise<TextItems>; cleanup(): boolean }>;
  loadingTask: { destroy(): Promise<void> };
}

/**
 * The worker's body. Self-contained (it runs from its source text): no reference to anything
 * outside it but globals.
 *
 * @param port The worker's `parentPort`.
 * @param heap `node:v8`.
 * @param cleanupBytes The heap use past which pdf.js's caches are let go before a page.
 * @param cleanupPages The fewest pages between two such cleanups.
 * @param maxBuffer The largest byte array pdf.js may allocate: a stream decodes into one buffer
 *   that doubles as it grows, so this caps each stream's inflated size.
 */
function pdfWorker(
  port: Port,
  heap: { getHeapStatistics(): { used_heap_size: number } },
  cleanupBytes: number,
  cleanupPages: number,
  maxBuffer: number,
): void {
  // Before pdf.js loads: its byte arrays are counted as they are made.
  const Base = Uint8Array;
  let streamBound = false;
  class Capped extends Base {
    // deno-lint-ignore no-explicit-any
    constructor(...args: any[]) {
      if (typeof args[0] === "number" && args[0] > maxBuffer) {
        streamBound = true; // pdf.js may catch this and go on; the reply still says so
        throw new RangeError(`a byte array of ${args[0]} bytes is over the cap`);
      }
      super(...(args as []));
    }
    // Views and copies of an array are plain arrays; a plain array is still a Uint8Array.
    static get [Symbol.species]() {
      return Base;
    }
    static override [Symbol.hasInstance](value: unknown): boolean {
      return value instanceof Base;
    }
  }
  (globalThis as { Uint8Array: unknown }).Uint8Array = Capped;
  // pdf.js inflates through the native DecompressionStream where there is one, writing the whole
  // stream at once and gathering the chunks before it joins them. Here the input goes in small
  // pieces, each once the output before it has been taken, and the output is counted: the
  // stream fails past the cap having made at most one piece's output more.
  const Native = (globalThis as { DecompressionStream?: typeof DecompressionStream })
    .DecompressionStream;
  if (Native) {
    const PIECE = 4096;
    (globalThis as { DecompressionStream: unknown }).DecompressionStream = class {
      readonly readable: ReadableStream<Uint8Array>;
      readonly writable: WritableStream<Uint8Array>;
      constructor(format: CompressionFormat) {
        const inner = new Native!(format);
        const writer = inner.writable.getWriter();
        let total = 0;
        this.writable = new WritableStream<Uint8Array>({
          async write(chunk) {
            for (let at = 0; at < chunk.length; at += PIECE) {
              await writer.ready;
              await writer.write(chunk.subarray(at, at + PIECE) as Uint8Array<ArrayBuffer>);
            }
          },
          close: () => writer.close(),
          abort: (reason) => writer.abort(reason),
        });
        this.readable = inner.readable.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              total += chunk.byteLength;
              if (total > maxBuffer) {
                streamBound = true;
                controller.error(new RangeError(`a stream inflates past ${maxBuffer} bytes`));
              } else controller.enqueue(chunk);
            },
          }),
        );
      }
    };
  }

  const loading = import("npm:unpdf@1.8.1");
  // Said once pdf.js is loaded: before that the worker may wait on a download, not stall.
  loading.then(() => port.postMessage({ loaded: true }), () => {});
  let doc: PdfDocument | null = null;

  let sinceCleanup = 0;
  const pageText = async (number: number): Promise<string> => {
    // pdf.js keeps every page it has given, and its fonts: let them go once they hold much
    // (not on every page: its caches also make finding the next page cheap).
    if (++sinceCleanup >= cleanupPages && heap.getHeapStatistics().used_heap_size > cleanupBytes) {
      sinceCleanup = 0;
      await doc!.cleanup();
    }
    const page = await doc!.getPage(number);
    const content = await page.getTextContent();
    let text = "";
    for (const item of content.items) {
      if (!("str" in item)) continue;
      text += item.str;
      if (item.hasEOL) text += "\n";
    }
    page.cleanup();
    if (text !== "" && !text.endsWith("\n")) text += "\n";
    return text;
  };

  const answer = async (request: WorkerRequest): Promise<unknown> => {
    switch (request.op) {
      case "open": {
        const { getDocumentProxy } = await loading;
        const { data } = request;
        const bytes = data instanceof Base ? data : new Base(data).slice();
        doc = await getDocumentProxy(bytes, { verbosity: 0 }) as unknown as PdfDocument;
        return { pages: doc.numPages };
      }
      case "page":
        return { text: await pageText(request.page) };
      case "close":
        if (doc) await doc.loadingTask.destroy();
        doc = null;
        return {};
    }
  };

  port.on("message", async (request) => {
    let reply: unknown;
    try {
      reply = await answer(request);
    } catch (error) {
      const name = error instanceof Error ? error.name : "Error";
      const message = error instanceof Error ? error.message : String(error);
      reply = { error: { name, message } };
    }
    if (streamBound) reply = { error: { name: "StreamBound", message: "" } };
    port.postMessage(reply);
  });
}

/**
 * The worker's source: {@linkcode pdfWorker} run on the worker's port.
 *
 * @param cleanupBytes See {@linkcode pdfWorker}.
 * @param cleanupPages See {@linkcode pdfWorker}.
 * @param maxBuffer The cap on one byte array (see {@linkcode pdfWorker}).
 * @returns Source text for `new Worker(source, { eval: true })`.
 */
export function pdfWorkerSource(
  cleanupBytes: number,
  cleanupPages: number,
  maxBuffer: number,
): string {
  return `const { parentPort } = require("node:worker_threads");
(${
    absoluteImports(pdfWorker.toString())
  })(parentPort, require("node:v8"), ${cleanupBytes}, ${cleanupPages}, ${maxBuffer});
`;
}

/**
 * The source with each `import("<specifier>")` made absolute where it is relative or bare:
 * code run from source text resolves against the working directory, not against this file. In
 * Deno the specifier is `npm:…` and stays; a bundle for Node makes it a chunk beside this file,
 * JSR's npm layer a package name.
 */
function absoluteImports(source: string): string {
  return source.replace(/\bimport\((["'])([^"']+)\1\)/g, (whole, _quote, specifier: string) => {
    if (/^[a-z]+:/.test(specifier)) return whole;
    try {
      const url = specifier.startsWith(".")
        ? new URL(specifier, import.meta.url).href
        : import.meta.resolve(specifier);
      return `import(${JSON.stringify(url)})`;
    } catch {
      return whole;
    }
  });
}
