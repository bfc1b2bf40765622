// CONTRACT C15.5: `move` and `delete` run only where no race can take them outside the roots.
// Under path checks (`--allow-read --allow-write`, as `deno task mcp` and `deno task cli` ran
// before, or grants scoped to the root) they are not offered, a call to them names the
// permission they need, and the provider refuses them (so `patch`'s Delete File and Move to
// too); under descriptor checks (Linux, --allow-all) they work. `deno task mcp` and
// `deno task cli` run with --allow-all. The races themselves: tests/adversarial/move_delete_test.ts.

import assert from "node:assert/strict";
import { join } from "node:path";
import { cannotRun, runChild, skipUnless } from "../adversarial/_harness.ts";
import { connectStdio, ignore as mcpIgnore, MISSING, PROJECT } from "../_mcp_client.ts";

const NEED = "Deno's --allow-all";
const WHY = "with path checks a concurrent swap could make it touch entries outside the roots";

const CALLS: [string, Record<string, unknown>][] = [
  ["move", { source_path: "a.txt", destination_path: "b.txt" }],
  ["delete", { path: "a.txt" }],
  ["patch", { patch: "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch" }],
  [
    "patch",
    {
      patch:
        "*** Begin Patch\n*** Update File: a.txt\n*** Move to: c.txt\n@@\n-a\n+A\n*** End Patch",
    },
  ],
];

interface Report {
  pinned: boolean;
  names: string[];
  results: { content: string; code: string | null }[];
}

const PATH_MODES = [
  {
    name: "--allow-read --allow-write",
    permissions: (_: string) => ["--allow-read", "--allow-write"],
  },
  {
    name: "grants scoped to the root",
    permissions: (base: string) => [`--allow-read=${base}`, `--allow-write=${base}`],
  },
];

for (const mode of PATH_MODES) {
  const name =
    `C15.5 under path checks (${mode.name}) move and delete are not offered, a call names ${NEED}, and patch cannot delete or move`;
  Deno.test({
    name,
    ignore: skipUnless(name, cannotRun() ?? (Deno.build.os !== "linux" ? "needs Linux" : null)),
    async fn() {
      const base = await Deno.makeTempDir({ prefix: "toolfs_c15_5_" });
      try {
        const root = join(base, "root");
        await Deno.mkdir(root);
        await Deno.writeTextFile(join(root, "a.txt"), "a\n");
        const inode = (await Deno.stat(join(root, "a.txt"))).ino;
        const { report } = await runChild<Report>(
          "./_calls_child.ts",
          [root, JSON.stringify(CALLS)],
          { permissions: mode.permissions(base) },
        );
        assert.equal(report.pinned, false);
        assert.deepEqual(report.names, ["list", "read", "write", "edit", "glob", "grep", "patch"]);
        const refused = (operation: string) =>
          `Error: cannot patch "a.txt" (${operation}, patch line 2): permission denied (it needs ${NEED}: ${WHY})`;
        assert.deepEqual(report.results, [
          {
            content: `Error: move is not offered: it needs ${NEED} (${WHY})`,
            code: "FS_PERMISSION_DENIED",
          },
          {
            content: `Error: delete is not offered: it needs ${NEED} (${WHY})`,
            code: "FS_PERMISSION_DENIED",
          },
          { content: refused("Delete File"), code: "FS_PERMISSION_DENIED" },
          // C16.2: refused before any file changes, so a.txt is never replaced and put back.
          { content: refused("Update File"), code: "FS_PERMISSION_DENIED" },
        ]);
        assert.deepEqual(
          [...Deno.readDirSync(root)].map((e) => e.name),
          ["a.txt"],
        );
        assert.equal(await Deno.readTextFile(join(root, "a.txt")), "a\n");
        assert.equal((await Deno.stat(join(root, "a.txt"))).ino, inode);
      } finally {
        await Deno.remove(base, { recursive: true });
      }
    },
  });
}

const allName =
  "C15.5 under descriptor checks (--allow-all on Linux) move and delete are offered and work";
Deno.test({
  name: allName,
  ignore: skipUnless(allName, cannotRun() ?? (Deno.build.os !== "linux" ? "needs Linux" : null)),
  async fn() {
    const base = await Deno.makeTempDir({ prefix: "toolfs_c15_5_" });
    try {
      const root = join(base, "root");
      await Deno.mkdir(root);
      await Deno.writeTextFile(join(root, "a.txt"), "a\n");
      const { report } = await runChild<Report>(
        "./_calls_child.ts",
        [root, JSON.stringify([CALLS[0], ["delete", { path: "b.txt" }]])],
        { permissions: ["--allow-all"] },
      );
      assert.equal(report.pinned, true);
      assert.deepEqual(report.names.slice(6), ["move", "delete", "patch"]);
      assert.deepEqual(report.results.map((r) => r.content), [
        "Moved a.txt to b.txt",
        "Deleted b.txt",
      ]);
      assert.deepEqual([...Deno.readDirSync(root)], []);
    } finally {
      await Deno.remove(base, { recursive: true });
    }
  },
});

Deno.test("C15.5 deno task mcp and deno task cli run with --allow-all, where move and delete are safe", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(join(PROJECT, "deno.json"))).tasks;
  for (const task of ["mcp", "cli"]) {
    const flags = tasks[task].split(" ");
    assert.ok(flags.includes("--allow-all"), `${task}: ${tasks[task]}`);
    assert.ok(!flags.some((flag: string) => /^--allow-(read|write)\b/.test(flag)), tasks[task]);
  }
});

const mcpName =
  "C15.5 the MCP server leaves move and delete out of tools/list under path checks and says why; deno task mcp lists them";
Deno.test({
  name: mcpName,
  ignore: skipUnless(
    mcpName,
    mcpIgnore ? `needs ${MISSING.map((n) => `--allow-${n}`).join(" ")}` : null,
  ),
  async fn() {
    const base = await Deno.makeTempDir({ prefix: "toolfs_c15_5_" });
    try {
      const scoped = await connectStdio([
        "run",
        "--no-prompt",
        `--allow-read=${base}`,
        `--allow-write=${base}`,
        join(PROJECT, "mcp.ts"),
        base,
      ]);
      try {
        const { tools } = await scoped.client.listTools();
        assert.deepEqual(tools.map((t) => t.name), [
          "list",
          "read",
          "write",
          "edit",
          "glob",
          "grep",
        ]);
        assert.ok(
          scoped.stderr().includes(
            `toolfs mcp: move and delete are not offered: they need ${NEED} (with path checks a concurrent swap could make them touch entries outside the roots)\n`,
          ),
          scoped.stderr(),
        );
        // A client that calls them anyway is told what they need, and nothing moves.
        await Deno.writeTextFile(join(base, "a.txt"), "a\n");
        const moved = await scoped.call("move", {
          source_path: "a.txt",
          destination_path: "b.txt",
        });
        assert.deepEqual([moved.content[0].text, moved.isError], [
          `Error: move is not offered: it needs ${NEED} (${WHY})`,
          true,
        ]);
        const deleted = await scoped.call("delete", { path: "a.txt" });
        assert.deepEqual([deleted.content[0].text, deleted.isError], [
          `Error: delete is not offered: it needs ${NEED} (${WHY})`,
          true,
        ]);
        assert.deepEqual([...Deno.readDirSync(base)].map((e) => e.name), ["a.txt"]);
      } finally {
        await scoped.close();
      }
      const task = await connectStdio(["task", "mcp", base]);
      try {
        const { tools } = await task.client.listTools();
        assert.deepEqual(tools.map((t) => t.name).slice(6), ["move", "delete"]);
      } finally {
        await task.close();
      }
    } finally {
      await Deno.remove(base, { recursive: true });
    }
  },
});

const cliName =
  "C15.5 the CLI under path checks answers move and delete with the permission they need and changes nothing";
Deno.test({
  name: cliName,
  ignore: skipUnless(cliName, cannotRun() ?? (Deno.build.os !== "linux" ? "needs Linux" : null)),
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "toolfs_c15_5_" });
    try {
      await Deno.writeTextFile(join(root, "a.txt"), "a\n");
      for (const [tool, ...args] of [["move", "a.txt", "b.txt"], ["delete", "a.txt"]]) {
        const { code, stdout } = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--no-prompt",
            `--allow-read=${root},${PROJECT}`,
            `--allow-write=${root}`,
            "--allow-env",
            join(PROJECT, "cli.ts"),
            "--no-policy",
            tool,
            ...args,
          ],
          cwd: root,
          stdout: "piped",
          stderr: "piped",
        }).output();
        assert.equal(code, 2);
        assert.equal(
          new TextDecoder().decode(stdout).trim(),
          `Error: ${tool} is not offered: it needs ${NEED} (${WHY})`,
        );
      }
      assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["a.txt"]);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
