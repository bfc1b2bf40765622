// The helpers of the C16 (`patch`) tests: the envelope, the session's reads, the tools, the
// failure's text and code, and a provider that fails on one file.

import assert from "node:assert/strict";
import { createFsTools, FsError, type FsTools } from "../../mod.ts";
import type { FsTarget } from "../../provider.ts";
import type { FsProviderWithRoots } from "../../src/tools/tools.ts";
import type { Sandbox } from "../_sandbox.ts";

/** The lines between `*** Begin Patch` and `*** End Patch`. */
export function envelope(...lines: string[]): string {
  return ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
}

/** Reads every file, so the session may change them (C5). */
export async function readAll(_box: Sandbox, tools: FsTools, ...paths: string[]): Promise<void> {
  for (const path of paths) {
    const result = await tools.execute("read", { file_path: path });
    assert.equal(result.isError, false, result.content);
  }
}

/** `read`, `write`, `edit` and `patch` over the box's provider (or `fs`). */
export function patchTools(box: Sandbox, fs: FsProviderWithRoots = box.fs): FsTools {
  return createFsTools({ fs, tools: ["read", "write", "edit", "patch"] });
}

/** A patch that must fail: its text and code. */
export async function failure(
  tools: FsTools,
  patch: string,
): Promise<[string, string | undefined]> {
  const result = await tools.execute("patch", { patch });
  assert.equal(result.isError, true, result.content);
  return [result.content, result.error?.code];
}

/** The provider, except that replacing or removing a path ending in `failing` is refused. */
export function failingOn(fs: FsProviderWithRoots, failing: string): FsProviderWithRoots {
  return new Proxy(fs, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "editText" || key === "removeEntry") {
        return (...args: [FsTarget, ...unknown[]]) => {
          if (args[0].path.endsWith(failing)) {
            return Promise.reject(new FsError("FS_PERMISSION_DENIED"));
          }
          return value.apply(target, args);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
