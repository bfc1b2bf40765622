// The CLI (issue 15): stdout is exactly execute(...).content, exit codes 0/1/2 (1 only for a
// search that found nothing, 2 for a tool error: issue 34.8), --session.
// Most tests run `runCli` in-process with captured output; the subprocess tests (needing
// --allow-run) check the real binary's streams and exit status.

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFsTools, LocalFileSystem } from "../mod.ts";
import { cli } from "./_cli.ts";
import { sandbox } from "./_sandbox.ts";

const PROJECT = dirname(dirname(fileURLToPath(import.meta.url)));

const FILES = { "notes.txt": "line one\nline two\nline three\n", "docs/": "", "src/a.ts": "x\n" };

Deno.test("cli prints exactly execute(...).content for each tool, exit 0", async () => {
  await using box = await sandbox("local", FILES);
  const { root } = box;
  const calls: [string, Record<string, unknown>, string[]][] = [
    ["list", {}, ["list"]],
    ["list", { path: "src" }, ["list", "src"]],
    ["read", { file_path: "notes.txt" }, ["read", "notes.txt"]],
    ["read", { file_path: "notes.txt", offset: 2, limit: 1 }, ["read", "notes.txt", "2", "1"]],
    ["read", { file_path: "notes.txt", limit: 1 }, ["read", "notes.txt", "--limit", "1"]],
    ["read", { file_path: "notes.txt", limit: 2 }, [
      "read",
      '{"file_path":"notes.txt","limit":2}',
    ]],
    // Positionals fill the properties the JSON object left out.
    ["read", { file_path: "notes.txt", offset: 2, limit: 1 }, [
      "read",
      '{"file_path":"notes.txt"}',
      "2",
      "1",
    ]],
    ["write", { file_path: "new.txt", content: "hi\n" }, ["write", "new.txt", "hi\n"]],
  ];
  for (const [tool, args, argv] of calls) {
    // A fresh tools object each time: the CLI's own session starts empty per run too.
    const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
    if (tool === "write") await Deno.remove(join(root, "new.txt")).catch(() => {});
    const expected = await tools.execute(tool, args);
    if (tool === "write") await Deno.remove(join(root, "new.txt"));
    const got = await cli(root, argv);
    assertEquals(got, { status: 0, stdout: expected.content, stderr: "" }, argv.join(" "));
  }
});

Deno.test("cli edit with --no-policy prints the edit text; --replace_all alone means true", async () => {
  await using box = await sandbox("local", { "a.txt": "x x\n" });
  const { root } = box;
  const got = await cli(root, ["--no-policy", "edit", "a.txt", "x", "y", "--replace_all"]);
  assertEquals(got.status, 0);
  assertEquals(
    got.stdout,
    "The file a.txt has been updated. All occurrences were successfully replaced.",
  );
  assertEquals(await Deno.readTextFile(join(root, "a.txt")), "y y\n");
});

Deno.test("C4.2a cli --config passes detailedFooters through to read and edit", async () => {
  await using box = await sandbox("local", { "a.txt": "x x" });
  const { root } = box;
  const config = ["--config", '{"detailedFooters":true}'];
  const read = await cli(root, [...config, "read", "a.txt"]);
  assertEquals(read.status, 0);
  assertEquals(
    read.stdout.split("\n").at(-2),
    "(End of file - total 1 line; no newline at end of file)",
  );
  const edit = await cli(root, [
    ...config,
    "--no-policy",
    "edit",
    "a.txt",
    "x",
    "y",
    "--replace_all",
  ]);
  assertEquals(
    edit.stdout,
    "The file a.txt has been updated. All 2 occurrences were successfully replaced.",
  );
});

Deno.test("cli --no-policy after the tool name is never an option: a value, or a usage error (issue 19)", async () => {
  await using box = await sandbox("local", { "a.txt": "old\n" });
  const { root } = box;
  // The value of --content: written as such, so the policy holds (a.txt was never read).
  const taken = await cli(root, ["write", "a.txt", "--content", "--no-policy"]);
  assertEquals(taken.status, 2);
  assert(taken.stdout.startsWith("Error: "), taken.stdout);
  assertEquals(await Deno.readTextFile(join(root, "a.txt")), "old\n");
  // Where an option could stand, it is refused: the policy stays on and nothing runs.
  const flag = await cli(root, ["write", "a.txt", "--no-policy", "--content", "new"]);
  assertEquals(flag.status, 2);
  assert(flag.stderr.startsWith("toolfs: option --no-policy goes before the tool name"));
  assertEquals(await Deno.readTextFile(join(root, "a.txt")), "old\n");
});

Deno.test("cli prints a tool error's Error: text on stdout and exits 2, as rg does (issue 34.8)", async () => {
  await using box = await sandbox("local", FILES);
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  for (
    const [args, argv] of [
      [{ file_path: "missing.txt" }, ["read", "missing.txt"]],
      [{ file_path: "notes.txt", offset: "x" }, ["read", "notes.txt", "--offset", "x"]],
      [{ file_path: "/etc/passwd" }, ["read", "/etc/passwd"]],
    ] as const
  ) {
    const expected = await tools.execute("read", args);
    assert(expected.isError);
    assertEquals(await cli(root, [...argv]), { status: 2, stdout: expected.content, stderr: "" });
  }
  // Without a session an existing file was never read: C5.3 through the CLI.
  const write = await cli(root, ["write", "notes.txt", "new"]);
  assertEquals(write.status, 2);
  assert(write.stdout.startsWith('Error: cannot write "notes.txt": '), write.stdout);
  assertEquals(await Deno.readTextFile(join(root, "notes.txt")), FILES["notes.txt"]);
});

Deno.test("cli usage errors exit 2 with the reason and the help on stderr, nothing on stdout", async () => {
  await using box = await sandbox("local", FILES);
  const { root } = box;
  const cases: [string[], string][] = [
    [[], "toolfs: no tool given\nusage: toolfs"],
    [["--bogus", "list"], 'toolfs: unknown option "--bogus"\nusage: toolfs'],
    [["read", "a", "1", "2", "3"], 'toolfs: too many arguments for read: "3"'],
    [["read", "{not json"], "toolfs: read arguments: not valid JSON"],
    [["--config", "{bad", "list"], "toolfs: --config: not valid JSON"],
    [["--root"], "toolfs: option --root needs a value"],
  ];
  for (const [argv, start] of cases) {
    const got = await cli(root, argv);
    assertEquals(got.status, 2, argv.join(" "));
    assertEquals(got.stdout, "", argv.join(" "));
    assert(got.stderr.startsWith(start), `${argv.join(" ")}: ${got.stderr}`);
    assert(!got.stderr.includes("    at "), "no stack trace");
  }
  // Setup problems: the tool did not run, so 2, with a one-line reason.
  const config = await cli(root, ["--config", '{"readLimit":0}', "list"]);
  assertEquals(config.status, 2);
  assertEquals(
    config.stderr,
    'toolfs: config "readLimit" must be a whole number of at least 1: got 0\n',
  );
  const missing = await cli(root, ["--root", "nope", "list"]);
  assertEquals(missing.status, 2);
  assert(missing.stderr.startsWith("toolfs: ") && missing.stderr.includes("nope"));
  const help = await cli(root, ["--help"]);
  assertEquals(help.status, 0);
  assert(help.stdout.includes("read <file_path> [offset] [limit]"));
});

Deno.test("cli --json of an image read includes the attachments (C17.3)", async () => {
  const png = await Deno.readFile(new URL("./fixtures/media/red.png", import.meta.url));
  await using box = await sandbox("local", { "red.png": png });
  const { root } = box;
  const got = await cli(root, ["--json", "read", "red.png"]);
  assertEquals(got.status, 0);
  const result = JSON.parse(got.stdout);
  assertEquals(result.attachments, [
    { type: "image", mimeType: "image/png", data: btoa(String.fromCharCode(...png)) },
  ]);
  // Without --json, the text alone.
  assertEquals(
    (await cli(root, ["read", "red.png"])).stdout,
    "<path>red.png</path>\n<type>image</type>\n<content>\nimage/png 3x2, 84 B\n</content>",
  );
});

Deno.test("cli --json prints the whole result; --tokens counts on stderr", async () => {
  await using box = await sandbox("local", FILES);
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const expected = await tools.execute("read", { file_path: "notes.txt" });
  const got = await cli(root, ["--json", "read", "notes.txt"]);
  assertEquals(got.status, 0);
  assertEquals(JSON.parse(got.stdout), JSON.parse(JSON.stringify(expected)));
  const failed = await cli(root, ["read", "missing.txt", "--json"]);
  assertEquals(failed.status, 2);
  assertEquals(JSON.parse(failed.stdout).error, { name: "FsError", code: "FS_NOT_FOUND" });
  const counted = await cli(root, ["--tokens", "read", "notes.txt"]);
  assertEquals(counted.stdout, expected.content);
  assert(/^tokens: \d+ deepseek_v3, \d+ o200k\n$/.test(counted.stderr), counted.stderr);
});

Deno.test("cli --session keeps read observations between runs (C5.1, C5.2)", async () => {
  await using box = await sandbox("local", { "a.txt": "hello\n" });
  const { base: dir, root } = box;
  const session = join(dir, "session.json");
  const before = await cli(root, ["--session", session, "edit", "a.txt", "hello", "bye"]);
  assertEquals(before, {
    status: 2,
    stdout: 'Error: cannot edit "a.txt": read it first',
    stderr: "",
  });
  assertEquals((await cli(root, ["--session", session, "read", "a.txt"])).status, 0);
  const stored = JSON.parse(await Deno.readTextFile(session));
  assertEquals(Object.keys(stored.observations), [join(root, "a.txt")]);
  const edit = await cli(root, ["--session", session, "edit", "a.txt", "hello", "bye"]);
  assertEquals(edit, {
    status: 0,
    stdout: "The file a.txt has been updated successfully.",
    stderr: "",
  });
  // The edit's own version was saved (C5.4): a second edit needs no new read.
  const again = await cli(root, ["--session", session, "edit", "a.txt", "bye", "ciao"]);
  assertEquals(again.status, 0);
  // A change made outside makes the stored version stale.
  await Deno.writeTextFile(join(root, "a.txt"), "changed elsewhere\n");
  const stale = await cli(root, ["--session", session, "edit", "a.txt", "changed", "x"]);
  assertEquals(stale.status, 2);
  assert(stale.stdout.includes("it changed since it was last read"), stale.stdout);
  // No temporary files are left beside the session file.
  const names = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  assertEquals(names.sort(), ["root", "session.json"]);
});

Deno.test("cli refuses a malformed session file with a message and leaves it untouched", async () => {
  await using box = await sandbox("local", { "a.txt": "hello\n" });
  const { base: dir, root } = box;
  const session = join(dir, "session.json");
  for (
    const text of [
      "{oops",
      "[]",
      '{"observations":{}}',
      '{"toolfs_session":1,"observations":{"/a":1}}',
    ]
  ) {
    await Deno.writeTextFile(session, text);
    const got = await cli(root, ["--session", session, "read", "a.txt"]);
    assertEquals(got.status, 2, text);
    assertEquals(got.stdout, "");
    assert(
      got.stderr.startsWith(
        `toolfs: session file ${JSON.stringify(session)} is not a toolfs session file: `,
      ),
      got.stderr,
    );
    assertEquals(await Deno.readTextFile(session), text);
  }
});

Deno.test("cli: 30 runs saving one session file at once keep all 30 observations (issue 19.10)", async () => {
  const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.txt`, `${i}\n`]));
  await using box = await sandbox("local", files);
  const { base: dir, root } = box;
  const session = join(dir, "session.json");
  const runs = await Promise.all(
    Object.keys(files).map((name) => cli(root, ["--session", session, "read", name])),
  );
  assertEquals(runs.map((run) => run.status), runs.map(() => 0));
  const stored = JSON.parse(await Deno.readTextFile(session));
  assertEquals(
    Object.keys(stored.observations).sort(),
    Object.keys(files).map((name) => join(root, name)).sort(),
  );
  // Each edit then runs without a new read; no lock or temporary file is left behind.
  const edits = await Promise.all(
    Object.keys(files).map((name, i) =>
      cli(root, ["--session", session, "edit", name, `${i}`, `edited ${i}`])
    ),
  );
  assertEquals(edits.map((run) => run.status), edits.map(() => 0));
  const names = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  assertEquals(names.sort(), ["root", "session.json"]);
});

Deno.test("cli: a session file linked to another file is refused and quotes none of its bytes (issue 19.10, 30.10)", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { base: dir, root } = box;
  const outside = join(dir, "outside.txt");
  await Deno.writeTextFile(outside, "SECRETBYTES-0123456789 and more\n");
  const session = join(dir, "session.json");
  await Deno.symlink(outside, session);
  const got = await cli(root, ["--session", session, "read", "a.txt"]);
  assertEquals(got.status, 2);
  assertEquals(
    got.stderr.split("\n")[0],
    `toolfs: session file ${JSON.stringify(session)} is a symbolic link: pass the file itself ` +
      "(a session file is never read through a link)",
  );
  assert(!/SECRET|0123/.test(got.stderr), got.stderr);
  assertEquals(await Deno.readTextFile(outside), "SECRETBYTES-0123456789 and more\n");
});

Deno.test("cli reads a '-' argument from stdin: the JSON object or one value", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  const content = "no trailing newline is lost\n\n";
  const got = await cli(root, ["write", "a.txt", "-"], content);
  assertEquals(got.status, 0);
  assertEquals(await Deno.readTextFile(join(root, "a.txt")), content);
  const json = await cli(root, ["read", "-"], '{"file_path":"a.txt","limit":1}');
  assertEquals(json.status, 0);
  assert(json.stdout.includes("1: no trailing newline is lost\n"), json.stdout);
});

const canRun = Deno.permissions.querySync({ name: "run" }).state === "granted" &&
  Deno.permissions.querySync({ name: "env" }).state === "granted";
if (!canRun) {
  console.warn("cli_test.ts: subprocess tests skipped; they need --allow-run --allow-env");
}

Deno.test({
  name: "deno task cli: `toolfs read README.md` prints the read exactly; exit codes 0, 2",
  ignore: !canRun,
  async fn() {
    const run = async (args: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["task", "-q", "cli", ...args],
        cwd: PROJECT,
        stdin: "null",
      }).output();
      const d = new TextDecoder();
      return { code: out.code, stdout: d.decode(out.stdout), stderr: d.decode(out.stderr) };
    };
    const tools = createFsTools({ fs: new LocalFileSystem({ roots: [PROJECT] }) });
    const expected = await tools.execute("read", { file_path: "README.md", limit: 30 });
    const ok = await run(["read", "README.md", "--limit", "30"]);
    assertEquals({ code: ok.code, stdout: ok.stdout }, { code: 0, stdout: expected.content });
    const failed = await run(["read", "no-such-file.md"]);
    assertEquals(failed.code, 2);
    assert(failed.stdout.startsWith('Error: cannot read "no-such-file.md": not found'));
    const usage = await run([]);
    assertEquals(usage.code, 2);
    assertEquals(usage.stdout, "");
    assert(usage.stderr.includes("toolfs: no tool given\nusage: toolfs"));
  },
});

Deno.test("cli --read-only roots are never written (C3.3)", async () => {
  await using box = await sandbox("local", { "a.txt": "hello\n" });
  const { root } = box;
  const got = await cli(root, ["--read-only", ".", "--no-policy", "write", "a.txt", "x"]);
  assertEquals(got, {
    status: 2,
    stdout: 'Error: cannot write "a.txt": the root is read-only',
    stderr: "",
  });
  assertEquals(await Deno.readTextFile(join(root, "a.txt")), "hello\n");
});

Deno.test({
  name: "cli without --root: the current directory, read-only when Deno may not write it (C7.3)",
  ignore: !canRun,
  async fn() {
    await using box = await sandbox("local", { "a.txt": "hello\n" });
    const { root } = box;
    const run = async (flags: string[], args: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", ...flags, join(PROJECT, "cli.ts"), ...args],
        cwd: root,
        stdin: "null",
      }).output();
      return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
    };
    const read = await run([`--allow-read=${root}`], ["read", "a.txt"]);
    assertEquals(read.code, 0);
    assert(read.stdout.includes("1: hello\n"));
    const write = await run([`--allow-read=${root}`], ["--no-policy", "write", "a.txt", "x"]);
    assertEquals(write, {
      code: 2,
      stdout: 'Error: cannot write "a.txt": the root is read-only',
    });
    const allowed = await run([`--allow-read=${root}`, `--allow-write=${root}`], [
      "--no-policy",
      "write",
      "a.txt",
      "x",
    ]);
    assertEquals(allowed.code, 0);
    assertEquals(await Deno.readTextFile(join(root, "a.txt")), "x");
  },
});

Deno.test("cli resolves relative paths against the caller's directory inside a root (C3.1, C3.4)", async () => {
  await using box = await sandbox("local", { "src/a.ts": "x\n", "b.txt": "y\n" });
  const { base: dir, root } = box;
  const inside = await cli(join(root, "src"), ["--root", "..", "read", "a.ts"]);
  assertEquals(inside.status, 0);
  assert(inside.stdout.startsWith("<path>a.ts</path>"), inside.stdout);
  // Outside every root, the first root is the session directory.
  const outside = await cli(dir, ["--root", "root", "read", "b.txt"]);
  assertEquals(outside.status, 0);
  assert(outside.stdout.startsWith("<path>b.txt</path>"), outside.stdout);
});

Deno.test("C15.1/C16 cli: patch runs only when --tools names it", async () => {
  await using box = await sandbox("local", { "a.txt": "one\n" });
  const { root } = box;
  const patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch";
  const refused = await cli(root, ["patch", patch]);
  assertEquals(refused.status, 2);
  // What the model would see (C12.2, issue 32.6), on stdout.
  assert(refused.stdout.startsWith('Error: unknown tool "patch"; the tools are list, read'));
  const ran = await cli(root, ["--tools", "read,patch", "--no-policy", "patch", patch]);
  assertEquals([ran.status, ran.stdout], [0, "Updated a.txt"]);
  assertEquals(await Deno.readTextFile(join(root, "a.txt")), "two\n");
  const bad = await cli(root, ["--tools", "read,nope", "read", "a.txt"]);
  assertEquals(bad.status, 2);
  assert(bad.stderr.includes('"nope"'), bad.stderr);
});
