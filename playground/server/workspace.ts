/**
 * The playground's workspace: by default a throw-away copy of `playground/fixtures/` plus the
 * cases a checkout cannot carry (an empty directory, a FIFO, symlinks) or that are too big to
 * commit (a 20 MiB log, a 250-entry directory).
 *
 * @module
 */

import { dirname, join, parse, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { RootSpec } from "../../mod.ts";

/** The `playground/` directory. */
export const PLAYGROUND_DIR: string = dirname(dirname(fileURLToPath(import.meta.url)));

/** The committed fixtures, copied into every fixture workspace. */
export const FIXTURES_DIR: string = join(PLAYGROUND_DIR, "fixtures");

/** A directory the playground's tools run in. */
export interface PlaygroundWorkspace {
  /** `fixtures`: a temporary copy that `reset` restores; `directory`: the user's own folder. */
  readonly kind: "fixtures" | "directory";
  /** The real path of the workspace: the first root and the tools' cwd. */
  readonly root: string;
  /** The roots to give `LocalFileSystem`; the first is `root`. */
  readonly roots: readonly RootSpec[];
  /** What the user must know before using it (printed at start), if anything. */
  readonly warning?: string;
  /** Restores the fixtures (a `directory` workspace is left as it is). */
  reset(): Promise<void>;
  /** Deletes a fixture workspace's temporary files. */
  dispose(): Promise<void>;
}

/** Options of {@linkcode createFixtureWorkspace}. */
export interface FixtureWorkspaceOptions {
  /**
   * The committed fixtures to copy.
   * @default {FIXTURES_DIR}
   */
  fixturesDir?: string;
  /**
   * Size of the generated `generated/big.log`, in bytes (at least this many).
   * @default {20 * 1024 * 1024 + 1}
   */
  bigLogBytes?: number;
  /**
   * Entries of the generated `generated/250-entries/` directory.
   * @default {250}
   */
  manyEntries?: number;
}

/** What the generated part of a fixture workspace holds, for tests and the start-up message. */
export const GENERATED = {
  emptyDir: "empty",
  bigLog: "generated/big.log",
  wideLines: "generated/wide-lines.txt",
  manyEntries: "generated/250-entries",
  binary: "special/blob.bin",
  image: "special/pixel.png",
  linkInside: "special/link-to-todo.md",
  linkOutside: "special/link-outside.txt",
  fifo: "special/fifo",
  readOnlyRoot: "vendor",
} as const;

// A 1×1 transparent PNG: read as an image (C17.1).
const PIXEL_PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  ),
  (c) => c.charCodeAt(0),
);

/**
 * Copies the fixtures into a fresh temporary directory and adds the generated cases.
 * `vendor/` becomes a read-only root nested in the workspace (CONTRACT C3.7).
 *
 * @param options Where the fixtures are and how big the generated cases get.
 * @returns The workspace; call `dispose` to delete it.
 *
 * @example
 * ```ts ignore
 * import { createFixtureWorkspace } from "./workspace.ts";
 *
 * const workspace = await createFixtureWorkspace();
 * console.log(workspace.root);
 * await workspace.dispose();
 * ```
 */
export async function createFixtureWorkspace(
  options: FixtureWorkspaceOptions = {},
): Promise<PlaygroundWorkspace> {
  const fixturesDir = options.fixturesDir ?? FIXTURES_DIR;
  const bigLogBytes = options.bigLogBytes ?? 20 * 1024 * 1024 + 1;
  const manyEntries = options.manyEntries ?? 250;
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "toolfs-playground-" }));
  const root = join(base, "workspace");
  const outside = join(base, "outside");
  const cache = join(base, "cache");
  await Deno.mkdir(root);
  await Deno.mkdir(outside);
  await Deno.mkdir(cache);
  await Deno.writeTextFile(
    join(outside, "secret.txt"),
    "This file lies outside the workspace; the tools must not read it.\n",
  );
  const bigLog = join(cache, "big.log");
  await writeBigLog(bigLog, bigLogBytes);

  async function populate(): Promise<void> {
    await copyTree(fixturesDir, root);
    await Deno.mkdir(join(root, GENERATED.emptyDir), { recursive: true });
    await Deno.mkdir(join(root, "generated"), { recursive: true });
    await Deno.copyFile(bigLog, join(root, GENERATED.bigLog));
    await Deno.writeTextFile(join(root, GENERATED.wideLines), wideLines(1000));
    await writeManyEntries(join(root, GENERATED.manyEntries), manyEntries);
    await Deno.mkdir(join(root, "special"), { recursive: true });
    await Deno.writeFile(join(root, GENERATED.image), PIXEL_PNG);
    await Deno.writeFile(join(root, GENERATED.binary), Uint8Array.of(0x7f, 0x45, 0x4c, 0x46, 0, 0));
    await Deno.symlink(join("..", "notes", "todo.md"), join(root, GENERATED.linkInside));
    await Deno.symlink(join(outside, "secret.txt"), join(root, GENERATED.linkOutside));
    await makeFifo(join(root, GENERATED.fifo));
  }

  await populate();
  return {
    kind: "fixtures",
    root,
    roots: [root, { path: join(root, GENERATED.readOnlyRoot), write: false }],
    async reset() {
      for await (const entry of Deno.readDir(root)) {
        await Deno.remove(join(root, entry.name), { recursive: true });
      }
      await populate();
    },
    async dispose() {
      await Deno.remove(base, { recursive: true }).catch(() => {});
    },
  };
}

/** Options of {@linkcode openDirectoryWorkspace}. */
export interface DirectoryWorkspaceOptions {
  /**
   * The user's home directory, to warn when the workspace is it or holds it.
   * @default {the `HOME` (or `USERPROFILE`) variable, when readable}
   */
  home?: string;
}

/**
 * Uses an existing directory as the workspace, read-write, as it is (CONTRACT C14.3): the
 * file-system root is refused; the home directory, or a directory holding it, is accepted with
 * a warning that writes there are real.
 *
 * @param dir The directory (`--root`).
 * @param options The home directory to warn about.
 * @returns The workspace; `reset` and `dispose` leave the directory alone.
 * @throws {Error} When `dir` is not a directory or is a file-system root.
 */
export async function openDirectoryWorkspace(
  dir: string,
  options: DirectoryWorkspaceOptions = {},
): Promise<PlaygroundWorkspace> {
  const root = await Deno.realPath(dir).catch((error) => {
    throw new Error(
      `--root "${dir}": ${error instanceof Deno.errors.NotFound ? "not found" : error}`,
    );
  });
  if (!(await Deno.stat(root)).isDirectory) {
    throw new Error(`--root "${dir}": not a directory`);
  }
  if (parse(root).root === root) {
    throw new Error(
      `--root "${dir}": refusing the file-system root; the tools would write with your rights anywhere`,
    );
  }
  const home = options.home ?? homeDirectory();
  const realHome = home ? await Deno.realPath(home).catch(() => home) : undefined;
  const holdsHome = realHome !== undefined && isInside(root, realHome);
  return {
    kind: "directory",
    root,
    roots: [root],
    ...(holdsHome
      ? {
        warning: `warning: --root "${dir}" ${
          root === realHome ? "is" : "holds"
        } your home directory (${realHome}); writes there are real`,
      }
      : {}),
    reset: () => Promise.resolve(),
    dispose: () => Promise.resolve(),
  };
}

function homeDirectory(): string | undefined {
  for (const variable of ["HOME", "USERPROFILE"]) {
    const state = Deno.permissions.querySync({ name: "env", variable }).state;
    const value = state === "granted" ? Deno.env.get(variable) : undefined;
    if (value) return value;
  }
  return undefined;
}

/** Whether `path` is `dir` or lies below it. */
function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !parse(rel).root);
}

/**
 * The path of `path` relative to `root` with `/` separators, or `path` itself when it lies
 * outside `root`.
 *
 * @param root The workspace root.
 * @param path An absolute path.
 * @returns The workspace-relative path (`.` for the root).
 */
export function workspacePath(root: string, path: string): string {
  const rel = relative(root, path);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || rel.startsWith(sep)) return path;
  return rel.split(sep).join("/");
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory) await copyTree(source, target);
    else if (entry.isFile) await Deno.copyFile(source, target);
    else if (entry.isSymlink) await Deno.symlink(await Deno.readLink(source), target);
  }
}

async function writeBigLog(path: string, minBytes: number): Promise<void> {
  const levels = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "INFO", "ERROR"];
  const paths = ["/api/items", "/api/users", "/health", "/api/orders", "/static/app.js"];
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  try {
    let written = 0;
    let n = 0;
    const start = Date.UTC(2025, 0, 1);
    while (written < minBytes) {
      const batch: string[] = [];
      for (let i = 0; i < 5000; i++, n++) {
        const time = new Date(start + n * 37).toISOString();
        const level = levels[n % levels.length];
        const route = paths[(n * 7) % paths.length];
        const status = level === "ERROR" ? 500 : level === "WARN" ? 429 : 200;
        batch.push(
          `${time} ${level.padEnd(5)} worker-${n % 4} req=${
            String(n + 1).padStart(7, "0")
          } GET ${route}/${n % 97} ${status} ${(n * 13) % 250}ms\n`,
        );
      }
      const bytes = encoder.encode(batch.join(""));
      let offset = 0;
      while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
      written += bytes.length;
    }
  } finally {
    file.close();
  }
}

function wideLines(count: number): string {
  const lines: string[] = [];
  for (let i = 1; i <= count; i++) {
    const cells = Array.from({ length: 12 }, (_, j) => `c${j}=${(i * 31 + j * 17) % 1000}`);
    lines.push(`row ${String(i).padStart(4, "0")}; ${cells.join("; ")}`.padEnd(120, "."));
  }
  return lines.join("\n") + "\n";
}

async function writeManyEntries(dir: string, count: number): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  const dirs = Math.min(10, count);
  for (let i = 1; i <= dirs; i++) {
    await Deno.mkdir(join(dir, `dir-${String(i).padStart(2, "0")}`));
  }
  for (let i = 1; i <= count - dirs; i++) {
    const name = `file-${String(i).padStart(3, "0")}.txt`;
    await Deno.writeTextFile(join(dir, name), `file ${i}\n`);
  }
}

async function makeFifo(path: string): Promise<boolean> {
  const permission = await Deno.permissions.query({ name: "run", command: "mkfifo" });
  if (permission.state !== "granted") return false;
  try {
    const { success } = await new Deno.Command("mkfifo", {
      args: [path],
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}
