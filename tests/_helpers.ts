// Shared utilities of the test suite: result checks, permission checks, FIFOs, temporary-file
// listing and the contract's result layouts. Fixtures (a file tree with tools over it) come from
// `tests/_sandbox.ts`'s `sandbox`.

import { join } from "node:path";
import type { FsToolResult } from "../mod.ts";

export const encoder: TextEncoder = new TextEncoder();
export const decoder: TextDecoder = new TextDecoder();

/** The content of a result that must have succeeded (fails with the error text otherwise). */
export function ok(result: FsToolResult): string {
  if (result.isError) throw new Error(`expected success, got ${result.content}`);
  return result.content;
}

/** `[content, code]` of a result, for one-line assertions of failures. */
export function failed(result: FsToolResult): [string, string | undefined] {
  return [result.content, result.error?.code];
}

/** Whether `name` permission is granted without prompting. */
export function granted(name: "run" | "env" | "sys"): boolean {
  return Deno.permissions.querySync({ name }).state === "granted";
}

/** The `ignore` flag of a test needing `--allow-run`, with a visible note when skipped. */
export function needsRun(testName: string): boolean {
  const missing = !granted("run");
  if (missing) {
    console.warn(
      `%cskipped%c "${testName}": needs --allow-run (run with deno test -A)`,
      "color: yellow",
      "",
    );
  }
  return missing;
}

/** Makes a FIFO with `mkfifo` (needs --allow-run). */
export async function mkfifo(path: string): Promise<void> {
  const { success } = await new Deno.Command("mkfifo", { args: [path] }).output();
  if (!success) throw new Error(`mkfifo ${path} failed`);
}

/** Names in `dir` (recursively) that look like toolfs temporary files. */
export async function tempFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name.includes(".toolfs-")) found.push(entry.name);
    if (entry.isDirectory) {
      for (const name of await tempFiles(join(dir, entry.name))) {
        found.push(`${entry.name}/${name}`);
      }
    }
  }
  return found.sort();
}

/** The text of a `read` result the way the contract lays it out. */
export function readText(displayPath: string, lines: string[], footer: string): string {
  const body = lines.map((line) => line + "\n").join("");
  return `<path>${displayPath}</path>\n<type>file</type>\n<content>\n${body}\n${footer}\n</content>`;
}

/** The text of a `list` result the way the contract lays it out. */
export function listText(displayPath: string, entries: string[], footer: string): string {
  const body = entries.map((entry) => entry + "\n").join("");
  return `<path>${displayPath}</path>\n<type>directory</type>\n<content>\n${body}\n${footer}\n</content>`;
}

/** The five-line `write` result. */
export function writeText(displayPath: string, created: boolean): string {
  return `<path>${displayPath}</path>\n<type>file</type>\n<content>\n${
    created ? "Created file" : "Updated file"
  }\n</content>`;
}
