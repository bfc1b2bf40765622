// Children that run as `nobody` must read the module graph they import. A checkout in a private
// folder (a `mktemp -d` clone, say) is not readable by `nobody`, so those children import a
// world-readable copy of the few files they need instead of the checkout itself.

import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const REPO = new URL("../", import.meta.url);

/** What a child running as `nobody` may import: the library and the test children. */
const PARTS = [
  "mod.ts",
  "src",
  "tests/adversarial/_denied_child.ts",
  "tests/adversarial/_calls_child.ts",
  "tests/adversarial/_swapper.ts",
  "playground/server/tree.ts",
  "playground/server/api_types.ts",
];

let copy: URL | undefined;

/**
 * The URL of a world-readable copy of the library and the test children (made once per test
 * process and removed when it exits), laid out as in the repository.
 */
export function readableCopy(): URL {
  if (copy) return copy;
  const base = mkdtempSync(join(tmpdir(), "toolfs_readable_"));
  for (const part of PARTS) {
    cpSync(new URL(part, REPO), join(base, part), { recursive: true });
  }
  // mkdtemp makes the folder 0700; the copies keep the checkout's modes (0644 and 0755).
  Deno.chmodSync(base, 0o755);
  for (const dir of ["tests", "tests/adversarial", "playground", "playground/server"]) {
    Deno.chmodSync(join(base, dir), 0o755);
  }
  globalThis.addEventListener("unload", () => rmSync(base, { recursive: true, force: true }));
  return copy = new URL(`file://${base}/`);
}
