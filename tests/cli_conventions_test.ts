// CLI conventions (issue 24, issue 19 finding 9): --version, short options, `--` ending the
// options, exit 1 for a search that found nothing (as rg, grep and fd do; a tool error is 2, as
// rg's), and the tokenizers
// out of every module graph but --tokens'.

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFsTools, LocalFileSystem } from "../mod.ts";
import { CLI_VERSION } from "../cli.ts";
import { cli } from "./_cli.ts";
import { sandbox } from "./_sandbox.ts";

const PROJECT = fileURLToPath(new URL("..", import.meta.url));

Deno.test("cli --version and -V print the package version, exit 0", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(PROJECT, "deno.json")));
  assertEquals(CLI_VERSION, config.version);
  await using box = await sandbox("local");
  const { root } = box;
  for (const flag of ["--version", "-V"]) {
    assertEquals(await cli(root, [flag]), {
      status: 0,
      stdout: `toolfs ${config.version}\n`,
      stderr: "",
    });
  }
});

Deno.test("cli short options: -r, -R, -c, -s, -j, -t, bundled -jt, -rDIR", async () => {
  await using box = await sandbox("local", { "w/a.txt": "one\ntwo\n", "ro/b.txt": "b\n" });
  const { root: dir } = box;
  const w = join(dir, "w");
  const ro = join(dir, "ro");
  const long = await cli(dir, ["--root", w, "--read-only", ro, "--json", "read", "a.txt"]);
  const short = await cli(dir, ["-r", w, "-R", ro, "-j", "read", "a.txt"]);
  assertEquals(short, long);
  assertEquals(await cli(dir, [`-r${w}`, `-R${ro}`, "-j", "read", "a.txt"]), long);
  assertEquals(short.stderr, "");
  assertEquals(JSON.parse(short.stdout).isError, false);
  // -R is read-only (C3.3).
  const denied = await cli(dir, ["-r", w, "-R", ro, "write", join(ro, "c.txt"), "x"]);
  assertEquals(denied.status, 2); // a tool error (issue 34.8)
  assert(denied.stdout.endsWith("the root is read-only"), denied.stdout);
  // -c sets caps; -jt is -j -t.
  const capped = await cli(dir, ["-r", w, "-c", '{"readLimit":1}', "-jt", "read", "a.txt"]);
  assertEquals(JSON.parse(capped.stdout).value.lines, [{ number: 1, text: "one" }]);
  assert(/^tokens: \d+ deepseek_v3, \d+ o200k\n$/.test(capped.stderr), capped.stderr);
  // -s keeps observations, as --session does.
  const session = join(dir, "s.json");
  assertEquals((await cli(dir, ["-r", w, "-s", session, "read", "a.txt"])).status, 0);
  const edit = await cli(dir, ["-r", w, "-s", session, "edit", "a.txt", "one", "uno"]);
  assertEquals(edit.status, 0, edit.stdout);
  assertEquals(await Deno.readTextFile(join(w, "a.txt")), "uno\ntwo\n");
  const unknown = await cli(dir, ["-x", "list"]);
  assertEquals(unknown.status, 2);
  assert(unknown.stderr.startsWith('toolfs: unknown option "-x"'), unknown.stderr);
});

Deno.test("cli `--` ends the options: YAML front matter and option-like values are written as values (issue 19)", async () => {
  await using box = await sandbox("local");
  const { root } = box;
  const front = "---\ntitle: x\n---\n";
  const wrote = await cli(root, ["write", "--", "post.md", front]);
  assertEquals(wrote.status, 0, wrote.stdout + wrote.stderr);
  assertEquals(await Deno.readTextFile(join(root, "post.md")), front);
  // `---` is never an option, even without `--`.
  assertEquals((await cli(root, ["write", "rule.md", "---"])).status, 0);
  assertEquals(await Deno.readTextFile(join(root, "rule.md")), "---");
  // After `--`, `--no-policy` is content, and the policy still guards post.md (never read).
  const injected = await cli(root, ["write", "--", "post.md", "--no-policy"]);
  assertEquals(injected.status, 2);
  assert(injected.stdout.includes("read it first"), injected.stdout);
  assertEquals(await Deno.readTextFile(join(root, "post.md")), front);
  // `--` before the tool name ends the global options.
  const listed = await cli(root, ["--", "list"]);
  assertEquals(listed.status, 0);
  // A value option's value is a value, whatever it looks like.
  const grep = await cli(root, ["grep", "--pattern", "--zz", "--path", "."]);
  assertEquals(grep.status, 1); // no match: see the next test
});

Deno.test("cli grep and glob exit 1 when nothing matched, 0 when something did (as rg)", async () => {
  await using box = await sandbox("local", { "a.ts": "needle\n", "b.md": "hay\n" });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const cases: [string, Record<string, unknown>, string[], number][] = [
    ["grep", { pattern: "needle" }, ["grep", "needle"], 0],
    ["grep", { pattern: "absent" }, ["grep", "absent"], 1],
    ["grep", { pattern: "absent", output_mode: "count" }, [
      "grep",
      "absent",
      "--output_mode",
      "count",
    ], 1],
    ["glob", { pattern: "*.ts" }, ["glob", "*.ts"], 0],
    ["glob", { pattern: "*.rs" }, ["glob", "*.rs"], 1],
  ];
  for (const [tool, args, argv, status] of cases) {
    const expected = await tools.execute(tool, args);
    assertEquals(expected.isError, false);
    assertEquals(await cli(root, argv), { status, stdout: expected.content, stderr: "" });
  }
  // A list of an empty directory found nothing too, but it is not a search: 0.
  await Deno.mkdir(join(root, "empty"));
  assertEquals((await cli(root, ["list", "empty"])).status, 0);
});

Deno.test("cli: the tokenizers are in no module graph, so `toolfs list` never downloads them", async () => {
  const graph = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", join(PROJECT, "cli.ts")],
    cwd: PROJECT,
    stdout: "piped",
    stderr: "null",
  });
  let text: string;
  try {
    text = new TextDecoder().decode((await graph.output()).stdout);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return; // needs --allow-run: checked under -A
    throw error;
  }
  const specifiers: string[] = JSON.parse(text).modules.map((m: { specifier: string }) =>
    m.specifier
  );
  assert(specifiers.length > 10);
  const tokenizers = specifiers.filter((s) => /tokenizer/.test(s));
  assertEquals(tokenizers, []);
});
