/**
 * Builds the UI (`playground/ui/` → `playground/dist/`) with Vite, and tells whether the build
 * is stale. Run directly to build: `deno run -A playground/server/build_ui.ts`.
 *
 * Vite 8 bundles with Rolldown, a Node-API addon that needs `--allow-ffi`, and probes
 * `/proc` paths that Deno only opens under `--allow-all`; so the server never imports Vite but
 * runs this file in a child process with `-A`.
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

/**
 * The npm packages the UI's sources import. Vite resolves them from `node_modules/` by itself, and
 * `deno task playground` installs only what it imports (`--unstable-npm-lazy-caching`), so the
 * build imports these first to have Deno install them.
 */
export const UI_PACKAGES: readonly string[] = Object.freeze(["preact", "diff"]);

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
 * Builds the UI in a child Deno process when the build is missing or stale.
 *
 * @param options `force` rebuilds regardless.
 * @returns Whether a build ran.
 * @throws {Error} When the build fails and no earlier build exists.
 */
export async function ensureUiBuilt(options: { force?: boolean } = {}): Promise<boolean> {
  if (!options.force && !await isStale()) return false;
  console.log("Building the playground UI…");
  const { success, code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--node-modules-dir=auto", "--unstable-npm-lazy-caching", "-A", SELF],
    cwd: dirname(PLAYGROUND_DIR),
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!success) {
    const hasOld = await Deno.stat(join(DIST_DIR, "index.html")).then(() => true, () => false);
    const message = `the UI build failed (exit code ${code})`;
    if (!hasOld) throw new Error(message);
    console.warn(`${message}; serving the previous build`);
  }
  return true;
}

/** Runs Vite's production build in this process and stamps the output. */
async function build(): Promise<void> {
  const started = performance.now();
  const hash = await sourceHash();
  await Promise.all(UI_PACKAGES.map((name) => import(name)));
  const { build } = await import("vite");
  const { default: preact } = await import("@preact/preset-vite");
  await build({
    root: UI_DIR,
    configFile: false,
    logLevel: "warn",
    plugins: [preact()],
    cacheDir: join(PLAYGROUND_DIR, ".vite"),
    build: { outDir: DIST_DIR, emptyOutDir: true, sourcemap: true },
  });
  await Deno.writeTextFile(join(DIST_DIR, STAMP), hash + "\n");
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
