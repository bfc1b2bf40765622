// Fuzzing (issue 7, C1.4, C4, C7.1): fast-check properties over random tool names, argument
// objects and contexts for all four tools, over a real tree with links out, a loop and secrets
// outside: `execute` never throws, a failure is always `Error: <message>` with a contract code,
// bad input gets exactly the contract's validation message, and nothing outside the root is
// read, created or changed.

import assert from "node:assert/strict";
import fc from "fast-check";
import { join } from "node:path";
import {
  createFsTools,
  FS_ERROR_CODES,
  type FsCallContext,
  type FsToolResult,
  type FsTools,
} from "../../mod.ts";
import { unknownArgumentMessage } from "../../src/render/hints.ts";
import { closestKey } from "../../src/text/close_names.ts";
import {
  type AdversarialSandbox,
  adversarialSandbox,
  assertSameTree,
  figure,
  outsideSnapshot,
  SECRET,
  SIBLINGS,
  slowCase,
} from "./_harness.ts";

const RUNS = 4000;
const SCHEMA_KEYS: Record<string, string[]> = {
  list: ["path"],
  read: ["file_path", "offset", "limit"],
  write: ["file_path", "content"],
  edit: ["file_path", "old_string", "new_string", "replace_all"],
};
const READ_LIMIT = 2000;

/** The validation message C4 prescribes for these arguments, or `null` when they are valid. */
function expectedValidation(name: string, raw: unknown, aborted: boolean): string | null {
  // C12.1: null or absent = {}, another non-object is refused, then unknown keys, first in order.
  if (raw !== null && raw !== undefined && (typeof raw !== "object" || Array.isArray(raw))) {
    return "arguments must be an object";
  }
  const a = (raw ?? {}) as Record<string, unknown>;
  const keys = Object.hasOwn(SCHEMA_KEYS, name) ? SCHEMA_KEYS[name] : [];
  const unknown = Object.keys(a).find((key) => !keys.includes(key));
  if (unknown !== undefined) {
    return unknownArgumentMessage(unknown, name, closestKey(unknown, keys), keys);
  }
  const opt = (v: unknown) => v === null ? undefined : v;
  const isPathString = (v: unknown) => typeof v === "string" && v !== "";
  const positive = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 1;
  let path: unknown;
  switch (name) {
    case "list":
      path = opt(a.path);
      if (path !== undefined && !isPathString(path)) {
        return "path must be a non-empty string when given";
      }
      break;
    case "read": {
      if (!isPathString(a.file_path)) return "file_path must be a non-empty string";
      const offset = opt(a.offset) ?? 1;
      if (!positive(offset)) return "offset must be a positive integer";
      const limit = opt(a.limit) ?? READ_LIMIT;
      if (!positive(limit)) return "limit must be a positive integer";
      if ((limit as number) > READ_LIMIT) {
        return `limit must be less than or equal to ${READ_LIMIT}`;
      }
      path = a.file_path;
      break;
    }
    case "write":
      if (!isPathString(a.file_path)) return "file_path must be a non-empty string";
      if (typeof a.content !== "string") return "content must be a string";
      path = a.file_path;
      break;
    case "edit": {
      if (!isPathString(a.file_path)) return "file_path must be a non-empty string";
      if (!isPathString(a.old_string)) {
        return "old_string must be a non-empty string; to create a file use write, and to insert text include a neighbouring line in old_string and new_string";
      }
      if (typeof a.new_string !== "string") return "new_string must be a string";
      const replaceAll = opt(a.replace_all) ?? false;
      if (typeof replaceAll !== "boolean") return "replace_all must be a boolean when given";
      if (a.old_string === a.new_string) return "old_string and new_string must differ";
      path = a.file_path;
      break;
    }
    default:
      return null;
  }
  if (aborted) return null; // FS_ABORTED comes next (C3.8)
  if (typeof path === "string" && path.includes("\0")) {
    return name === "list"
      ? "path must not contain a NUL byte"
      : "file_path must not contain a NUL byte";
  }
  return null;
}

function checkResult(
  result: FsToolResult,
  name: string,
  args: unknown,
  ctx: FsCallContext,
): void {
  assert.equal(typeof result.content, "string");
  assert.equal(typeof result.isError, "boolean");
  assert.ok(!result.content.includes(SECRET), `secret in: ${result.content}`);
  assert.ok(!JSON.stringify(result.value ?? null).includes(SECRET), "secret in the value");
  const validation = expectedValidation(name, args, ctx.signal?.aborted ?? false);
  if (!["list", "read", "write", "edit"].includes(name)) {
    assert.deepEqual(result.error, { name: "FsError", code: "FS_UNKNOWN_TOOL" });
    assert.equal(
      result.content,
      `Error: unknown tool ${
        JSON.stringify(name)
      }; the tools are list, read, write, edit, glob, grep`,
    );
    return;
  }
  if (validation !== null) {
    assert.equal(result.content, `Error: ${validation}`);
    assert.deepEqual(result.error, { name: "FsError", code: "FS_INVALID_ARGUMENT" });
    return;
  }
  if (result.isError) {
    assert.ok(result.content.startsWith("Error: "), result.content);
    assert.ok(!result.content.includes("\n    at "), `stack trace: ${result.content}`);
    assert.equal(result.error?.name, "FsError");
    assert.ok(FS_ERROR_CODES.includes(result.error!.code), result.error?.code);
    assert.notEqual(result.error!.code, "FS_INVALID_ARGUMENT", result.content);
    assert.equal(result.value, undefined);
    if (ctx.signal?.aborted) assert.equal(result.error!.code, "FS_ABORTED");
  } else {
    assert.equal(result.error, undefined);
    assert.ok(result.value !== undefined);
  }
}

async function populate(box: AdversarialSandbox): Promise<void> {
  const { root, outside } = box;
  await Deno.mkdir(join(root, "sub", "deep"), { recursive: true });
  await Deno.writeTextFile(join(root, "a.txt"), "alpha\nbeta\nalpha\n");
  await Deno.writeTextFile(join(root, "sub", "deep", "b.txt"), "b\r\nc\r\n");
  await Deno.symlink(outside, join(root, "out"));
  await Deno.symlink("../outside/secret.txt", join(root, "leak"));
  await Deno.symlink("../outside/new.txt", join(root, "dangle"));
  await Deno.symlink("a.txt", join(root, "in"));
  await Deno.symlink("loop", join(root, "loop"));
}

function arbitraries(box: AdversarialSandbox) {
  const segment = fc.oneof(
    fc.constantFrom(
      "..",
      ".",
      "",
      "a.txt",
      "sub",
      "deep",
      "b.txt",
      "out",
      "leak",
      "dangle",
      "in",
      "loop",
      "~",
      "secret.txt",
      "outside",
      "root",
      ...SIBLINGS,
      "new.txt",
      "\0",
      " ",
      "..\\..",
      "%2e%2e",
      "\u2025",
      "a.txt\0.png",
    ),
    fc.string({ maxLength: 6 }),
    fc.string({ unit: "binary", maxLength: 4 }),
  );
  const built = fc.tuple(
    fc.constantFrom("", "", "/", `${box.root}/`, `${box.base}/`, "./", "../"),
    fc.array(segment, { maxLength: 6 }),
    fc.constantFrom("/", "//", "/./"),
    fc.constantFrom("", "/"),
  ).map(([prefix, parts, separator, suffix]) => prefix + parts.join(separator) + suffix);
  const known = fc.constantFrom(
    "a.txt",
    "./a.txt",
    "sub/../a.txt",
    "in",
    "sub/deep/b.txt",
    "sub//deep/./b.txt",
    `${box.root}/a.txt`,
    "new.txt",
    "sub/new/file.txt",
    "sub",
    ".",
  );
  const path = fc.oneof({ weight: 3, arbitrary: known }, { weight: 7, arbitrary: built });
  const anyValue = fc.oneof(
    { weight: 6, arbitrary: path },
    { weight: 1, arbitrary: fc.anything() },
    { weight: 1, arbitrary: fc.constantFrom(null, undefined, 0, -1, 1.5, NaN, true, [], {}) },
  );
  const text = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("alpha", "beta", "\n", "b\nc", "a", "$&", "$1") },
    { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.anything() },
  );
  const count = fc.oneof(
    fc.integer({ min: -3, max: 2100 }),
    fc.constantFrom(null, undefined, 0, 1.5, NaN, Infinity, 2 ** 53, "3", true),
  );
  const args = fc.oneof(
    {
      weight: 10,
      arbitrary: fc.record({
        path: anyValue,
        file_path: anyValue,
        content: text,
        old_string: text,
        new_string: text,
        offset: count,
        limit: count,
        replace_all: fc.oneof(fc.boolean(), fc.constantFrom(null, undefined, 0, "true")),
        extra: fc.anything(),
      }, { requiredKeys: [] }),
    },
    {
      // Well-formed arguments, so that calls get past validation and reach the file system.
      weight: 10,
      arbitrary: fc.record({
        path,
        file_path: path,
        content: fc.string({ maxLength: 40 }),
        old_string: fc.constantFrom("alpha", "beta", "b\nc", "\n", "a", "zzz"),
        new_string: fc.string({ maxLength: 20 }),
        offset: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
        limit: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
        replace_all: fc.option(fc.boolean(), { nil: undefined }),
      }, { requiredKeys: ["path", "file_path", "content", "old_string", "new_string"] }),
    },
    { weight: 1, arbitrary: fc.anything() },
  );
  const name = fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom("list", "read", "write", "edit") },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  );
  const ctx = fc.record({
    cwd: fc.oneof(
      fc.constant(undefined),
      fc.constantFrom("sub", "..", "out", box.outside, ""),
      path,
    ),
    aborted: fc.boolean().map((b) => b && Math.random() < 0.1),
    // Most calls keep only the tool's own arguments (C12.1 refuses the others before anything).
    onlySchemaKeys: fc.nat(9).map((n) => n > 0),
  }, { requiredKeys: [] });
  return { name, args, ctx };
}

/** A plain object's entries that `name`'s schema has; anything else as it is. */
function onlyKeys(name: string, args: unknown): unknown {
  const keys = Object.hasOwn(SCHEMA_KEYS, name) ? SCHEMA_KEYS[name] : undefined;
  if (!keys || typeof args !== "object" || args === null || Array.isArray(args)) return args;
  return Object.fromEntries(Object.entries(args).filter(([key]) => keys.includes(key)));
}

async function fuzz(
  box: AdversarialSandbox,
  tools: FsTools,
  label: string,
  codes: Map<string, number>,
): Promise<number> {
  const { name, args, ctx } = arbitraries(box);
  const before = await outsideSnapshot(box);
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(name, args, ctx, async (toolName, toolArgs, context) => {
      runs++;
      const callCtx: FsCallContext = {};
      if (context.cwd !== undefined) callCtx.cwd = context.cwd as string;
      if (context.aborted) callCtx.signal = AbortSignal.abort();
      let result: FsToolResult;
      try {
        if (context.onlySchemaKeys) toolArgs = onlyKeys(toolName, toolArgs);
        result = await tools.execute(toolName, toolArgs, callCtx);
      } catch (error) {
        throw new Error(`execute threw for ${toolName} ${String(error)}`);
      }
      checkResult(result, toolName, toolArgs, callCtx);
      const tool = ["list", "read", "write", "edit"].includes(toolName) ? toolName : "unknown";
      const key = `${tool}:${result.error?.code ?? "ok"}`;
      codes.set(key, (codes.get(key) ?? 0) + 1);
      if (runs % 100 === 0) {
        assertSameTree(before, await outsideSnapshot(box), `the outside tree (${label})`);
      }
    }),
    { numRuns: RUNS },
  );
  assertSameTree(before, await outsideSnapshot(box), `the outside tree (${label})`);
  return runs;
}

Deno.test(
  "fuzz: random calls never throw, fail with contract codes and never touch the outside",
  slowCase(),
  async () => {
    await using box = await adversarialSandbox();
    await populate(box);
    const codes = new Map<string, number>();
    const guarded = await fuzz(box, box.tools, "read-before-write policy", codes);
    const open = await fuzz(box, createFsTools({ fs: box.fs, policy: false }), "no policy", codes);
    const ok = [...codes].filter(([key]) => key.endsWith(":ok")).map(([k, n]) => `${k} ${n}`);
    figure(
      "fuzz",
      `${
        guarded + open
      } random calls (policy on and off): 0 throws, 0 escapes; ${codes.size} distinct outcomes; successes ${
        ok.join(", ")
      }`,
    );
  },
);
