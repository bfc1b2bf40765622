/**
 * `deno task bench:compare`: toolfs side by side with the physical references (`wc -l`, `ls -1`,
 * `cp` + `sync`) and with the reference MCP filesystem server, on inputs generated in a
 * temporary directory. Every case runs several times, subject and reference interleaved (this
 * machine is noisy: only ratios measured in the same run mean anything); the table of medians
 * goes to stdout as Markdown, progress to stderr.
 *
 * Options: `--runs N` (timed runs per case, default 5);
 * `--only read,memory,list,edit,search,mcp,2gib,pdf`
 * (some sections; each generates only the inputs it needs); `--no-mcp` (skip the MCP peer rows);
 * `--keep` (leave the temporary directory); `--reference-version V` (of
 * `@modelcontextprotocol/server-filesystem`); `--search-tree DIR` (the search rows on a real
 * repository, e.g. a work tree of denoland/deno, instead of the generated tree), with
 * `--literal TEXT` and `--regex PATTERN` (default `AbortSignal` and `function \w+\(signal`).
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createFsTools, type FsTools, LocalFileSystem } from "../mod.ts";
import { type GeneratedFile, generateDirectory, generateLines, generateSmall } from "./_inputs.ts";
import { generateSourceTree } from "./_search_inputs.ts";
import { makePdf, numberedPages } from "../tests/_pdf.ts";
import {
  connectReference,
  connectToolfs,
  connectToolfsHttp,
  installReference,
  type McpPeer,
} from "./_mcp.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const DEFAULT_REFERENCE_VERSION = "2026.8.31";
/** Calls made to a freshly started MCP server before timing: a serving process is warm. */
const MCP_WARMUPS = 5;
/**
 * Timed MCP `read` calls at least (each takes milliseconds): on a shared machine the median of 5
 * such calls moved between 0.25x and 4x the reference from one run to the next (issue 34.7).
 */
const MCP_READ_RUNS = 25;

const options = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "5" },
    "no-mcp": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    "reference-version": { type: "string", default: DEFAULT_REFERENCE_VERSION },
    only: { type: "string" },
    "search-tree": { type: "string" },
    literal: { type: "string" },
    regex: { type: "string" },
  },
}).values;
const RUNS = Math.max(1, Number(options.runs) || 5);

const started = performance.now();
function progress(message: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  console.error(`[${seconds}s] ${message}`);
}

// --- measuring ----------------------------------------------------------------------------

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function timed(task: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await task();
  return performance.now() - t;
}

/**
 * Runs `subject` and `reference` `warmups` times untimed (warm caches and JIT), then `runs`
 * times each, alternating which goes first; returns both medians in milliseconds.
 */
async function pair(
  label: string,
  subject: (run: number) => Promise<unknown>,
  reference: (run: number) => Promise<unknown>,
  warmups = 1,
  runs = RUNS,
): Promise<{ subject: number; reference: number }> {
  progress(label);
  for (let i = 0; i < warmups; i++) {
    await subject(-1 - i);
    await reference(-1 - i);
  }
  const s: number[] = [];
  const r: number[] = [];
  for (let run = 0; run < runs; run++) {
    if (run % 2 === 0) {
      s.push(await timed(() => subject(run)));
      r.push(await timed(() => reference(run)));
    } else {
      r.push(await timed(() => reference(run)));
      s.push(await timed(() => subject(run)));
    }
  }
  return { subject: median(s), reference: median(r) };
}

async function run(command: string, args: string[]): Promise<string> {
  const output = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" })
    .output();
  if (!output.success) {
    throw new Error(`${command} ${args.join(" ")}: ${new TextDecoder().decode(output.stderr)}`);
  }
  return new TextDecoder().decode(output.stdout);
}

// --- the table ----------------------------------------------------------------------------

interface Row {
  case: string;
  toolfs: string;
  reference: string;
  ratio: string;
  target: string;
  holds: string;
}

const rows: Row[] = [];

function ms(value: number): string {
  return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`;
}

function timeRow(
  name: string,
  result: { subject: number; reference: number },
  referenceName: string,
  target: number | null,
): void {
  const ratio = result.subject / result.reference;
  rows.push({
    case: name,
    toolfs: ms(result.subject),
    reference: `${referenceName} ${ms(result.reference)}`,
    ratio: `${ratio.toFixed(2)}x`,
    target: target === null ? "" : target === 1 ? "< 1x" : `≤ ${target}x`,
    holds: target === null ? "" : (target === 1 ? ratio < 1 : ratio <= target) ? "yes" : "**no**",
  });
}

function failedRow(name: string, referenceName: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  rows.push({
    case: name,
    toolfs: `failed: ${message.replace(/\s+/g, " ").slice(0, 120)}`,
    reference: referenceName,
    ratio: "",
    target: "< 1x",
    holds: "**no**",
  });
}

function printTable(facts: string[]): void {
  const header: Row = {
    case: "case",
    toolfs: "toolfs (median)",
    reference: "reference (median)",
    ratio: "ratio",
    target: "target",
    holds: "holds",
  };
  const keys = Object.keys(header) as (keyof Row)[];
  const line = (row: Row) => `| ${keys.map((k) => row[k]).join(" | ")} |`;
  console.log(facts.join("\n"));
  console.log();
  console.log(line(header));
  console.log(`|${keys.map(() => "---").join("|")}|`);
  for (const row of rows) console.log(line(row));
}

// --- the cases ----------------------------------------------------------------------------

function toolsOn(root: string): FsTools {
  return createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
}

async function read(tools: FsTools, file: string, offset: number): Promise<string> {
  const result = await tools.execute("read", { file_path: file, offset });
  if (result.isError) throw new Error(result.content);
  // Line `offset` of a generated file starts with its own number.
  const first = `\n${offset}: ${String(offset).padStart(9, "0")}`;
  if (!result.content.includes(first)) throw new Error(`read ${file} at ${offset}: wrong window`);
  return result.content;
}

function wc(file: GeneratedFile): () => Promise<unknown> {
  return async () => {
    const out = await run("wc", ["-l", file.path]);
    if (Number(out.trim().split(/\s+/)[0]) !== file.lines) throw new Error(`wc -l: ${out}`);
  };
}

/** Peak resident memory of one `read` in a fresh process, in KiB, and its time. */
async function childRead(
  root: string,
  file: string,
  offset: number,
  limit?: number,
): Promise<{ peakKiB: number; ms: number }> {
  const out = await run(Deno.execPath(), [
    "run",
    "-A",
    `${REPO}/bench/_rss_child.ts`,
    root,
    file,
    String(offset),
    ...(limit ? [String(limit)] : []),
  ]);
  return JSON.parse(out);
}

async function peakOf(root: string, file: string, offset: number, limit?: number) {
  const peaks: number[] = [];
  const times: number[] = [];
  for (let i = 0; i < Math.max(3, Math.ceil(RUNS / 2)); i++) {
    const { peakKiB, ms } = await childRead(root, file, offset, limit);
    peaks.push(peakKiB);
    times.push(ms);
  }
  return { peakKiB: median(peaks), ms: median(times) };
}

function mib(kib: number): string {
  return `${(kib / 1024).toFixed(1)} MiB`;
}

/** The generated inputs, made on demand (each section asks for what it needs). */
class Inputs {
  readonly root: string;
  #made = new Map<string, Promise<GeneratedFile>>();
  #dir: Promise<void> | null = null;

  constructor(root: string) {
    this.root = root;
  }

  #file(name: string, make: () => Promise<GeneratedFile>): Promise<GeneratedFile> {
    let file = this.#made.get(name);
    if (!file) {
      progress(`generating ${name}`);
      file = make().then(async (made) => {
        await run("sync", []); // written back now, not while something is being timed
        await run("wc", ["-l", made.path]); // and in the page cache
        return made;
      });
      this.#made.set(name, file);
    }
    return file;
  }

  log(): Promise<GeneratedFile> {
    return this.#file(
      "a 1 GiB log of 100-byte lines",
      () => generateLines(`${this.root}/log1g.txt`, GiB, 100),
    );
  }

  short(): Promise<GeneratedFile> {
    return this.#file(
      "a 1 GiB file of 10-byte lines",
      () => generateLines(`${this.root}/short1g.txt`, GiB, 10),
    );
  }

  log2(): Promise<GeneratedFile> {
    return this.#file(
      "a 2 GiB log of 100-byte lines",
      () => generateLines(`${this.root}/log2g.txt`, 2 * GiB, 100),
    );
  }

  /** The 50 MiB file, with a copy for each editor so their edits never meet. */
  f50(): Promise<GeneratedFile> {
    return this.#file("a 50 MiB file of 100-byte lines", async () => {
      const made = await generateLines(`${this.root}/f50.txt`, 50 * MiB, 100);
      for (const copy of ["f50_inproc.txt", "f50_mcp.txt", "f50_http.txt", "f50_ref.txt"]) {
        await Deno.copyFile(made.path, `${this.root}/${copy}`);
      }
      return made;
    });
  }

  f1m(): Promise<GeneratedFile> {
    return this.#file("a 1 MiB file", () => generateLines(`${this.root}/f1m.txt`, MiB, 100));
  }

  k1(): Promise<GeneratedFile> {
    return this.#file("a 1 KiB file", () => generateSmall(`${this.root}/k1.txt`, 1024));
  }

  /** `dir100k`: 100,000 entries, one in ten a directory. */
  dir100k(): Promise<void> {
    if (!this.#dir) {
      progress("generating a 100k-entry directory");
      this.#dir = Promise.resolve().then(() => generateDirectory(`${this.root}/dir100k`, 100_000));
    }
    return this.#dir;
  }
}

/** `read` against `wc -l`: first, middle and last windows, short lines, paging. */
async function readRows(inputs: Inputs): Promise<void> {
  const { root } = inputs;
  const log = await inputs.log();
  const short = await inputs.short();
  const middle = Math.floor(log.lines / 2);
  const last = log.lines - 100;
  timeRow(
    "read first window, 1 GiB log (100-byte lines)",
    await pair(
      "read: first window of the 1 GiB log",
      () => read(toolsOn(root), "log1g.txt", 1),
      wc(log),
    ),
    "wc -l",
    0.5,
  );
  timeRow(
    "read middle window, 1 GiB log",
    await pair(
      "read: middle window of the 1 GiB log",
      () => read(toolsOn(root), "log1g.txt", middle),
      wc(log),
    ),
    "wc -l",
    8,
  );
  timeRow(
    "read last window, 1 GiB log",
    await pair(
      "read: last window of the 1 GiB log",
      () => read(toolsOn(root), "log1g.txt", last),
      wc(log),
    ),
    "wc -l",
    8,
  );
  timeRow(
    "read first window, 1 GiB of 10-byte lines (needs the total)",
    await pair(
      "read: first window of the 10-byte-line file",
      () => read(toolsOn(root), "short1g.txt", 1),
      wc(short),
    ),
    "wc -l",
    8,
  );
  const paging = toolsOn(root);
  await read(paging, "log1g.txt", last); // one full pass: the line index spans the file
  const far = Math.floor(log.lines * 0.75);
  timeRow(
    "paging: a window at 3/4 of the 1 GiB log after one read of it",
    await pair(
      "read: paging",
      (i) => read(paging, "log1g.txt", far + 1000 * (i + 1)),
      wc(log),
    ),
    "wc -l",
    0.2,
  );
}

/** Peak memory of each read in a fresh process, against a 1 KiB read. */
async function memoryRows(inputs: Inputs): Promise<void> {
  const { root } = inputs;
  const log = await inputs.log();
  await inputs.short();
  const f50 = await inputs.f50();
  await inputs.k1();
  progress("peak RSS: a 1 KiB read in a fresh process");
  const base = await peakOf(root, "k1.txt", 1);
  const peaks: Array<[string, string, number]> = [
    ["first window, 1 GiB log", "log1g.txt", 1],
    ["middle window, 1 GiB log", "log1g.txt", Math.floor(log.lines / 2)],
    ["last window, 1 GiB log", "log1g.txt", log.lines - 100],
    ["first window, 10-byte lines", "short1g.txt", 1],
    ["50 MiB file, middle window (streamed)", "f50.txt", Math.floor(f50.lines / 2)],
  ];
  for (const [name, file, offset] of peaks) {
    progress(`peak RSS: ${name}`);
    const peak = await peakOf(root, file, offset);
    const delta = (peak.peakKiB - base.peakKiB) / 1024;
    rows.push({
      case: `peak RSS, read ${name}`,
      toolfs: mib(peak.peakKiB),
      reference: `1 KiB read ${mib(base.peakKiB)}`,
      ratio: `+${delta.toFixed(1)} MiB`,
      target: "≤ +64 MiB",
      holds: delta <= 64 ? "yes" : "**no**",
    });
  }
}

/** `list` against `ls -1` (which sorts too). */
async function listRows(inputs: Inputs): Promise<void> {
  const { root } = inputs;
  await inputs.dir100k();
  timeRow(
    "list a 100k-entry directory",
    await pair(
      "list: 100k entries",
      async () => {
        const result = await toolsOn(root).execute("list", { path: "dir100k" });
        if (result.isError || !result.content.includes("of 100000 entries")) {
          throw new Error(result.content);
        }
      },
      () => run("ls", ["-1", `${root}/dir100k`]),
    ),
    "ls -1",
    2,
  );
}

/** The edited line of the 50 MiB file, before and after, and back. */
function flipper(f50: GeneratedFile): () => [string, string] {
  const number = String(Math.floor(f50.lines / 2)).padStart(9, "0");
  const [before, after] = [`${number} 2026-`, `${number} 2027-`];
  let flips = 0;
  return () => flips++ % 2 ? [after, before] : [before, after];
}

/** `edit` of one line in a 50 MiB file against `cp` of the file and `sync` of the copy. */
async function editRows(inputs: Inputs): Promise<void> {
  const { root } = inputs;
  const f50 = await inputs.f50();
  const tools = toolsOn(root);
  await read(tools, "f50_inproc.txt", Math.floor(f50.lines / 2)); // read before write
  const next = flipper(f50);
  timeRow(
    "edit one line of a 50 MiB file",
    await pair(
      "edit: 50 MiB",
      async () => {
        const [from, to] = next();
        const result = await tools.execute("edit", {
          file_path: "f50_inproc.txt",
          old_string: from,
          new_string: to,
        });
        if (result.isError) throw new Error(result.content);
      },
      async () => {
        await run("cp", [f50.path, `${root}/f50_copy.txt`]);
        await run("sync", [`${root}/f50_copy.txt`]);
      },
    ),
    "cp + sync",
    2.0,
  );
}

/** Issue 2's figure: the middle window of a 2 GiB file, memory and wall time. */
async function bigRows(inputs: Inputs): Promise<void> {
  const { root } = inputs;
  const log2 = await inputs.log2();
  const f1m = await inputs.f1m();
  progress("2 GiB: middle window in a fresh process, against a 1 MiB file");
  const middle = Math.floor(log2.lines / 2);
  const big = await peakOf(root, "log2g.txt", middle);
  const small = await peakOf(root, "f1m.txt", Math.floor(f1m.lines / 2));
  const coldWc: number[] = [];
  for (let i = 0; i < 3; i++) coldWc.push(await timed(wc(log2)));
  const warm = await pair(
    "2 GiB: middle window in process, against wc -l",
    () => read(toolsOn(root), "log2g.txt", middle),
    wc(log2),
  );
  const delta = (big.peakKiB - small.peakKiB) / 1024;
  rows.push({
    case: "2 GiB log, middle window: peak RSS (fresh process)",
    toolfs: mib(big.peakKiB),
    reference: `same read of a 1 MiB file ${mib(small.peakKiB)}`,
    ratio: `+${delta.toFixed(1)} MiB`,
    target: "≤ +64 MiB",
    holds: delta <= 64 ? "yes" : "**no**",
  });
  timeRow(
    "2 GiB log, middle window: wall time of the read in that fresh process",
    { subject: big.ms, reference: median(coldWc) },
    "wc -l",
    8,
  );
  timeRow("2 GiB log, middle window: wall time, warm", warm, "wc -l", 8);
}

/** Whether `rg` runs here; installs it with apt-get when missing and running as root. */
async function ensureRipgrep(): Promise<boolean> {
  const works = () => run("rg", ["--version"]).then(() => true, () => false);
  if (await works()) return true;
  if (Deno.uid?.() !== 0) return false;
  progress("installing ripgrep (apt-get)");
  await run("apt-get", ["update", "-qq"]).catch(() => "");
  await run("apt-get", ["install", "-y", "-qq", "ripgrep"]).catch(() => "");
  return await works();
}

/** Peak resident memory of one `grep` in a fresh process, in KiB, and its time. */
async function childGrep(root: string, path: string, pattern: string) {
  const peaks: number[] = [];
  const times: number[] = [];
  for (let i = 0; i < Math.max(3, Math.ceil(RUNS / 2)); i++) {
    const out = await run(Deno.execPath(), [
      "run",
      "-A",
      `${REPO}/bench/_search_rss_child.ts`,
      root,
      path,
      pattern,
    ]);
    const { peakKiB, ms } = JSON.parse(out);
    peaks.push(peakKiB);
    times.push(ms);
  }
  return { peakKiB: median(peaks), ms: median(times) };
}

/**
 * `glob` and `grep` against ripgrep (`rg`, with `--no-require-git` so it applies .gitignore
 * files without a .git directory, as toolfs does) on a generated source tree, and the peak
 * memory of a grep over the tree and over a 1 GiB file.
 */
async function searchRows(inputs: Inputs): Promise<void> {
  if (!(await ensureRipgrep())) {
    rows.push({
      case: "search rows",
      toolfs: "skipped: rg (ripgrep) is missing and cannot be installed",
      reference: "rg",
      ratio: "",
      target: "",
      holds: "",
    });
    return;
  }
  const given = options["search-tree"];
  const tree = given ?? `${inputs.root}/tree`;
  const rg = (args: string[]) => () =>
    new Deno.Command("rg", { args: ["--no-require-git", "--no-config", ...args], cwd: tree })
      .output();
  let facts: string;
  if (given) {
    // What rg searches there (the files .gitignore leaves), as the generated tree's facts say.
    const listed = new TextDecoder().decode((await rg(["--files", "--null"])()).stdout);
    const files = listed.split("\0").filter(Boolean);
    let bytes = 0;
    for (const file of files) bytes += (await Deno.lstat(`${tree}/${file}`)).size;
    facts = `${given.split("/").pop()}: ${files.length} files, ${(bytes / MiB).toFixed(1)} MiB`;
  } else {
    progress("generating the source tree");
    const made = await generateSourceTree(REPO, tree);
    await run("sync", []);
    facts = `${made.files} files, ${(made.bytes / MiB).toFixed(0)} MiB`;
  }
  const literal = options.literal ?? (given ? "AbortSignal" : "readMaxBytes");
  const regex = options.regex ?? "function \\w+\\(signal";
  const tools = toolsOn(tree);
  // On a tree of one's own the texts are not known: a result that is not an error will do.
  const expect = (text: string) => (result: { isError: boolean; content: string }) => {
    if (result.isError || (!given && !result.content.includes(text))) {
      throw new Error(result.content);
    }
  };
  timeRow(
    `glob "**/*.ts", ${facts}`,
    await pair(
      "glob **/*.ts",
      () => tools.execute("glob", { pattern: "**/*.ts" }).then(expect('matching "**/*.ts"')),
      rg(["--files", "-g", "**/*.ts"]),
    ),
    "rg --files -g",
    1.5,
  );
  timeRow(
    `grep a literal (content mode), ${facts}`,
    await pair(
      "grep literal",
      () => tools.execute("grep", { pattern: literal }).then(expect("matching lines")),
      rg(["-n", literal]),
    ),
    "rg -n",
    1.25,
  );
  timeRow(
    `grep a regex (content mode), ${facts}`,
    await pair(
      "grep regex",
      () => tools.execute("grep", { pattern: regex }).then(expect("</content>")),
      rg(["-n", regex]),
    ),
    "rg -n",
    1.25,
  );
  progress("peak RSS: a 1 KiB read in a fresh process");
  const k1 = await inputs.k1();
  void k1;
  const base = await peakOf(inputs.root, "k1.txt", 1);
  const log = await inputs.log();
  for (
    const [name, root, path, pattern] of [
      [`grep over the source tree (${facts})`, given ? tree : inputs.root, tree, literal],
      ["grep over a 1 GiB file", inputs.root, log.path, "no such text here"],
    ] as const
  ) {
    progress(`peak RSS: ${name}`);
    const peak = await childGrep(root, path, pattern);
    const delta = (peak.peakKiB - base.peakKiB) / 1024;
    rows.push({
      case: `peak RSS, ${name}`,
      toolfs: mib(peak.peakKiB),
      reference: `1 KiB read ${mib(base.peakKiB)}`,
      ratio: `+${delta.toFixed(1)} MiB`,
      target: "≤ +64 MiB",
      holds: delta <= 64 ? "yes" : "**no**",
    });
  }
}

/**
 * PDF reads (C17.2): peak memory in a fresh process against a 1 KiB read, and a window on the
 * last page after a first read against that first read (the page checkpoints at work).
 */
async function pdfRows(inputs: Inputs): Promise<void> {
  const { root } = inputs;
  await inputs.k1();
  const pages = [[20, "pdf20.pdf"], [2000, "pdf2000.pdf"]] as const;
  const sizes: Record<string, number> = {};
  for (const [count, name] of pages) {
    const bytes = makePdf(numberedPages(count, 40));
    await Deno.writeFile(`${root}/${name}`, bytes);
    sizes[name] = bytes.length;
  }
  progress("peak RSS: a 1 KiB read in a fresh process");
  const base = await peakOf(root, "k1.txt", 1);
  const cases: Array<[string, string, number | undefined]> = [
    ["20-page PDF, limit 50 (every page extracted for the total)", "pdf20.pdf", 50],
    ["2000-page PDF, limit 50 (every page extracted for the total)", "pdf2000.pdf", 50],
    ["2000-page PDF, default window (the byte cap ends extraction)", "pdf2000.pdf", undefined],
  ];
  for (const [name, file, limit] of cases) {
    progress(`peak RSS: ${name}`);
    const peak = await peakOf(root, file, 1, limit);
    const delta = (peak.peakKiB - base.peakKiB) / 1024;
    rows.push({
      case: `peak RSS, read ${name}, ${mib(sizes[file] / 1024)}`,
      toolfs: mib(peak.peakKiB),
      reference: `1 KiB read ${mib(base.peakKiB)}`,
      ratio: `+${delta.toFixed(1)} MiB`,
      // A document's bound is C17.2a's (the worker and pdf.js's working set), not a text read's.
      target: "≤ +256 MiB (C17.2a)",
      holds: delta <= 256 ? "yes" : "**no**",
    });
  }
  const fs = new LocalFileSystem({ roots: [{ path: root, write: false }] });
  const warm = createFsTools({ fs });
  const lastPage = { file_path: "pdf2000.pdf", offset: 41 * 1999 + 1, limit: 41 };
  await warm.execute("read", { file_path: "pdf2000.pdf", limit: 1 }); // builds the checkpoints
  const timing = await pair(
    "PDF: a window on the last page, after a first read",
    async () => check(await warm.execute("read", lastPage)),
    async () => check(await createFsTools({ fs }).execute("read", lastPage)),
  );
  rows.push({
    case: "read the last page of a 2000-page PDF after a first read (resumes at its page)",
    toolfs: ms(timing.subject),
    reference: `the same read, fresh tools ${ms(timing.reference)}`,
    ratio: `${(timing.reference / timing.subject).toFixed(1)}× faster`,
    target: "faster",
    holds: timing.subject < timing.reference ? "yes" : "**no**",
  });
}

function check(result: { isError: boolean; content: string }): void {
  if (result.isError) throw new Error(result.content);
}

const SECTIONS = ["read", "memory", "list", "edit", "search", "mcp", "2gib", "pdf"] as const;

async function main(): Promise<void> {
  const only = options.only ? options.only.split(",") : [...SECTIONS];
  const unknown = only.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length) throw new Error(`unknown section ${unknown}: use ${SECTIONS.join(",")}`);
  const mcp = only.includes("mcp") && !options["no-mcp"];
  const dir = await Deno.makeTempDir({ prefix: "toolfs-bench-" });
  progress(`inputs in ${dir}`);
  const refPrefix = `${dir}/reference-server`;
  // npm works while the inputs are written.
  const install = mcp ? installReference(refPrefix, options["reference-version"]!) : null;
  install?.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
  const root = `${dir}/root`;
  await Deno.mkdir(root);
  const inputs = new Inputs(root);
  try {
    if (only.includes("read")) await readRows(inputs);
    if (only.includes("memory")) await memoryRows(inputs);
    if (only.includes("list")) await listRows(inputs);
    if (only.includes("edit")) await editRows(inputs);
    if (only.includes("search")) await searchRows(inputs);
    if (only.includes("pdf")) await pdfRows(inputs);
    if (install) {
      progress("installing the reference MCP server (npm)");
      await install;
      await mcpRows(inputs, refPrefix);
    }
    if (only.includes("2gib")) await bigRows(inputs);
  } finally {
    if (!options.keep) {
      progress("removing the inputs");
      await Deno.remove(dir, { recursive: true });
    }
  }
  const memory = Deno.systemMemoryInfo().total;
  const cpu = (await Deno.readTextFile("/proc/cpuinfo").catch(() => ""))
    .match(/^model name\s*:\s*(.+)$/m)?.[1] ?? "unknown CPU";
  const node = await run("node", ["--version"]).catch(() => "absent");
  printTable([
    `toolfs bench:compare, ${new Date().toISOString().slice(0, 16)}Z: ` +
    `${navigator.hardwareConcurrency} CPUs (${cpu}), ${(memory / GiB).toFixed(0)} GiB memory, ` +
    `Deno ${Deno.version.deno}, Node ${node.trim()}, ${RUNS} timed run${
      RUNS === 1 ? "" : "s"
    } per case ` +
    `(medians)` +
    (mcp
      ? `, reference MCP server @modelcontextprotocol/server-filesystem@${
        options["reference-version"]
      }`
      : ""),
  ]);
  progress("done");
}

/**
 * The same read, list and edit over MCP: toolfs's server over stdio, then over Streamable HTTP,
 * each against the reference server over stdio (its only transport).
 */
async function mcpRows(inputs: Inputs, refPrefix: string): Promise<void> {
  const { root } = inputs;
  await inputs.log();
  await inputs.dir100k();
  const f50 = await inputs.f50();
  progress("MCP: starting the reference server");
  const reference: McpPeer = await connectReference(refPrefix, root);
  try {
    for (const transport of ["stdio", "HTTP"] as const) {
      progress(`MCP: starting toolfs over ${transport}`);
      const toolfs: McpPeer = transport === "stdio"
        ? await connectToolfs(REPO, root)
        : await connectToolfsHttp(REPO, root);
      try {
        await mcpTransportRows(transport, toolfs, reference, root, f50);
      } finally {
        await toolfs.close().catch(() => {});
      }
    }
  } finally {
    await reference.close().catch(() => {});
  }
}

async function mcpTransportRows(
  transport: "stdio" | "HTTP",
  toolfs: McpPeer,
  reference: McpPeer,
  root: string,
  f50: GeneratedFile,
): Promise<void> {
  const over = transport === "stdio" ? "MCP" : "MCP over HTTP";
  // The reference reads the same lines toolfs shows in its first window.
  const window = await read(toolsOn(root), "log1g.txt", 1);
  const head = (window.match(/\n\d+: /g) ?? []).length;
  timeRow(
    `${over} read: first window of the 1 GiB log (reference: read_text_file head=${head})`,
    await pair(
      `${over}: read`,
      () => toolfs.call("read", { file_path: "log1g.txt" }),
      () => reference.call("read_text_file", { path: `${root}/log1g.txt`, head }),
      MCP_WARMUPS,
      Math.max(RUNS, MCP_READ_RUNS),
    ),
    "server-filesystem",
    1,
  );
  timeRow(
    `${over} list: 100k entries (reference: list_directory)`,
    await pair(
      `${over}: list`,
      () => toolfs.call("list", { path: "dir100k" }),
      () => reference.call("list_directory", { path: `${root}/dir100k` }),
      MCP_WARMUPS,
    ),
    "server-filesystem",
    1,
  );
  const file = transport === "stdio" ? "f50_mcp.txt" : "f50_http.txt";
  const line = Math.floor(f50.lines / 2);
  const name = `${over} edit: one line of a 50 MiB file (reference: edit_file)`;
  const nextToolfs = flipper(f50);
  const nextReference = flipper(f50);
  let failure: unknown = null; // a failed toolfs edit still leaves the reference timed
  await toolfs.call("read", { file_path: file, offset: line, limit: 1 });
  const edits = await pair(
    `${over}: edit`,
    async () => {
      if (failure) return;
      const [from, to] = nextToolfs();
      try {
        await toolfs.call("edit", { file_path: file, old_string: from, new_string: to });
      } catch (error) {
        failure = error;
        progress(
          `${over} edit through toolfs failed: ${error instanceof Error ? error.message : error}`,
        );
      }
    },
    () => {
      const [from, to] = nextReference();
      return reference.call("edit_file", {
        path: `${root}/f50_ref.txt`,
        edits: [{ oldText: from, newText: to }],
      });
    },
  );
  if (failure) failedRow(name, `server-filesystem ${ms(edits.reference)}`, failure);
  else timeRow(name, edits, "server-filesystem", 1);
}

if (import.meta.main) await main();
