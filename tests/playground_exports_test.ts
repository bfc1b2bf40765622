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
  TOOLFS_JSR,
} from "../playground/ui/session_log.ts";

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
    `deno run --no-prompt --allow-read --allow-write jsr:@toolfs/fs@^0.4/cli --root '.' --config '{"readLimit":5}' --no-policy 'read' '{"file_path":"it'\\''s.md"}'`,
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

    // Both run outside any toolfs checkout, from a directory holding nothing but them, with the
    // package's JSR specifiers mapped to this checkout (JSR itself is not reachable here): what
    // an agent author who installed the package runs (issue 34 item 10).
    const away = await Deno.makeTempDir({ prefix: "toolfs-export-away-" });
    try {
      const map = join(away, "import_map.json");
      await Deno.writeTextFile(
        map,
        JSON.stringify({
          imports: {
            [TOOLFS_JSR]: new URL("../mod.ts", import.meta.url).href,
            [`${TOOLFS_JSR}/cli`]: new URL("../cli.ts", import.meta.url).href,
          },
        }),
      );
      const offline = `--no-config --no-lock --import-map ${map}`;

      // The script: five CLI runs sharing a session file, so the edit after the read is allowed.
      const script = cliScript(entries);
      const command = /^TOOLFS="\$\{TOOLFS:-(.+)\}"$/m.exec(script)?.[1];
      assertEquals(
        command,
        `deno run --no-prompt --allow-read --allow-write ${TOOLFS_JSR}/cli`,
        script,
      );
      const out = await new Deno.Command("sh", {
        args: ["-c", script, "session.sh", FIXTURES_DIR],
        cwd: away,
        env: { TOOLFS: command.replace("deno run", `${Deno.execPath()} run ${offline}`) },
      }).output();
      const stdout = new TextDecoder().decode(out.stdout);
      const printed = stdout.split(/^--- call \d+: \w+\n/m).slice(1)
        .map((s) => s.replace(/\n$/, ""));
      assertEquals(
        printed,
        entries.map((e) => e.content.replaceAll(/\/tmp\/[^/]+\//g, "")),
        new TextDecoder().decode(out.stderr),
      );

      // Without a workspace argument, and not in a checkout, it says what it needs.
      const lost = await new Deno.Command("sh", { args: ["-c", script], cwd: away }).output();
      assertEquals(lost.code, 2);
      assert(new TextDecoder().decode(lost.stderr).includes("usage: sh"));

      // The golden test, saved in that directory, passes on a copy of the fixtures.
      const golden = goldenTest(entries);
      assert(golden.includes(`from "${TOOLFS_JSR}"`), golden.slice(0, 800));
      const file = join(away, "session_test.ts");
      await Deno.writeTextFile(file, golden);
      const run = await new Deno.Command(Deno.execPath(), {
        args: [
          "test",
          "--no-prompt",
          ...offline.split(" "),
          "--allow-read",
          "--allow-write",
          "--allow-env=TOOLFS_WORKSPACE",
          file,
        ],
        cwd: away,
        env: { TOOLFS_WORKSPACE: FIXTURES_DIR },
      }).output();
      const text = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
      assert(run.success && text.includes("1 passed"), text);
    } finally {
      await Deno.remove(away, { recursive: true });
    }
  },
});
