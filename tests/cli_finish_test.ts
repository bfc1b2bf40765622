// The CLI's finish (issue 30 item 10, issue 32 item 6, issue 34 item 8): the session file opened
// as a bounded regular file (a FIFO, a link to /dev/zero and a huge file refused at once), help
// that lists all nine tools in 80 columns, an unknown tool answered with the model-facing C12.2
// text and exit 2, tool errors exit 2 as rg's do (1 stays "found nothing"), `-i` after the tool
// name a flag, and a missing --root named as missing rather than as a permission problem.
//
// The subprocess tests need --allow-run (test:integration runs this file with -A).

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFsTools, LocalFileSystem } from "../mod.ts";
import { cli } from "./_cli.ts";
import { USAGE_WIDTH } from "../src/cli/usage.ts";
import { sandbox } from "./_sandbox.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));
const canRun = Deno.permissions.querySync({ name: "run" }).state === "granted";
const NINE = ["list", "read", "write", "edit", "glob", "grep", "move", "delete", "patch"];

/**
 * The CLI as a subprocess with the given permission flags. A run still going after
 * `guardMs` is killed (the old code hung on a FIFO and grew without bound on /dev/zero): then
 * `killed` is true and the caller's assertion on the exit code fails.
 */
async function subprocess(
  flags: string[],
  argv: string[],
  cwd: string,
  guardMs = 30_000,
): Promise<{ code: number; stdout: string; stderr: string; killed: boolean; ms: number }> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...flags, CLI, ...argv],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    // Bound the old code's /dev/zero growth: it is killed, never swaps the machine.
    env: { DENO_V8_FLAGS: "--max-old-space-size=512" },
  }).spawn();
  let killed = false;
  const guard = setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, guardMs);
  const out = await child.output();
  clearTimeout(guard);
  const d = new TextDecoder();
  return {
    code: out.code,
    stdout: d.decode(out.stdout),
    stderr: d.decode(out.stderr),
    killed,
    ms: Math.round(performance.now() - started),
  };
}

Deno.test({
  name:
    "issue 30.10: a session file that is a FIFO, a link to /dev/zero, /dev/zero or a huge file is refused at once, exit 2",
  ignore: !canRun,
  async fn() {
    await using box = await sandbox("local", { "a.txt": "a\n" });
    const { base, root } = box;
    const fifo = join(base, "fifo.json");
    const mkfifo = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert(mkfifo.success, "mkfifo");
    const zeroLink = join(base, "zero.json");
    await Deno.symlink("/dev/zero", zeroLink);
    const huge = join(base, "huge.json");
    using file = await Deno.open(huge, { write: true, create: true });
    await file.truncate(64 * 1024 ** 3); // 64 GiB, sparse
    const flags = ["--allow-read", "--allow-write", "--allow-env=INIT_CWD"]; // path checks
    const cases: [string, string][] = [
      [fifo, `session file ${JSON.stringify(fifo)} is not a regular file: it is a FIFO`],
      [
        zeroLink,
        `session file ${
          JSON.stringify(zeroLink)
        } is a symbolic link: pass the file itself (a session file is never read through a link)`,
      ],
      ["/dev/zero", `session file "/dev/zero" is not a regular file: it is a device`],
      [
        huge,
        `session file ${JSON.stringify(huge)} is not a toolfs session file: it is over 16 MiB`,
      ],
    ];
    for (const [session, reason] of cases) {
      const run = await subprocess(flags, ["--session", session, "read", "a.txt"], root);
      console.log(`session file ${session}: exit ${run.code} after ${run.ms} ms`);
      assert(!run.killed, `${session}: still running after the guard`);
      assertEquals(
        { code: run.code, stdout: run.stdout, stderr: run.stderr },
        { code: 2, stdout: "", stderr: `toolfs: ${reason}\n` },
      );
    }
    // Nothing was written over any of them.
    assert((await Deno.lstat(fifo)).isFifo);
    assert((await Deno.lstat(zeroLink)).isSymlink);
    assertEquals((await Deno.stat(huge)).size, 64 * 1024 ** 3);
  },
});

Deno.test("issue 30.10: a session file over 16 MiB is refused in-process too; one under it is read", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { base, root } = box;
  const big = join(base, "big.json");
  const padding = " ".repeat(16 * 1024 * 1024);
  await Deno.writeTextFile(big, `{"toolfs_session":1,"observations":{}}${padding}`);
  const got = await cli(root, ["--session", big, "read", "a.txt"]);
  assertEquals(got.status, 2);
  assertEquals(
    got.stderr,
    `toolfs: session file ${JSON.stringify(big)} is not a toolfs session file: it is over 16 MiB\n`,
  );
  // A directory is not a session file either.
  const dir = await cli(root, ["--session", base, "read", "a.txt"]);
  assertEquals(
    dir.stderr,
    `toolfs: session file ${JSON.stringify(base)} is not a regular file: it is a directory\n`,
  );
  // A real session file still round-trips.
  const ok = join(base, "ok.json");
  await Deno.writeTextFile(ok, `{"toolfs_session":1,"observations":{}}${" ".repeat(1000)}`);
  assertEquals((await cli(root, ["--session", ok, "read", "a.txt"])).status, 0);
  assertEquals(Object.keys(JSON.parse(await Deno.readTextFile(ok)).observations).length, 1);
});

Deno.test("issue 32.6: --help lists all nine tools, patch too, and --tools …,patch --help lists patch", async () => {
  await using box = await sandbox("local");
  const help = await cli(box.root, ["--help"]);
  assertEquals(help.status, 0);
  const listed = help.stdout.split("\n").filter((l) => /^ {2}[a-z]+ /.test(l)).map((l) =>
    l.trim().split(" ")[0]
  );
  assertEquals(listed, NINE);
  assert(help.stdout.includes("  patch <patch>"), help.stdout);
  assert(/Offered only when --tools\s+names it\./.test(help.stdout), help.stdout);
  for (const argv of [["--tools", "read,patch", "--help"], ["--help", "--tools", "read,patch"]]) {
    const chosen = await cli(box.root, argv);
    assertEquals(chosen.status, 0, argv.join(" "));
    const tools = chosen.stdout.split("\n").filter((l) => /^ {2}[a-z]+ /.test(l)).map((l) =>
      l.trim().split(" ")[0]
    );
    assertEquals(tools, ["read", "patch"], argv.join(" "));
  }
  // A tool's own --help is the same text.
  assertEquals((await cli(box.root, ["grep", "--help"])).stdout, help.stdout);
});

Deno.test("issue 34.8: every line of --help fits 80 columns", async () => {
  await using box = await sandbox("local");
  assertEquals(USAGE_WIDTH, 80);
  for (
    const argv of [["--help"], ["-h"], ["--tools", NINE.join(","), "--help"], ["grep", "-h"]]
  ) {
    const { stdout, status } = await cli(box.root, argv);
    assertEquals(status, 0);
    const long = stdout.split("\n").filter((line) => [...line].length > 80);
    assertEquals(long, [], argv.join(" "));
  }
});

Deno.test("issue 32.6, C12.2: an unknown tool prints the model-facing Error: text, not the usage, exit 2", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { root } = box;
  const tools = createFsTools({
    fs: new LocalFileSystem({ roots: [root] }),
    tools: ["list", "read", "write", "edit", "glob", "grep", "move", "delete"],
  });
  const expected = await tools.execute("search", { pattern: "x" });
  assertEquals(
    expected.content,
    'Error: unknown tool "search"; the tools are list, read, write, edit, glob, grep, move, delete',
  );
  assertEquals(await cli(root, ["search", "x"]), {
    status: 2,
    stdout: expected.content,
    stderr: "",
  });
  // The configured tools, as C12.2 says.
  assertEquals(await cli(root, ["--tools", "read,patch", "list"]), {
    status: 2,
    stdout: 'Error: unknown tool "list"; the tools are read, patch',
    stderr: "",
  });
  const json = await cli(root, ["--json", "search"]);
  assertEquals(json.status, 2);
  assertEquals(JSON.parse(json.stdout), JSON.parse(JSON.stringify(expected)));
});

Deno.test("issue 34.8: exit 0 on success, 1 when a search found nothing, 2 on a tool error (as rg)", async () => {
  await using box = await sandbox("local", { "a.txt": "Hello\n" });
  const { root } = box;
  assertEquals((await cli(root, ["read", "a.txt"])).status, 0);
  assertEquals((await cli(root, ["grep", "absent"])).status, 1);
  assertEquals((await cli(root, ["glob", "*.rs"])).status, 1);
  const failed = await cli(root, ["read", "missing.txt"]);
  assertEquals(failed.status, 2);
  assertEquals(failed.stdout, 'Error: cannot read "missing.txt": not found');
  const bad = await cli(root, ["grep", "("]);
  assertEquals(bad.status, 2);
  assert(bad.stdout.startsWith("Error: invalid pattern"), bad.stdout);
});

Deno.test("issue 34.8: -i after the tool name is grep's ignore_case, never a path; -r is delete's recursive", async () => {
  await using box = await sandbox("local", {
    "a.txt": "Hello\n",
    "d/x.txt": "x\n",
    "-i": "dash\n",
  });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const expected = await tools.execute("grep", { pattern: "hello", ignore_case: true });
  assertEquals(expected.isError, false);
  for (const argv of [["grep", "hello", "-i"], ["grep", "-i", "hello"], ["grep", "hello", "-ij"]]) {
    const got = await cli(root, argv);
    assertEquals(got.status, 0, argv.join(" "));
    const text = argv.includes("-ij") ? JSON.parse(got.stdout).content : got.stdout;
    assertEquals(text, expected.content, argv.join(" "));
  }
  // Another letter is a usage error, not a path; after `--` it is a value.
  const unknown = await cli(root, ["read", "-x"]);
  assertEquals(unknown.status, 2);
  assertEquals(unknown.stdout, "");
  assert(unknown.stderr.startsWith('toolfs: unknown option "-x" for read'), unknown.stderr);
  const dashed = await cli(root, ["read", "--", "-i"]);
  assertEquals(dashed.status, 0);
  assert(dashed.stdout.includes("1: dash"), dashed.stdout);
  // -r after `delete` is recursive (no read needed under --no-policy).
  const deleted = await cli(root, ["--no-policy", "delete", "d", "-r"]);
  assertEquals(deleted.status, 0, deleted.stdout + deleted.stderr);
  assertEquals(deleted.stdout, "Deleted d (1 file, 1 directory)");
});

Deno.test({
  name:
    "issue 34.8: a missing --root is named as missing, not as a permission problem, with read-write, read-only and scoped grants",
  ignore: !canRun,
  async fn() {
    await using box = await sandbox("local");
    const missing = join(box.base, "no-such-dir");
    for (
      const flags of [
        ["--allow-read", "--allow-write", "--allow-env=INIT_CWD"],
        ["--allow-read"], // no write grant: the old code said "needs write permission"
        [`--allow-read=${box.base}`],
      ]
    ) {
      const run = await subprocess(flags, ["--root", missing, "list"], box.root);
      assertEquals(
        { code: run.code, stdout: run.stdout, stderr: run.stderr },
        {
          code: 2,
          stdout: "",
          stderr: `toolfs: root ${
            JSON.stringify(missing)
          } does not exist: create it or pass another directory\n`,
        },
        flags.join(" "),
      );
    }
    // An existing root without the write grant is still a permission problem.
    const run = await subprocess(["--allow-read"], ["--root", box.root, "list"], box.root);
    assertEquals(run.code, 2);
    assert(run.stderr.includes("needs write permission"), run.stderr);
  },
});
