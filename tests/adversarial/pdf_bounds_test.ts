// Crafted PDFs (CONTRACT C17.2a, issue 30 item 3): one that inflates to 4 GiB through two
// FlateDecode filters, the 20,000 references to one page, 20,000 real pages, and one whose
// content is a 40 MiB string, each read in a child process. Each read ends within
// `readDocumentTimeMs` (10 s; within 1 s of an abort) and adds at most 256 MiB to the process,
// with a clear message. 0.3.0 froze for 90 s and more, or grew past 1.5 GiB (killed here).
//
// Memory is measured twice: the child samples Deno.memoryUsage().rss every 2 ms, and this
// process reads the child's kernel high-water mark (VmHWM, reset before the read where
// /proc/<pid>/clear_refs may be written). Both figures are printed.

import assert from "node:assert/strict";
import { join } from "node:path";
import { hugeStringPdf, inflatingPdf, makePdf, numberedPages, repeatedPagesPdf } from "../_pdf.ts";
import {
  adversarialSandbox,
  assertWellFormedError,
  cannotRun,
  childCommand,
  figure,
  notSlowRun,
  rootPermissions,
  skipUnless,
} from "./_harness.ts";

const MiB = 1 << 20;
/** C17.2a's memory bound. */
const MAX_GROWTH_MIB = 256;
/** C17.2a's time bound (the default `readDocumentTimeMs`), and room for a loaded machine. */
const TIME_MS = 10_000;
const TIME_MARGIN_MS = 2_000;
/** C17.2a's abort bound, and room. */
const ABORT_MS = 1_000;
const ABORT_MARGIN_MS = 500;
/** Past these the child is killed (0.3.0 would go on for minutes and gigabytes). */
const KILL_MS = 40_000;
const KILL_RSS = 1536 * MiB;

interface Report {
  content: string;
  code: string | null;
  ms: number;
  afterAbortMs: number | null;
  peakMiB: number;
}

interface Measured {
  report: Report | null;
  killed: string | null;
  hwmMiB: number | null;
  wallMs: number;
}

/** `VmRSS` or `VmHWM` of a process, in bytes, or null. */
function status(pid: number, field: "VmRSS" | "VmHWM"): number | null {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/status`);
    const kib = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(text);
    return kib ? Number(kib[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Runs the child on `file`; kills it past {@linkcode KILL_MS} or {@linkcode KILL_RSS}. */
async function measure(root: string, file: string, abortAfterMs?: number): Promise<Measured> {
  const args = [root, file, ...(abortAfterMs === undefined ? [] : [String(abortAfterMs)])];
  const child = childCommand("./_pdf_child.ts", args, {
    permissions: rootPermissions(root),
    stdin: "piped",
  }).spawn();
  const out = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stdin = child.stdin.getWriter();
  let text = "";
  const nextLine = async (): Promise<string | null> => {
    while (!text.includes("\n")) {
      const { value, done } = await out.read();
      if (done) return null;
      text += value;
    }
    const at = text.indexOf("\n");
    const line = text.slice(0, at);
    text = text.slice(at + 1);
    return line;
  };
  assert.equal(await nextLine(), "ready");
  let hwmReset = false;
  try {
    Deno.writeTextFileSync(`/proc/${child.pid}/clear_refs`, "5");
    hwmReset = true;
  } catch { /* not Linux, or not allowed: the child's samples only */ }
  const base = status(child.pid, "VmRSS");
  const started = performance.now();
  let killed: string | null = null;
  const watch = setInterval(() => {
    const rss = status(child.pid, "VmRSS") ?? 0;
    const elapsed = performance.now() - started;
    if (killed === null && (rss > KILL_RSS || elapsed > KILL_MS)) {
      killed = `killed after ${Math.round(elapsed)} ms at ${Math.round(rss / MiB)} MiB`;
      child.kill("SIGKILL");
    }
  }, 20);
  await stdin.write(new TextEncoder().encode("go\n"));
  const line = await nextLine();
  const wallMs = Math.round(performance.now() - started);
  clearInterval(watch);
  const hwm = hwmReset ? status(child.pid, "VmHWM") : null;
  await stdin.close().catch(() => {});
  const { success } = await child.status;
  const stderr = await new Response(child.stderr).text();
  await out.cancel().catch(() => {});
  if (killed === null) assert.ok(success, `child failed: ${stderr}`);
  return {
    report: line ? JSON.parse(line) as Report : null,
    killed,
    hwmMiB: hwm !== null && base !== null ? Math.round((hwm - base) / MiB) : null,
    wallMs,
  };
}

/** Asserts the bounds and prints the figures. */
function check(name: string, measured: Measured, abort = false): Report {
  const { report, killed, hwmMiB } = measured;
  const figures = report
    ? `${report.ms} ms, +${report.peakMiB} MiB sampled, +${hwmMiB ?? "?"} MiB peak (VmHWM)` +
      (report.afterAbortMs !== null ? `, ended ${report.afterAbortMs} ms after the abort` : "") +
      `: ${report.code ?? "ok"}`
    : killed;
  figure("pdf bounds", `${name}: ${figures}`);
  assert.equal(killed, null, `${name}: ${killed}`);
  assert.ok(report);
  assert.ok(report.ms <= TIME_MS + TIME_MARGIN_MS, `${name}: ${report.ms} ms`);
  const growth = Math.max(report.peakMiB, hwmMiB ?? 0);
  assert.ok(growth <= MAX_GROWTH_MIB, `${name}: +${growth} MiB`);
  if (abort && report.afterAbortMs === null) {
    // A bound ended the read before the abort fired (the bomb reaches +176 MiB in ~250 ms on an
    // idle machine): nothing was left for the abort to end, and the bound's message stands.
    assert.equal(report.code, "FS_IO_ERROR", report.content);
    assert.match(report.content, BOUND);
  } else if (abort) {
    assert.equal(report.code, "FS_ABORTED", report.content);
    assert.ok(
      report.afterAbortMs! <= ABORT_MS + ABORT_MARGIN_MS,
      `${name}: ${report.afterAbortMs}`,
    );
  }
  return report;
}

const BOUND = /^Error: cannot read "[^"]+": (.+); read a smaller part with offset and limit$/;
/** A window whose total is not given: the byte cap, or a bound that cut the count short. */
const WINDOW =
  /\n\(Output capped\. Showing lines 1-\d+\. Use offset=\d+ to continue\.\)\n<\/content>$/;

const name = "C17.2a crafted PDFs end within their time and memory bounds, with clear messages";
Deno.test({
  name,
  ignore: skipUnless(name, notSlowRun() ?? cannotRun()),
  async fn() {
    await using box = await adversarialSandbox();
    const files: Record<string, Uint8Array> = {
      "inflating.pdf": await inflatingPdf(4),
      "pages.pdf": repeatedPagesPdf(20_000),
      "many.pdf": makePdf(numberedPages(20_000, 1)),
      "string.pdf": await hugeStringPdf(40),
    };
    for (const [file, bytes] of Object.entries(files)) {
      await Deno.writeFile(join(box.root, file), bytes);
      figure("pdf bounds", `${file}: ${bytes.length} bytes on disk`);
    }

    // Inflates to 4 GiB: a memory bound ends it.
    const inflating = check("inflating.pdf", await measure(box.root, "inflating.pdf"));
    assert.equal(inflating.code, "FS_IO_ERROR", inflating.content);
    assert.match(inflating.content, BOUND);
    assert.match(inflating.content, /of memory|inflates to more than/);

    // One huge string: a memory bound ends it.
    const string = check("string.pdf", await measure(box.root, "string.pdf"));
    assert.equal(string.code, "FS_IO_ERROR", string.content);
    assert.match(string.content, /needed more than 256\.0 MiB of memory/);

    // 20,000 references to one page (the file): a window, a bound or pdf.js's own
    // refusal of the page tree; never a stall.
    const pages = check("pages.pdf", await measure(box.root, "pages.pdf"));
    if (pages.code === null) {
      assert.match(pages.content, /\(Output capped\. Showing lines 1-2000\./);
    } else if (pages.code === "FS_IO_ERROR") assert.match(pages.content, BOUND);
    else assert.match(pages.content, /the PDF cannot be parsed \(.+\)/);

    // 20,000 real pages: the window when it comes in time (capped by bytes, or with the count
    // after it cut short), else the time bound's message.
    const many = check("many.pdf", await measure(box.root, "many.pdf"));
    if (many.code === null) assert.match(many.content, WINDOW);
    else {
      assert.match(
        many.content,
        /^Error: cannot read "many\.pdf": extracting its text took longer than 10000 ms; read a smaller part with offset and limit$/,
      );
    }

    // Aborts end each at once.
    // The bomb is aborted at 100 ms, before its memory bound can end it first.
    for (const [file, after] of [["inflating.pdf", 100], ["many.pdf", 300]] as const) {
      check(`${file}, aborted after ${after} ms`, await measure(box.root, file, after), true);
    }

    for (const report of [inflating, string, pages, many]) {
      if (report.code !== null) {
        assertWellFormedError({
          content: report.content,
          isError: true,
          error: { name: "FsError", code: report.code },
        } as never);
      }
    }
  },
});
