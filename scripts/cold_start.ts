/**
 * The README's two commands on a fresh clone with an empty Deno cache (issue 34 item 1): copies
 * the checkout's files (tracked and untracked, not ignored: no `node_modules/`, no UI build) into
 * a temporary directory, points `DENO_DIR` at a new empty directory, and prints
 *
 * - for `deno task playground`: the seconds until it prints its address and the bytes it put on
 *   disk by then (the Deno cache and any `node_modules/`, hard links counted once), and the same
 *   at the first `read` answer from its API (which waits for the two default tokenizers);
 * - for `deno test --allow-read --allow-write --no-prompt` (with `--test`, again from an empty
 *   cache): its seconds, bytes and exit status.
 *
 * A benchmark, not a timed test: it prints figures and fails only when a command fails.
 *
 * ```sh
 * deno run -A scripts/cold_start.ts          # the playground only
 * deno run -A scripts/cold_start.ts --test   # and the core tests
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startPlayground } from "../tests/_playground_process.ts";

const PROJECT = fileURLToPath(new URL("..", import.meta.url));
const DENO = Deno.execPath();

/** Copies the files git knows of (tracked, and untracked but not ignored) into `to`. */
async function copyCheckout(to: string): Promise<void> {
  const listed = await new Deno.Command("git", {
    args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    cwd: PROJECT,
    stdout: "piped",
  }).output();
  if (!listed.success) throw new Error("git ls-files failed");
  const files = new TextDecoder().decode(listed.stdout).split("\0").filter((f) => f !== "");
  for (const file of files) {
    const source = join(PROJECT, file);
    const info = await Deno.lstat(source).catch(() => null);
    if (info === null) continue; // deleted in the work tree
    const target = join(to, file);
    await Deno.mkdir(join(target, ".."), { recursive: true });
    if (info.isSymlink) await Deno.symlink(await Deno.readLink(source), target);
    else if (info.isFile) await Deno.copyFile(source, target);
  }
}

/** Bytes on disk under the paths that exist, each file once (`du -sbc`). */
async function diskBytes(...paths: string[]): Promise<number> {
  const present: string[] = [];
  for (const path of paths) {
    if (await Deno.stat(path).then(() => true, () => false)) present.push(path);
  }
  if (present.length === 0) return 0;
  const du = await new Deno.Command("du", { args: ["-sbc", ...present], stdout: "piped" })
    .output();
  const last = new TextDecoder().decode(du.stdout).trim().split("\n").at(-1) ?? "0";
  return Number(last.split(/\s+/)[0]);
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A fresh copy and an empty Deno cache, removed by `dispose`. */
async function freshClone(): Promise<{ dir: string; denoDir: string; dispose(): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "toolfs-clone-" });
  const denoDir = await Deno.makeTempDir({ prefix: "toolfs-deno-dir-" });
  await copyCheckout(dir);
  return {
    dir,
    denoDir,
    async dispose() {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      await Deno.remove(denoDir, { recursive: true }).catch(() => {});
    },
  };
}

/** `deno task playground --port 0` cold: seconds to the address and to the first read answer. */
async function playground(): Promise<boolean> {
  const clone = await freshClone();
  const started = performance.now();
  const child = await startPlayground(["task", "playground", "--port", "0"], {
    cwd: clone.dir,
    env: { DENO_DIR: clone.denoDir },
  });
  let ok = false;
  try {
    const url = child.url;
    const addressMs = performance.now() - started;
    if (url === undefined) {
      console.log(`deno task playground exited before printing its address:\n${child.output}`);
      return false;
    }
    const bytesAtAddress = await diskBytes(clone.denoDir, join(clone.dir, "node_modules"));
    const address = new URL(url);
    const token = address.searchParams.get("token") ?? "";
    const response = await fetch(new URL("/api/execute", address), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ tool: "read", args: { file_path: "README.md" } }),
    });
    const answer = await response.json();
    const readMs = performance.now() - started;
    ok = response.ok && answer.isError === false;
    const bytes = await diskBytes(clone.denoDir, join(clone.dir, "node_modules"));
    console.log(
      `cold start: deno task playground: address after ${seconds(addressMs)} ` +
        `(${mb(bytesAtAddress)} downloaded), first read answer after ${seconds(readMs)} ` +
        `(${mb(bytes)}, with the two default tokenizers)` +
        (ok ? "" : ` FAILED: ${JSON.stringify(answer).slice(0, 200)}`),
    );
    return ok;
  } finally {
    await child.stop();
    await clone.dispose();
  }
}

/** The design card's test command cold: seconds, bytes and whether it passed. */
async function coreTests(): Promise<boolean> {
  const clone = await freshClone();
  try {
    const started = performance.now();
    const result = await new Deno.Command(DENO, {
      args: ["test", "--allow-read", "--allow-write", "--no-prompt"],
      cwd: clone.dir,
      env: { DENO_DIR: clone.denoDir, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const ms = performance.now() - started;
    const bytes = await diskBytes(clone.denoDir, join(clone.dir, "node_modules"));
    const out = new TextDecoder().decode(result.stdout);
    const summary = out.match(/^(ok|FAILED) \| .*$/m)?.[0] ?? `exit code ${result.code}`;
    console.log(
      `cold start: deno test --allow-read --allow-write --no-prompt: ${seconds(ms)}, ` +
        `downloaded ${mb(bytes)}; ${summary}`,
    );
    if (!result.success) {
      // What failed, not the whole run: deno test's failure summary, else the ends of the output.
      const failures = out.lastIndexOf("\n FAILURES \n");
      const err = new TextDecoder().decode(result.stderr);
      console.log(failures >= 0 ? out.slice(failures).trim() : out.slice(-2000));
      if (failures < 0) {
        console.log(
          err.split("\n").filter((l) => !l.startsWith("Download ")).join("\n").slice(-2000),
        );
      }
    }
    return result.success;
  } finally {
    await clone.dispose();
  }
}

if (import.meta.main) {
  let ok = await playground();
  if (Deno.args.includes("--test")) ok = await coreTests() && ok;
  if (!ok) Deno.exit(1);
}
