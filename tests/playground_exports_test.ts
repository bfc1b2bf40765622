// The playground's exports (issue 25): a session as a CLI script and as a golden-test file, and
// one call as a CLI line, run for real on a copy of the fixtures. Needs -A (runs deno and sh).
//
//   deno test -A tests/playground_exports_test.ts

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem, ReadBeforeWritePolicy } from "../mod.ts";
import { FIXTURES_DIR } from "../playground/server/workspace.ts";
import {
  cliLine,
  cliScript,
  contentHash,
  EXAMPLE_SESSION,
  goldenTest,
  type HistoryEntry,
  isMutation,
} from "../playground/ui/session_log.ts";
import { REPO } from "./_playground_browser.ts";

const canRun = Deno.permissions.querySync({ name: "run" }).state === "granted";

/** The example session run with the library on a copy of the fixtures, as the history holds it. */
async function recorded(): Promise<HistoryEntry[]> {
  const dir = await Deno.makeTempDir({ prefix: "toolfs-export-" });
  try {
    await new Deno.Command("cp", { args: ["-R", `${FIXTURES_DIR}/.`, dir] }).output();
    const fs = new LocalFileSystem({ roots: [dir, { path: join(dir, "vendor"), write: false }] });
    const tools = createFsTools({ fs, policy: new ReadBeforeWritePolicy() });
    const entries: HistoryEntry[] = [];
    for (const call of EXAMPLE_SESSION) {
      const result = await tools.execute(call.tool, call.args);
      entries.push({
        call,
        pane: "A",
        tokens: {},
        bytes: 0,
        isError: result.isError,
        content: result.content,
        hash: contentHash(result.content),
      });
    }
    return entries;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a CLI line quotes its JSON for the shell and carries config and policy", () => {
  assertEquals(
    cliLine({
      tool: "read",
      args: { file_path: "it's.md" },
      config: { readLimit: 5 },
      policy: false,
    }),
    `deno task cli --root '.' --config '{"readLimit":5}' --no-policy 'read' '{"file_path":"it'\\''s.md"}'`,
  );
  assertEquals(isMutation({ tool: "grep" }), false);
  assertEquals(isMutation({ tool: "delete" }), true);
  assertEquals(isMutation({ tool: "bash" }), true);
});

Deno.test({
  name: "the exported CLI script and golden test give the recorded texts of the five-call session",
  ignore: !canRun,
  async fn() {
    const entries = await recorded();
    assertEquals(entries.map((e) => e.isError), [false, false, false, false, false]);
    assert(entries[3].content.includes("// localized in v2"), entries[3].content);

    // The script: five CLI runs sharing a session file, so the edit after the read is allowed.
    const script = cliScript(entries);
    const out = await new Deno.Command("sh", { args: ["-c", script], cwd: REPO }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const printed = stdout.split(/^--- call \d+: \w+\n/m).slice(1).map((s) => s.replace(/\n$/, ""));
    assertEquals(printed, entries.map((e) => e.content.replaceAll(/\/tmp\/[^/]+\//g, "")));

    // The golden test, saved beside the tests, passes.
    const file = join(REPO, "tests", `_golden_${crypto.randomUUID().slice(0, 8)}_test.ts`);
    await Deno.writeTextFile(file, goldenTest(entries));
    try {
      const run = await new Deno.Command(Deno.execPath(), {
        args: ["test", "--no-prompt", "--allow-read", "--allow-write", file],
        cwd: REPO,
      }).output();
      const text = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
      assert(run.success && text.includes("1 passed"), text);
    } finally {
      await Deno.remove(file);
    }
  },
});
