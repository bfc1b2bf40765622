// Hardening round 2 (issue 10, provider side): one regression test per finding, with attacker
// processes where the finding needs one. Attacker cases run in both check modes: descriptor
// checks (the child under --allow-all on Linux) and path checks (scoped grants). The cases that
// move hundreds of megabytes run under `deno task test:slow` (TOOLFS_SLOW=1). A case whose
// attacker never hit its race window says so and fails instead of passing.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../../mod.ts";
import {
  adversarialSandbox,
  assertError,
  assertSameTree,
  cannotRun,
  childCommand,
  figure,
  granted,
  notSlowRun,
  outsideSnapshot,
  rootPermissions,
  runChild,
  SECRET,
  skipUnless,
  startChild,
  tempFiles,
} from "./_harness.ts";

import { readableCopy } from "../_readable_copy.ts";
import { NOBODY, nobodyDeno } from "./_nobody.ts";

const MiB = 1 << 20;
const uid = granted({ name: "sys", kind: "uid" }) ? Deno.uid() : null;
const MODES = [
  {
    name: "path checks",
    permissions: (base: string) => [`--allow-read=${base}`, `--allow-write=${base}`],
  },
  ...(Deno.build.os === "linux"
    ? [{ name: "descriptor checks", permissions: (_: string) => ["--allow-all"] }]
    : []),
];

interface CallResult {
  content: string;
  code: string | null;
}

/** Runs `calls` in _calls_child.ts with `permissions`; its results and check mode. */
async function runCalls(
  root: string,
  permissions: string[],
  calls: [string, Record<string, unknown>][],
  config?: Record<string, unknown>,
): Promise<{ pinned: boolean; results: CallResult[] }> {
  const args = [root, JSON.stringify(calls), ...(config ? [JSON.stringify(config)] : [])];
  return (await runChild<{ pinned: boolean; results: CallResult[] }>("./_calls_child.ts", args, {
    permissions,
  })).report;
}

/** Starts an attacker child (`script` with `args`) that runs until `stop()`. */
function startAttacker(script: string, stop: string, args: string[]) {
  return startChild(script, stop, args, { permissions: ["--allow-read", "--allow-write"] });
}

// --- finding 1 (high): no mode change outside the roots -----------------------------------

for (const mode of MODES) {
  const name =
    `C4.3a: a link renamed over the temporary file is neither chmodded nor committed (${mode.name})`;
  Deno.test({
    name,
    ignore: skipUnless(name, notSlowRun() ?? cannotRun()),
    async fn() {
      await using box = await adversarialSandbox();
      await Deno.chmod(box.secret, 0o600);
      await Deno.writeTextFile(join(box.root, "big.txt"), "old\n");
      await Deno.chmod(join(box.root, "big.txt"), 0o777);
      const before = await outsideSnapshot(box);
      const stop = join(box.base, "stop");
      const watcher = startAttacker("./_temp_watcher.ts", stop, [
        box.root,
        stop,
        "swap",
        box.secret,
      ]);
      await new Promise((resolve) => setTimeout(resolve, 300)); // the watcher is up
      const calls: [string, Record<string, unknown>][] = Array.from(
        { length: 4 },
        (_, i) => ["write-big", { file_path: "big.txt", size: 25 * MiB, fill: `round ${i}` }],
      );
      const { pinned, results } = await runCalls(box.root, mode.permissions(box.base), calls);
      const { swaps } = await watcher.stop<{ swaps: number }>();
      await Deno.remove(stop);
      assert.equal(pinned, mode.name === "descriptor checks");
      assertSameTree(before, await outsideSnapshot(box), "outside the root");
      assert.equal((await Deno.stat(box.secret)).mode! & 0o777, 0o600, "outside file chmodded");
      const target = await Deno.lstat(join(box.root, "big.txt"));
      assert.ok(target.isFile, "a link was committed as the target");
      const failed = results.filter((result) => result.code !== null);
      for (const result of failed) {
        // Swapped before the containment check of the new temporary file: refused as outside;
        // after it: refused before the rename.
        assert.ok(
          [
            'Error: cannot write "big.txt": the temporary file was replaced',
            'Error: cannot write "big.txt": outside the permitted roots',
          ].includes(result.content),
          result.content,
        );
      }
      assert.ok(swaps > 0, `the attacker never hit the race window (${mode.name})`);
      assert.equal(failed.length, swaps, "every swapped write must fail");
      figure("hardening", `finding 1 (${mode.name}): ${swaps}/4 temp files swapped, all refused`);
    },
  });
}

// --- finding 2 (medium): the temporary file is owner-only ----------------------------------

for (const mode of MODES) {
  const name = `C4.3a: the temporary file is readable by its owner only (${mode.name})`;
  Deno.test({
    name,
    ignore: skipUnless(name, notSlowRun() ?? cannotRun()),
    async fn() {
      await using box = await adversarialSandbox();
      await Deno.writeTextFile(join(box.root, "secret.txt"), "x\n");
      await Deno.chmod(join(box.root, "secret.txt"), 0o600);
      const stop = join(box.base, "stop");
      const watcher = startAttacker("./_temp_watcher.ts", stop, [box.root, stop, "observe"]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const calls: [string, Record<string, unknown>][] = [
        ["write-big", { file_path: "secret.txt", size: 25 * MiB, fill: "new secret" }],
        ["write-big", { file_path: "secret.txt", size: 25 * MiB, fill: "newer secret" }],
      ];
      const { results } = await runCalls(box.root, mode.permissions(box.base), calls);
      const { seen, modes } = await watcher.stop<{ seen: number; modes: number[] }>();
      assert.deepEqual(results.map((result) => result.code), [null, null]);
      // A new file gets the mode `open` would give it (its temporary file gets it just before
      // the rename: its content is the new file's).
      const fresh = await runCalls(box.root, mode.permissions(box.base), [
        ["write", { file_path: "fresh.txt", content: "new file\n" }],
      ]);
      assert.equal(fresh.results[0].code, null);
      assert.ok(seen > 0, `the watcher never saw a temporary file (${mode.name})`);
      assert.deepEqual(
        modes,
        [0o600],
        `temporary file modes seen: ${modes.map((m) => m.toString(8))}`,
      );
      assert.equal((await Deno.stat(join(box.root, "secret.txt"))).mode! & 0o7777, 0o600);
      const umask = Deno.umask();
      assert.equal((await Deno.stat(join(box.root, "fresh.txt"))).mode! & 0o7777, 0o666 & ~umask);
    },
  });
}

// --- finding 3 (medium): owner and group kept, else set-ID bits dropped --------------------

const ownerName = "C4.3a: edit as root keeps a user's file owner, group and set-ID bits";
Deno.test({
  name: ownerName,
  ignore: skipUnless(ownerName, uid === 0 ? null : "needs root (and --allow-sys=uid to know)"),
  async fn() {
    await using box = await adversarialSandbox();
    const path = join(box.root, "tool.sh");
    await Deno.writeTextFile(path, "echo one\n");
    await Deno.chown(path, 65534, 65534);
    await Deno.chmod(path, 0o6755);
    const tools = createFsTools({ fs: box.fs, policy: false });
    const edit = await tools.execute("edit", {
      file_path: "tool.sh",
      old_string: "one",
      new_string: "two",
    });
    assert.equal(edit.isError, false, edit.content);
    const write = await tools.execute("write", { file_path: "tool.sh", content: "echo three\n" });
    assert.equal(write.isError, false, write.content);
    const info = await Deno.stat(path);
    assert.deepEqual([info.uid, info.gid, info.mode! & 0o7777], [65534, 65534, 0o6755]);
    assert.equal(await Deno.readTextFile(path), "echo three\n");
  },
});

const dropName = "C4.3a: set-ID bits are dropped when the owner and group cannot be kept";
Deno.test({
  name: dropName,
  ignore: skipUnless(
    dropName,
    uid === 0 ? cannotRun("setpriv") : "needs root and --allow-sys=uid (runs a child as nobody)",
  ),
  async fn() {
    await using box = await adversarialSandbox();
    const nobody = NOBODY;
    await Deno.chmod(box.base, 0o755);
    await Deno.chown(box.root, nobody, nobody);
    const path = join(box.root, "tool.sh");
    await Deno.writeTextFile(path, "echo one\n");
    await Deno.chmod(path, 0o6777); // root's, yet writable by anyone
    const calls = [["edit", { file_path: "tool.sh", old_string: "one", new_string: "two" }]];
    const { success, stdout, stderr } = await (await nobodyDeno(
      box.base,
      [`--allow-read=${box.root}`, `--allow-write=${box.root}`],
      new URL("tests/adversarial/_calls_child.ts", readableCopy()).pathname,
      [box.root, JSON.stringify(calls)],
    )).output();
    assert.ok(success, new TextDecoder().decode(stderr));
    const { results } = JSON.parse(new TextDecoder().decode(stdout).trim().split("\n").at(-1)!);
    assert.equal(results[0].code, null, results[0].content);
    const info = await Deno.stat(path);
    assert.equal(await Deno.readTextFile(path), "echo two\n");
    assert.deepEqual([info.uid, info.gid, info.mode! & 0o7777], [nobody, nobody, 0o0777]);
  },
});

// --- finding 4 (medium): bounded read memory on a growing file -----------------------------

const growName = "C7.4: a read of a file that grows while it is read holds only the window";
Deno.test({
  name: growName,
  ignore: skipUnless(growName, notSlowRun() ?? cannotRun()),
  async fn() {
    await using box = await adversarialSandbox();
    const path = join(box.root, "growing.log");
    const base = 10 * MiB - 4096; // just below readStreamMinSize: the whole-file path
    await Deno.writeTextFile(path, "x\n".repeat(base / 2));
    const stop = join(box.base, "stop");
    const grower = startAttacker("./_grower.ts", stop, [
      path,
      stop,
      String(base),
      String(512 * MiB),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const calls = Array.from(
      { length: 20 },
      () => ["read", { file_path: "growing.log", limit: 3 }],
    );
    let appended = 0;
    let reports: { code: string | null; peakMiB: number }[];
    try {
      const args = [box.root, JSON.stringify(calls)];
      reports = (await runChild<typeof reports>("./_huge_child.ts", args, {
        permissions: rootPermissions(box.root),
      })).report;
    } finally {
      ({ appended } = await grower.stop<{ appended: number }>());
    }
    assert.ok(appended > 0, "the grower never grew the file");
    for (const report of reports) {
      assert.equal(report.code, null);
      assert.ok(report.peakMiB <= 64, `a read of a growing file added ${report.peakMiB} MiB`);
    }
    figure(
      "hardening",
      `finding 4: 20 reads while ${appended} MiB were appended, peak +${
        Math.max(...reports.map((r) => r.peakMiB))
      } MiB`,
    );
  },
});

// --- finding 6 (medium-low): lock waits honour the abort -----------------------------------

Deno.test("C7.2: an abort while another holder keeps a lock on the file returns promptly and changes nothing", async () => {
  await using box = await adversarialSandbox();
  const path = join(box.root, "locked.txt");
  await Deno.writeTextFile(path, "alpha\n");
  const holder = await Deno.open(path, { read: true });
  await holder.lock(false); // a reader's shared lock: flock, as another process would hold it
  try {
    const tools = createFsTools({ fs: box.fs, policy: false });
    for (
      const [op, args] of [
        ["edit", { file_path: "locked.txt", old_string: "alpha", new_string: "beta" }],
        ["write", { file_path: "locked.txt", content: "gamma\n" }],
      ] as const
    ) {
      const controller = new AbortController();
      const call = tools.execute(op, args, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const aborted = performance.now();
      controller.abort();
      // Bounded in time: a wait that ignores the abort is reported, not hung on.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), 5000));
      const first = await Promise.race([call, late]);
      clearTimeout(timer);
      const ms = performance.now() - aborted;
      if (first === null) {
        holder.close(); // lets the stuck call end, so the test can report it
        await call;
        assert.fail(`${op} ignored the abort while waiting for the lock`);
      }
      const result = first;
      assertError(result, "FS_ABORTED", `cannot ${op} "locked.txt": aborted`);
      // Not a timing assertion of performance: C7.2's bound is 100 ms; 7.7 s was the bug.
      assert.ok(ms < 1000, `${op} returned ${Math.round(ms)} ms after the abort`);
      figure("hardening", `finding 6: ${op} returned ${ms.toFixed(1)} ms after the abort`);
    }
    assert.equal(await Deno.readTextFile(path), "alpha\n");
    assert.deepEqual(await tempFiles(box.root), []);
  } finally {
    holder.close();
  }
});

Deno.test("C5.5: a write waits for another holder's lock and lands once it is released", async () => {
  await using box = await adversarialSandbox();
  const path = join(box.root, "locked.txt");
  await Deno.writeTextFile(path, "alpha\n");
  const holder = await Deno.open(path, { read: true });
  await holder.lock(true);
  const tools = createFsTools({ fs: box.fs, policy: false });
  let settled = false;
  const call = tools.execute("write", { file_path: "locked.txt", content: "beta\n" }).finally(() =>
    settled = true
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(settled, false, "the write did not wait for the lock");
  assert.equal(await Deno.readTextFile(path), "alpha\n");
  holder.close();
  const result = await call;
  assert.equal(result.isError, false, result.content);
  assert.equal(await Deno.readTextFile(path), "beta\n");
});

Deno.test("C7.2: an abort while queued behind this instance's own write of the file returns at once", async () => {
  await using box = await adversarialSandbox();
  const path = join(box.root, "queued.txt");
  await Deno.writeTextFile(path, "alpha\n");
  const holder = await Deno.open(path, { read: true });
  await holder.lock(true);
  const tools = createFsTools({ fs: box.fs, policy: false });
  const first = tools.execute("write", { file_path: "queued.txt", content: "first\n" });
  const controller = new AbortController();
  const second = tools.execute("write", { file_path: "queued.txt", content: "second\n" }, {
    signal: controller.signal,
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  controller.abort();
  assertError(await second, "FS_ABORTED", 'cannot write "queued.txt": aborted');
  holder.close();
  assert.equal((await first).isError, false);
  assert.equal(await Deno.readTextFile(path), "first\n");
});

// --- finding 7 (low): no permission prompts ------------------------------------------------

const promptName =
  "C7.3: with grants scoped to the root, outside paths are FS_OUTSIDE_ROOT, never a permission error";
Deno.test({
  name: promptName,
  ignore: skipUnless(promptName, cannotRun()),
  async fn() {
    await using box = await adversarialSandbox();
    await Deno.symlink(box.secret, join(box.root, "link_out"));
    await Deno.symlink(join(box.outside, "missing", "x.txt"), join(box.root, "dangling_out"));
    const calls: [string, Record<string, unknown>][] = [
      ["read", { file_path: box.secret }],
      ["read", { file_path: "../outside/secret.txt" }],
      ["read", { file_path: "link_out" }],
      ["write", { file_path: "dangling_out", content: "x" }],
      ["write", { file_path: "../outside/new.txt", content: "x" }],
      ["edit", { file_path: "/etc/hostname", old_string: "a", new_string: "b" }],
      ["list", { path: "../outside" }],
    ];
    // No --no-prompt here: the calls themselves must never reach Deno's permission checks.
    const { report, stderr } = await runChild<{ results: CallResult[] }>(
      "./_calls_child.ts",
      [box.root, JSON.stringify(calls)],
      { permissions: rootPermissions(box.root), prompt: true },
    );
    assert.ok(!/prompt|Granted|Denied/i.test(stderr), stderr);
    for (const [i, result] of report.results.entries()) {
      const [op, args] = calls[i];
      const given = String(args.file_path ?? args.path);
      assert.deepEqual(result, {
        content: `Error: cannot ${op} ${JSON.stringify(given)}: outside the permitted roots`,
        code: "FS_OUTSIDE_ROOT",
      });
    }
    assert.equal(await Deno.readTextFile(box.secret), `${SECRET} outside\n`);
  },
});

Deno.test("C7.3: every deno.json task and every documented deno run/test command passes --no-prompt", async () => {
  const top = new URL("../../", import.meta.url);
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", top)));
  const tasks = config.tasks as Record<string, string | { command: string }>;
  for (const [task, entry] of Object.entries(tasks)) {
    const command = typeof entry === "string" ? entry : entry.command;
    if (/\bdeno (run|test|bench|serve)\b/.test(command)) {
      assert.ok(command.includes("--no-prompt"), `task ${task}: ${command}`);
    }
  }
  const readme = await Deno.readTextFile(new URL("README.md", top));
  for (const line of readme.split("\n")) {
    if (/\bdeno (run|test)\s/.test(line) && !/^\s*(\/\/|#)/.test(line)) {
      assert.ok(line.includes("--no-prompt"), `README: ${line}`);
    }
  }
  assert.ok(readme.includes("deno test --allow-read --allow-write --no-prompt"));
});

// --- finding 9 (low): long names -----------------------------------------------------------

Deno.test("C4.3a: targets with 235- to 255-byte names can be written and edited", async () => {
  await using box = await adversarialSandbox();
  const tools = createFsTools({ fs: box.fs, policy: false });
  for (const length of [235, 250, 255]) {
    const name = `${"n".repeat(length - 4)}.txt`;
    const write = await tools.execute("write", { file_path: name, content: "one\n" });
    assert.equal(write.isError, false, write.content);
    const edit = await tools.execute("edit", {
      file_path: name,
      old_string: "one",
      new_string: "two",
    });
    assert.equal(edit.isError, false, edit.content);
    assert.equal(await Deno.readTextFile(join(box.root, name)), "two\n");
  }
  const multibyte = "é".repeat(125) + ".md"; // 253 bytes
  const write = await tools.execute("write", { file_path: multibyte, content: "x\n" });
  assert.equal(write.isError, false, write.content);
  assert.deepEqual(await tempFiles(box.root), []);
});

// --- finding 10 (low): leftovers of killed writes are swept --------------------------------

Deno.test("C4.3a: the next write in a directory removes temporary files older than one hour", async () => {
  await using box = await adversarialSandbox();
  const dir = join(box.root, "d");
  await Deno.mkdir(dir);
  const old = new Date(Date.now() - 2 * 3600_000);
  const stale = [".toolfs-0123abcd.tmp"]; // exactly the names this code makes
  // Issue 19: a user's `.<x>.toolfs-<8 hex>.tmp` (0.1.0's shape) is the user's: kept.
  const kept = [
    ".toolfs-fedcba98.tmp",
    "toolfs-0123abcd.tmp",
    ".toolfs-0123abcd.tmp.bak",
    ".notes.md.toolfs-89abcdef.tmp",
    ".toolfs-0123ABCD.tmp",
  ];
  for (const name of [...stale, ...kept]) await Deno.writeTextFile(join(dir, name), "left\n");
  for (const name of [...stale, ...kept.slice(1)]) await Deno.utime(join(dir, name), old, old);
  await Deno.mkdir(join(dir, ".toolfs-aaaaaaaa.tmp")); // not a regular file: kept
  await Deno.symlink(box.secret, join(dir, ".toolfs-bbbbbbbb.tmp")); // a link: kept, not followed
  await Deno.utime(join(dir, ".toolfs-aaaaaaaa.tmp"), old, old);
  const tools = createFsTools({ fs: box.fs, policy: false });
  const result = await tools.execute("write", { file_path: "d/x.txt", content: "x\n" });
  assert.equal(result.isError, false, result.content);
  const names = (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name).sort();
  assert.deepEqual(
    names,
    [...kept, ".toolfs-aaaaaaaa.tmp", ".toolfs-bbbbbbbb.tmp", "x.txt"].sort(),
  );
  assert.equal(await Deno.readTextFile(box.secret), `${SECRET} outside\n`);
});

const killName = "C4.3a: a write killed mid-way leaves a temporary file that a later write removes";
Deno.test({
  name: killName,
  ignore: skipUnless(killName, notSlowRun() ?? cannotRun()),
  async fn() {
    await using box = await adversarialSandbox();
    const calls = [["write-big", { file_path: "big.txt", size: 200 * MiB, fill: "killed" }]];
    const child = childCommand("./_calls_child.ts", [box.root, JSON.stringify(calls)], {
      permissions: rootPermissions(box.root),
      stdout: "null",
      stderr: "null",
    }).spawn();
    const temps = () =>
      [...Deno.readDirSync(box.root)].map((entry) => entry.name).filter((name) =>
        name.startsWith(".toolfs-")
      );
    let left: string[] = [];
    for (let i = 0; i < 2000 && left.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      left = temps();
    }
    try {
      child.kill("SIGKILL");
    } catch {
      // it ended already: then the check below says the kill came too late
    }
    await child.status;
    left = temps();
    assert.ok(left.length > 0, "the write was not caught mid-way: the kill hit no temporary file");
    const old = new Date(Date.now() - 2 * 3600_000);
    for (const name of left) await Deno.utime(join(box.root, name), old, old);
    const tools = createFsTools({ fs: box.fs, policy: false });
    const result = await tools.execute("write", { file_path: "other.txt", content: "x\n" });
    assert.equal(result.isError, false, result.content);
    assert.deepEqual(await tempFiles(box.root), []);
  },
});

// --- finding 11 (low): amplification -------------------------------------------------------

Deno.test("C4.2: a sparse file whose hole reads as NUL bytes is binary, found without reading the hole", async () => {
  await using box = await adversarialSandbox();
  const path = join(box.root, "sparse.txt");
  await Deno.writeTextFile(path, "text line\n".repeat(1200)); // 12 KB
  await Deno.truncate(path, 4 * 1024 * MiB);
  const tools = createFsTools({ fs: box.fs });
  const started = performance.now();
  const result = await tools.execute("read", { file_path: "sparse.txt", limit: 5 });
  const ms = performance.now() - started;
  assertError(result, "FS_BINARY", 'cannot read "sparse.txt": binary file');
  figure("hardening", `finding 11: 4 GiB sparse file refused in ${ms.toFixed(0)} ms`);
});

Deno.test("C4.2: a very large readMaxLineLength is not allocated up front", async () => {
  await using box = await adversarialSandbox();
  await Deno.writeTextFile(join(box.root, "a.txt"), "one\ntwo\n");
  for (const readStreamMinSize of [10 * MiB, 1]) {
    const tools = createFsTools({
      fs: box.fs,
      config: { readMaxLineLength: 2 ** 40, readStreamMinSize },
    });
    const result = await tools.execute("read", { file_path: "a.txt" });
    assert.equal(result.isError, false, result.content);
    assert.ok(result.content.includes("\n1: one\n2: two\n"), result.content);
  }
});

Deno.test("C4.2: a file holding only a UTF-8 BOM has 0 lines, on both read paths", async () => {
  await using box = await adversarialSandbox();
  await Deno.writeFile(join(box.root, "bom.txt"), new Uint8Array([0xef, 0xbb, 0xbf]));
  for (const readStreamMinSize of [10 * MiB, 1]) {
    const tools = createFsTools({
      fs: new LocalFileSystem({ roots: [box.root] }),
      config: { readStreamMinSize },
    });
    const result = await tools.execute("read", { file_path: "bom.txt" });
    assert.equal(
      result.content,
      "<path>bom.txt</path>\n<type>file</type>\n<content>\n\n(End of file - total 0 lines)\n</content>",
    );
    assert.deepEqual(result.value, {
      path: join(box.root, "bom.txt"),
      offset: 1,
      lines: [],
      totalLines: 0,
    });
    const past = await tools.execute("read", { file_path: "bom.txt", offset: 2 });
    assertError(past, "FS_OFFSET_OUT_OF_RANGE", 'offset 2 is out of range for "bom.txt" (0 lines)');
  }
});
