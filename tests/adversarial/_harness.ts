// Shared fixtures of the adversarial suites: a real temporary tree with a root and secrets
// placed outside it, snapshots to prove nothing outside changed, and result assertions.

import assert from "node:assert/strict";
import { join } from "node:path";
import { FS_ERROR_CODES, type FsToolResult } from "../../mod.ts";
import { type Sandbox, sandbox, type SandboxOptions } from "../_sandbox.ts";

/** The text every outside secret holds; a result containing it is an escape. */
export const SECRET = "TOPSECRET-4f1c9a";

/** Sibling directories whose names share the root's prefix. */
export const SIBLINGS = ["root2", "root_evil", "root.bak", "root "] as const;

/** An {@linkcode adversarialSandbox}: a local sandbox with secrets placed outside its root. */
export interface AdversarialSandbox extends Sandbox {
  /** A directory outside the root holding `secret.txt`. */
  outside: string;
  /** `<outside>/secret.txt`. */
  secret: string;
}

/**
 * A "local" {@linkcode sandbox} holding `files` whose root is surrounded by secrets:
 * `outside/secret.txt`, a `secret.txt` beside the root, and one in each sibling directory whose
 * name shares the root's prefix ({@linkcode SIBLINGS}).
 */
export async function adversarialSandbox(
  files: Record<string, string | Uint8Array> = {},
  options: SandboxOptions = {},
): Promise<AdversarialSandbox> {
  const secrets: Record<string, string> = {
    "../outside/secret.txt": `${SECRET} outside\n`,
    "../secret.txt": `${SECRET} base\n`,
  };
  for (const name of SIBLINGS) secrets[`../${name}/secret.txt`] = `${SECRET} ${name}\n`;
  const box = await sandbox("local", { ...secrets, ...files }, options);
  const outside = join(box.base, "outside");
  return Object.assign(box, { outside, secret: join(outside, "secret.txt") });
}

/** One entry of a snapshot. */
export interface SnapshotEntry {
  type: "file" | "directory" | "symlink" | "other";
  mode: number | null;
  ino: number | null;
  mtimeMs: number | null;
  /** File content (hex of a SHA-256) or link target. */
  data: string;
}

/** Every entry below `dir` (links not followed), keyed by path relative to `dir`. */
export async function snapshot(
  dir: string,
  skip: (relative: string) => boolean = () => false,
): Promise<Map<string, SnapshotEntry>> {
  const out = new Map<string, SnapshotEntry>();
  async function walk(path: string, relative: string): Promise<void> {
    for await (const entry of Deno.readDir(path)) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (skip(rel)) continue;
      const full = join(path, entry.name);
      const info = await Deno.lstat(full).catch(() => null);
      if (!info) continue;
      const base = { mode: info.mode, ino: info.ino, mtimeMs: info.mtime?.getTime() ?? null };
      if (info.isSymlink) {
        out.set(rel, { type: "symlink", ...base, data: await Deno.readLink(full) });
      } else if (info.isDirectory) {
        out.set(rel, { type: "directory", ...base, data: "" });
        await walk(full, rel);
      } else if (info.isFile) {
        out.set(rel, { type: "file", ...base, data: await digest(await Deno.readFile(full)) });
      } else {
        out.set(rel, { type: "other", ...base, data: "" });
      }
    }
  }
  await walk(dir, "");
  return out;
}

/** Asserts two snapshots are equal, naming the first differing entry. */
export function assertSameTree(
  before: Map<string, SnapshotEntry>,
  after: Map<string, SnapshotEntry>,
  what = "the tree",
): void {
  const names = new Set([...before.keys(), ...after.keys()]);
  for (const name of [...names].sort()) {
    assert.deepEqual(after.get(name), before.get(name), `${what} changed at "${name}"`);
  }
}

async function digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Snapshots everything in the sandbox except the root. */
export function outsideSnapshot(box: AdversarialSandbox): Promise<Map<string, SnapshotEntry>> {
  return snapshot(box.base, (rel) => rel === "root");
}

/** Asserts a failed result with `code` (and exact `message` when given), never a stack trace. */
export function assertError(result: FsToolResult, code: string, message?: string): void {
  assert(result.isError, `expected ${code}, got success: ${result.content}`);
  assert.deepEqual(result.error?.code, code, result.content);
  assert.deepEqual(result.error?.name, "FsError");
  if (message !== undefined) assert.deepEqual(result.content, `Error: ${message}`);
  assertWellFormedError(result);
}

/** Asserts a failed result is `Error: <one line>` with a contract code and no stack trace. */
export function assertWellFormedError(result: FsToolResult): void {
  assert(result.isError);
  assert(result.content.startsWith("Error: "), result.content);
  assert(!/\n\s+at /.test(result.content), `stack trace in: ${result.content}`);
  assert(
    (FS_ERROR_CODES as readonly string[]).includes(result.error?.code ?? ""),
    `unknown code ${result.error?.code}`,
  );
  assert.deepEqual(result.value, undefined);
}

/** Asserts no result text or value carries the outside secret. */
export function assertNoSecret(result: FsToolResult): void {
  assert(!result.content.includes(SECRET), `secret leaked: ${result.content}`);
  assert(!JSON.stringify(result.value ?? null).includes(SECRET), "secret leaked in value");
}

/** Whether a Deno permission is granted (without prompting). */
export function granted(descriptor: Deno.PermissionDescriptor): boolean {
  return Deno.permissions.querySync(descriptor).state === "granted";
}

/** The variable `deno task test:slow` sets to run the slow cases. */
export const SLOW_VARIABLE = "TOOLFS_SLOW";

/**
 * Why a slow case (seconds to a minute: swap races, huge files, fuzzing, fault sweeps, crashes)
 * does not run now, or `null` when it does: it runs only under `deno task test:slow`, which sets
 * `TOOLFS_SLOW=1` (CI runs that task too).
 */
export function notSlowRun(): string | null {
  const readable = granted({ name: "env", variable: SLOW_VARIABLE });
  return readable && Deno.env.get(SLOW_VARIABLE) === "1"
    ? null
    : "slow: runs with deno task test:slow (CI runs it)";
}

let slowNoted = false;

/**
 * Test options that skip a slow case outside `deno task test:slow`, saying so once per file.
 *
 * @returns `{ ignore }` for `Deno.test(name, options, fn)`.
 */
export function slowCase(): { ignore: boolean } {
  const reason = notSlowRun();
  if (reason !== null && !slowNoted) {
    slowNoted = true;
    console.warn(`%cskipped%c the slow cases of this file: ${reason}`, "color: yellow", "");
  }
  return { ignore: reason !== null };
}

/**
 * Why a test that spawns `command` cannot run here, or `null` when it can. Without a command:
 * a test that only spawns Deno itself (`Deno.execPath()`).
 */
export function cannotRun(command?: string): string | null {
  if (!granted({ name: "run" })) return "needs --allow-run (CI runs deno test -A)";
  if (command === undefined) return null;
  try {
    const { success } = new Deno.Command("sh", {
      args: ["-c", `command -v ${command}`],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    return success ? null : `needs ${command} on PATH`;
  } catch (error) {
    return `cannot spawn processes: ${(error as Error).message}`;
  }
}

/**
 * The `ignore` flag of a test that cannot run for `reason` (`null`: it can), with a visible
 * note naming the test and the reason.
 */
export function skipUnless(testName: string, reason: string | null): boolean {
  if (reason !== null) {
    console.warn(`%cskipped%c "${testName}": ${reason}`, "color: yellow", "");
  }
  return reason !== null;
}

/** Lists the temporary files `write`/`edit` leave behind (there must be none). */
export async function tempFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const [rel] of await snapshot(dir)) {
    if (/\.toolfs-[^/]*\.tmp$/.test(rel)) found.push(rel);
  }
  return found;
}

/** Prints a figure for the README's "Security and reliability" (`[figures] <suite>: <text>`). */
export function figure(suite: string, text: string): void {
  console.log(`[figures] ${suite}: ${text}`);
}

/** The arguments of `op` aimed at `path`: `write` writes, `edit` replaces the secret. */
export function argsFor(op: string, path: string): Record<string, unknown> {
  switch (op) {
    case "list":
      return { path };
    case "read":
      return { file_path: path };
    case "write":
      return { file_path: path, content: "pwned by toolfs\n" };
    default:
      return { file_path: path, old_string: SECRET, new_string: "pwned" };
  }
}

/** The four tools. */
export const OPS = ["list", "read", "write", "edit"] as const;

/** The permission flags that let a child read and write under `dir` only. */
export function rootPermissions(dir: string): string[] {
  return [`--allow-read=${dir}`, `--allow-write=${dir}`];
}

/** How {@linkcode childCommand} runs a child script of this folder. */
export interface ChildOptions {
  /** Deno permission flags, e.g. `--allow-read=<root>`. */
  permissions: string[];
  /** Let Deno prompt for a missing permission (default: `--no-prompt`, it fails instead). */
  prompt?: boolean;
  stdin?: "piped" | "null";
  stdout?: "piped" | "null";
  stderr?: "piped" | "null" | "inherit";
}

/** The command running the child script `script` (a file of this folder) with `args`. */
export function childCommand(script: string, args: string[], options: ChildOptions): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-config",
      ...(options.prompt ? [] : ["--no-prompt"]),
      ...options.permissions,
      new URL(script, import.meta.url).pathname,
      ...args,
    ],
    stdin: options.stdin ?? "null",
    stdout: options.stdout ?? "piped",
    stderr: options.stderr ?? "piped",
  });
}

/** Reads the child's stdout until it says "ready". */
async function waitReady(child: Deno.ChildProcess): Promise<void> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("ready\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`child exited before it was ready: ${text}`);
    text += value;
  }
  reader.releaseLock();
}

/**
 * Starts a child script that prints "ready" and then works until it is killed, and kills it with
 * SIGKILL at a random moment up to `maxDelayMs` after it is ready.
 */
export async function killWhenReady(
  script: string,
  args: string[],
  options: ChildOptions,
  maxDelayMs: number,
): Promise<void> {
  const child = childCommand(script, args, options).spawn();
  try {
    await waitReady(child);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * maxDelayMs));
  } finally {
    child.kill("SIGKILL");
    await child.status;
    await child.stdout.cancel().catch(() => {});
  }
}

/** The JSON report a child printed last, once it ended with success; its stderr too. */
async function childReport<T>(
  script: string,
  output: Promise<Deno.CommandOutput>,
): Promise<{ report: T; stderr: string }> {
  const { success, stdout, stderr } = await output;
  const errors = new TextDecoder().decode(stderr);
  assert.ok(success, `${script} failed: ${errors}`);
  const report = JSON.parse(new TextDecoder().decode(stdout).trim().split("\n").at(-1)!) as T;
  return { report, stderr: errors };
}

/** Runs a child script to its end: its last stdout line, parsed, and its stderr. */
export function runChild<T>(
  script: string,
  args: string[],
  options: ChildOptions,
): Promise<{ report: T; stderr: string }> {
  return childReport<T>(script, childCommand(script, args, options).output());
}

/** Starts a child script that runs until `stop()` creates the file `stopFile`. */
export function startChild(
  script: string,
  stopFile: string,
  args: string[],
  options: ChildOptions,
) {
  const child = childCommand(script, args, options).spawn();
  return {
    /** Asks the child to stop; its last stdout line, parsed. */
    async stop<T>(): Promise<T> {
      await Deno.writeTextFile(stopFile, "");
      return (await childReport<T>(script, child.output())).report;
    },
  };
}
