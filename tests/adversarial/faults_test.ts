// Faults (issue 7, C4.3, C7.1, C7.2): an abort at every await point of write and edit, an I/O
// failure injected at every file system call, a provider that throws anything, and permission
// refusals from the OS: the old file stays, no temporary file is left, and the result is
// `Error: <message>` with a contract code, never a stack trace.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, FS_ERROR_CODES, type FsProvider, type FsToolResult } from "../../mod.ts";
import { fdPathsAvailable } from "../../src/provider/local/_fd_paths.ts";
import { readableCopy } from "../_readable_copy.ts";
import {
  adversarialSandbox,
  assertError,
  assertWellFormedError,
  cannotRun,
  figure,
  granted,
  skipUnless,
  slowCase,
  tempFiles,
} from "./_harness.ts";

/** The file system calls LocalFileSystem makes; each is a point where a call can fail or be aborted. */
const DENO_ASYNC = [
  "chmod",
  "link",
  "lstat",
  "mkdir",
  "open",
  "readLink",
  "realPath",
  "remove",
  "rename",
  "stat",
] as const;
const DENO_SYNC = ["readDirSync", "readLinkSync", "realPathSync", "statSync"] as const;
const FILE_ASYNC = ["lock", "read", "stat", "syncData", "write"] as const;
const FILE_SYNC = ["seekSync"] as const;

/**
 * Runs `fn` with every asynchronous file system call (and `crypto.subtle.digest`: every await
 * point of LocalFileSystem), and with `sync` the synchronous ones too, first calling `before`
 * with the call's name; `before` may throw to fail that call. Restores everything afterwards.
 */
async function instrumented<T>(
  before: (name: string) => void,
  fn: () => Promise<T>,
  sync = false,
): Promise<T> {
  const restore: (() => void)[] = [];
  const patch = (target: Record<string, unknown>, name: string, async: boolean) => {
    const original = target[name] as (...args: unknown[]) => unknown;
    target[name] = function (this: unknown, ...args: unknown[]) {
      try {
        before(name);
      } catch (error) {
        if (async) return Promise.reject(error);
        throw error;
      }
      return original.apply(this, args);
    };
    restore.push(() => target[name] = original);
  };
  const deno = Deno as unknown as Record<string, unknown>;
  const file = Deno.FsFile.prototype as unknown as Record<string, unknown>;
  for (const name of DENO_ASYNC) patch(deno, name, true);
  if (sync) { for (const name of DENO_SYNC) patch(deno, name, false); }
  for (const name of FILE_ASYNC) patch(file, name, true);
  if (sync) { for (const name of FILE_SYNC) patch(file, name, false); }
  patch(crypto.subtle as unknown as Record<string, unknown>, "digest", true);
  try {
    return await fn();
  } finally {
    for (const undo of restore.reverse()) undo();
  }
}

interface Flow {
  name: string;
  /** The file the call changes, relative to the root. */
  file: string;
  /** Its content before (`null`: absent) and after a success. */
  old: string | null;
  next: string;
  op: "write" | "edit";
  args: Record<string, unknown>;
}

/** A stretch of text that makes a file large enough for the streamed edit. */
const LARGE_TEXT = `${"x".repeat(63)}\n`.repeat(65536); // 4 MiB

const FLOWS: Flow[] = [
  {
    name: "write over an existing file",
    file: "f.txt",
    old: "old content\n",
    next: "new content\n",
    op: "write",
    args: { file_path: "f.txt", content: "new content\n" },
  },
  {
    name: "write of a new file",
    file: "g.txt",
    old: null,
    next: "created\n",
    op: "write",
    args: { file_path: "g.txt", content: "created\n" },
  },
  {
    name: "write of a new file below missing directories",
    file: "new/deeper/h.txt",
    old: null,
    next: "deep\n",
    op: "write",
    args: { file_path: "new/deeper/h.txt", content: "deep\n" },
  },
  {
    name: "edit",
    file: "e.txt",
    old: "alpha beta\n",
    next: "alpha gamma\n",
    op: "edit",
    args: { file_path: "e.txt", old_string: "beta", new_string: "gamma" },
  },
  {
    // 4 MiB and more: streamed through reused buffers (issue 20 item 7), two reads per pass.
    name: "edit of a large file",
    file: "s.txt",
    old: `${LARGE_TEXT}alpha beta\n`,
    next: `${LARGE_TEXT}alpha gamma\n`,
    op: "edit",
    args: { file_path: "s.txt", old_string: "alpha beta", new_string: "alpha gamma" },
  },
];

async function contentOf(path: string): Promise<string | null> {
  return await Deno.readTextFile(path).catch(() => null);
}

/** Sets up a flow's file (mode 0640) in a fresh sandbox and has the session read it. */
async function prepare(flow: Flow) {
  const box = await adversarialSandbox();
  const path = join(box.root, flow.file);
  if (flow.old !== null) {
    await Deno.writeTextFile(path, flow.old, { mode: 0o640 });
    await Deno.chmod(path, 0o640);
    const read = await box.tools.execute("read", { file_path: flow.file });
    assert.equal(read.isError, false, read.content);
  }
  return { box, path };
}

/** The state after a call: the old file (and mode) on failure, the new one on success. */
async function checkAfter(flow: Flow, root: string, path: string, result: FsToolResult) {
  const now = await contentOf(path);
  if (result.isError) {
    assert.equal(now, flow.old, `${flow.name}: the old file changed: ${result.content}`);
  } else {
    assert.equal(now, flow.next, `${flow.name}: success without the new content`);
    // C6: the old text, which a streamed edit rebuilds only now (and closes what it kept open).
    if (flow.op === "edit") assert.equal((result.value as { before: string }).before, flow.old);
  }
  if (flow.old !== null && now !== null) {
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o640, `${flow.name}: mode changed`);
  }
  assert.deepEqual(await tempFiles(root), [], `${flow.name}: temporary file left`);
}

/** After a failed or aborted call, the next one must work (no lock is left held). */
async function stillWorks(flow: Flow, box: Awaited<ReturnType<typeof adversarialSandbox>>) {
  const tools = createFsTools({ fs: box.fs, policy: false });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const result = await Promise.race([
    tools.execute("write", { file_path: flow.file, content: "after\n" }),
    new Promise<never>((_, reject) =>
      timer = setTimeout(() => reject(new Error(`${flow.name}: a lock was left held`)), 5000)
    ),
  ]).finally(() => clearTimeout(timer));
  assert.equal(result.isError, false, result.content);
}

Deno.test(
  "faults: an abort at every await point of write and edit leaves the old file and no temporary file",
  slowCase(),
  async () => {
    fdPathsAvailable(); // decided once, before any call is instrumented
    let points = 0;
    let aborted = 0;
    for (const flow of FLOWS) {
      for (let k = 1;; k++) {
        const { box, path } = await prepare(flow);
        try {
          const controller = new AbortController();
          let calls = 0;
          const result = await instrumented(
            () => {
              if (++calls === k) controller.abort();
            },
            () => box.tools.execute(flow.op, flow.args, { signal: controller.signal }),
          );
          if (result.isError) {
            assertError(result, "FS_ABORTED", `cannot ${flow.op} "${flow.file}": aborted`);
            aborted++;
          }
          await checkAfter(flow, box.root, path, result);
          await stillWorks(flow, box);
          if (calls < k) break; // the call finished before the k-th point: every point is done
          points++;
        } finally {
          await box[Symbol.asyncDispose]();
        }
      }
    }
    figure(
      "faults",
      `abort at each of ${points} await points of ${FLOWS.length} write/edit flows: ${aborted} aborted cleanly, the rest committed; 0 temp files left`,
    );
  },
);

for (
  const [label, make] of [
    ["an I/O error", () => new Error("Input/output error (os error 5)")],
    [
      "a permission refusal",
      () => new Deno.errors.PermissionDenied("Permission denied (os error 13)"),
    ],
  ] as const
) {
  Deno.test(
    `faults: ${label} injected at every file system call of write and edit leaves the old file`,
    slowCase(),
    async () => {
      fdPathsAvailable();
      let points = 0;
      const codes = new Set<string>();
      for (const flow of FLOWS) {
        for (let k = 1;; k++) {
          const { box, path } = await prepare(flow);
          try {
            let calls = 0;
            const result = await instrumented(
              () => {
                if (++calls === k) throw make();
              },
              () => box.tools.execute(flow.op, flow.args),
              true,
            );
            if (result.isError) {
              assertWellFormedError(result);
              codes.add(result.error!.code);
              assert.ok(
                result.content.startsWith(`Error: cannot ${flow.op} "${flow.file}": `),
                result.content,
              );
            }
            await checkAfter(flow, box.root, path, result);
            await stillWorks(flow, box);
            if (calls < k) break;
            points++;
          } finally {
            await box[Symbol.asyncDispose]();
          }
        }
      }
      figure(
        "faults",
        `${label} at each of ${points} calls: codes ${
          [...codes].sort().join(", ")
        }; old file kept every time`,
      );
    },
  );
}

Deno.test("faults: a provider that throws anything yields an error result, never a throw", async () => {
  await using box = await adversarialSandbox();
  await Deno.writeTextFile(join(box.root, "a.txt"), "alpha\n");
  const thrown: unknown[] = [
    new TypeError("boom"),
    "a string",
    undefined,
    null,
    42,
    { message: { toString: () => "odd" } },
    Object.create(null),
    new Deno.errors.PermissionDenied("denied"),
    new DOMException("gone", "AbortError"),
    Promise.reject(new Error("nested")).catch(() => {}),
  ];
  const methods = [
    "resolve",
    "stat",
    "listDir",
    "readText",
    "streamText",
    "writeText",
    "editText",
    "version",
  ] as const;
  let cases = 0;
  for (const value of thrown) {
    for (const method of methods) {
      const fs = new Proxy(box.fs, {
        get(target, key) {
          if (key === method) {
            return () => {
              throw value;
            };
          }
          const got = Reflect.get(target, key, target);
          return typeof got === "function" ? got.bind(target) : got;
        },
      }) as FsProvider & { roots: typeof box.fs.roots };
      const tools = createFsTools({ fs, policy: false });
      for (
        const [op, args] of [
          ["list", {}],
          ["read", { file_path: "a.txt" }],
          ["write", { file_path: "a.txt", content: "x\n" }],
          ["edit", { file_path: "a.txt", old_string: "alpha", new_string: "beta" }],
        ] as const
      ) {
        const result = await tools.execute(op, args);
        if (result.isError) {
          assertWellFormedError(result);
          assert.ok(FS_ERROR_CODES.includes(result.error!.code));
        }
        cases++;
      }
    }
  }
  figure(
    "faults",
    `${cases} calls over a provider throwing ${thrown.length} kinds of values: no throw escaped`,
  );
});

const uid = granted({ name: "sys", kind: "uid" }) ? Deno.uid() : null;
const deniedName =
  "faults: permission refusals surface as FS_PERMISSION_DENIED with the path, and keep the old file";
const deniedReason = uid === null
  ? "needs --allow-sys=uid"
  : (cannotRun() ?? (uid === 0 ? cannotRun("setpriv") : null));

Deno.test({
  name: deniedName,
  ignore: skipUnless(deniedName, deniedReason),
  async fn() {
    await using box = await adversarialSandbox();
    const { base, root } = box;
    const nobody = 65534;
    await Deno.chmod(base, 0o755);
    await Deno.writeTextFile(join(root, "locked.txt"), "secret-ish\n");
    await Deno.chmod(join(root, "locked.txt"), 0o600);
    await Deno.mkdir(join(root, "rodir"));
    await Deno.writeTextFile(join(root, "rodir", "file.txt"), "keep me\n");
    await Deno.mkdir(join(root, "closed"), { mode: 0o700 });
    await Deno.chmod(join(root, "closed"), 0o700);
    await Deno.writeTextFile(join(root, "closed", "x.txt"), "x\n");
    const denoDir = join(base, "deno_dir");
    await Deno.mkdir(denoDir);
    if (uid === 0) {
      // The child runs as nobody: it owns the root, but not what is inside.
      await Deno.chown(root, nobody, nobody);
      await Deno.chown(join(root, "rodir", "file.txt"), nobody, nobody);
      await Deno.chown(denoDir, nobody, nobody);
    } else {
      await Deno.chmod(join(root, "rodir"), 0o555);
      await Deno.chmod(join(root, "locked.txt"), 0o000);
      await Deno.chmod(join(root, "closed"), 0o000);
    }
    const calls: [string, Record<string, unknown>][] = [
      ["read", { file_path: "locked.txt" }],
      ["edit", { file_path: "locked.txt", old_string: "secret", new_string: "public" }],
      ["read", { file_path: "rodir/file.txt" }],
      ["write", { file_path: "rodir/file.txt", content: "replaced\n" }],
      ["edit", { file_path: "rodir/file.txt", old_string: "keep", new_string: "lose" }],
      ["write", { file_path: "rodir/new.txt", content: "new\n" }],
      ["write", { file_path: "rodir/sub/new.txt", content: "new\n" }],
      ["list", { path: "closed" }],
      ["read", { file_path: "closed/x.txt" }],
      ["write", { file_path: "closed/x.txt", content: "x\n" }],
    ];
    const modes = [
      [`--allow-read=${root}`, `--allow-write=${root}`],
      ...(Deno.build.os === "linux" ? [["--allow-all"]] : []),
    ];
    for (const permissions of modes) {
      const command = [
        Deno.execPath(),
        "run",
        "--no-config",
        ...permissions,
        new URL("tests/adversarial/_denied_child.ts", readableCopy()).pathname,
        root,
        JSON.stringify(calls),
      ];
      const [program, ...args] = uid === 0
        ? ["setpriv", `--reuid=${nobody}`, `--regid=${nobody}`, "--clear-groups", "--", ...command]
        : command;
      const { success, stdout, stderr } = await new Deno.Command(program, {
        args,
        env: { DENO_DIR: denoDir, HOME: denoDir, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.ok(success, `child failed: ${new TextDecoder().decode(stderr)}`);
      const results = JSON.parse(new TextDecoder().decode(stdout).trim().split("\n").at(-1)!) as {
        content: string;
        code: string | null;
      }[];
      const denied = (op: string, path: string) => ({
        content: `Error: cannot ${op} "${path}": permission denied`,
        code: "FS_PERMISSION_DENIED",
      });
      const expected = [
        denied("read", "locked.txt"),
        { content: 'Error: cannot edit "locked.txt": read it first', code: "FS_NOT_OBSERVED" },
        null, // the read of rodir/file.txt succeeds
        denied("write", "rodir/file.txt"),
        denied("edit", "rodir/file.txt"),
        denied("write", "rodir/new.txt"),
        denied("write", "rodir/sub/new.txt"),
        denied("list", "closed"),
        denied("read", "closed/x.txt"),
        denied("write", "closed/x.txt"),
      ];
      for (const [i, want] of expected.entries()) {
        if (want === null) assert.equal(results[i].code, null, results[i].content);
        else assert.deepEqual(results[i], want, `${JSON.stringify(calls[i])} (${permissions})`);
      }
    }
    if (uid !== 0) {
      await Deno.chmod(join(root, "rodir"), 0o755);
      await Deno.chmod(join(root, "locked.txt"), 0o600);
      await Deno.chmod(join(root, "closed"), 0o700);
    }
    assert.equal(await Deno.readTextFile(join(root, "rodir", "file.txt")), "keep me\n");
    assert.equal(await Deno.readTextFile(join(root, "locked.txt")), "secret-ish\n");
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(join(root, "rodir")))).map((e) => e.name),
      [
        "file.txt",
      ],
    );
    assert.deepEqual(await tempFiles(root), []);
    figure(
      "faults",
      `permission refusals: ${
        calls.length - 2
      } cases x ${modes.length} permission modes, all FS_PERMISSION_DENIED with the path`,
    );
  },
});
