/**
 * Builds the UI (`playground/ui/` → `playground/dist/`) with `deno bundle` (Deno's own bundler:
 * no Vite, no Rolldown, nothing more to download than the UI's two packages, preact and diff),
 * and tells whether the build is stale. Run directly to build:
 * `deno run -A playground/server/build_ui.ts`.
 *
 * @module
 */

import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { PLAYGROUND_DIR } from "./workspace.ts";

/** The UI sources. */
export const UI_DIR: string = join(PLAYGROUND_DIR, "ui");
/** Where the built UI goes (gitignored). */
export const DIST_DIR: string = join(PLAYGROUND_DIR, "dist");

const STAMP = ".build-hash";
const SELF = fileURLToPath(import.meta.url);

/**
 * A digest of everything the build reads: the UI sources and this script.
 *
 * @returns A hex SHA-256.
 */
export async function sourceHash(): Promise<string> {
  const files = [SELF, ...await listFiles(UI_DIR)].sort();
  const parts: Uint8Array[] = [];
  const encoder = new TextEncoder();
  for (const file of files) {
    parts.push(encoder.encode(`${relative(PLAYGROUND_DIR, file)}\0`));
    parts.push(await Deno.readFile(file));
    parts.push(encoder.encode("\0"));
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether `playground/dist/` is missing or was built from other sources.
 *
 * @returns `true` when the UI needs a build.
 */
export async function isStale(): Promise<boolean> {
  const built = await Deno.readTextFile(join(DIST_DIR, STAMP)).catch(() => "");
  if (built === "") return true;
  const indexExists = await Deno.stat(join(DIST_DIR, "index.html")).then(() => true, () => false);
  return !indexExists || built.trim() !== await sourceHash();
}

/**
 * Builds the UI when the build is missing or stale.
 *
 * @param options `force` rebuilds regardless.
 * @returns Whether a build ran.
 * @throws {Error} When the build fails and no earlier build exists.
 */
export async function ensureUiBuilt(options: { force?: boolean } = {}): Promise<boolean> {
  if (!options.force && !await isStale()) return false;
  console.log("Building the playground UI…");
  try {
    await build();
  } catch (error) {
    const hasOld = await Deno.stat(join(DIST_DIR, "index.html")).then(() => true, () => false);
    const message = `the UI build failed: ${(error as Error).message}`;
    if (!hasOld) throw new Error(message);
    console.warn(`${message}; serving the previous build`);
  }
  return true;
}

/**
 * Bundles `ui/index.html` (its script, the styles it imports, preact and diff) into
 * `dist/` with `deno bundle` in a child process, and stamps the output.
 */
async function build(): Promise<void> {
  const started = performance.now();
  const hash = await sourceHash();
  const out = `${DIST_DIR}.building`;
  await Deno.remove(out, { recursive: true }).catch(() => {});
  const { success, code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--unstable-npm-lazy-caching",
      "--platform=browser",
      "--minify",
      "--sourcemap=linked",
      `--lock=${join(dirname(PLAYGROUND_DIR), "deno.lock")}`,
      "--outdir",
      out,
      join(UI_DIR, "index.html"),
    ],
    cwd: dirname(PLAYGROUND_DIR),
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) {
    await Deno.remove(out, { recursive: true }).catch(() => {});
    const said = new TextDecoder().decode(stderr).trim();
    throw new Error(`deno bundle exited with code ${code}${said ? `: ${said}` : ""}`);
  }
  await Deno.writeTextFile(join(out, STAMP), hash + "\n");
  await Deno.remove(DIST_DIR, { recursive: true }).catch(() => {});
  await Deno.rename(out, DIST_DIR);
  console.log(`Built the UI into ${DIST_DIR} in ${Math.round(performance.now() - started)} ms`);
}

async function listFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...await listFiles(path));
    else if (entry.isFile) files.push(path);
  }
  return files;
}

if (import.meta.main) await build();
