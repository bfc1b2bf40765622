/**
 * The MCP server as real clients take it: the MCP Inspector's `--strict` schema portability
 * check over every tool (issue 34 item 4: a `type` array is legal JSON Schema that clients
 * mapping schemas onto a single-`type` dialect, such as Gemini's, may reject), and `--config`
 * passing `detailedFooters` through (C4.2a). Needs -A (it starts the server and the Inspector).
 */

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { connectHttp, connectStdio, PROJECT, runMcp, startHttp, test } from "./_mcp_client.ts";
import { sandbox } from "./_sandbox.ts";

/** The MCP Inspector, pinned (its CLI runs under Deno from npm, outside the project's lock). */
const INSPECTOR = "npm:@modelcontextprotocol/inspector@2.12.0";

const ALL_TOOLS = "list,read,write,edit,glob,grep,move,delete,patch";

test("issue 34 item 4: the MCP Inspector's --strict finds no portability problem in any of the nine tools' input or output schemas", async () => {
  await using box = await sandbox("local");
  const server = [
    Deno.execPath(),
    "run",
    "--no-prompt",
    "--allow-all", // move and delete are offered only where C15.5 holds, as deno task mcp runs
    `${PROJECT}/mcp.ts`,
    "--structured", // the output schemas too
    "--tools",
    ALL_TOOLS,
    box.root,
  ];
  const out = await new Deno.Command(Deno.execPath(), {
    // Run outside the project, so the Inspector's dependencies stay out of deno.lock.
    cwd: box.base,
    args: ["run", "-A", "--no-lock", INSPECTOR, "--cli", "--method", "tools/list", "--strict"]
      .concat(server),
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  // --strict exits 6 on an error-severity problem and prints every warning in full on stderr.
  assertEquals(out.code, 0, stderr);
  assert(!/(Warning|Error): tool "|\d+ errors?, \d+ warnings?/.test(stderr), stderr);
  const listed = JSON.parse(stdout) as {
    tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[];
  };
  assertEquals(listed.tools.map((tool) => tool.name), ALL_TOOLS.split(","));
  // The glob arguments are one string or a list of strings, as anyOf branches (C9.3).
  const glob = listed.tools.find((tool) => tool.name === "glob")!;
  assertEquals(glob.inputSchema.properties.pattern, {
    anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
    description: "e.g. [*.ts, !*.test.ts]",
  });
});

test("C4.2a: the MCP server's --config passes detailedFooters through to read and edit", async () => {
  await using box = await sandbox("local", { "a.txt": "x x" });
  const detailed = await connectStdio([
    "task",
    "--quiet",
    "mcp",
    box.root,
    "--config",
    '{"detailedFooters":true}',
  ]);
  const plain = await connectStdio(["task", "--quiet", "mcp", box.root]);
  try {
    const footer = async (connection: typeof plain) =>
      (await connection.call("read", { file_path: "a.txt" })).content[0].text.split("\n").at(-2);
    assertEquals(
      await footer(detailed),
      "(End of file - total 1 line; no newline at end of file)",
    );
    assertEquals(await footer(plain), "(End of file - total 1 lines)");
    const edit = await detailed.call("edit", {
      file_path: "a.txt",
      old_string: "x",
      new_string: "y",
      replace_all: true,
    });
    assertEquals(
      edit.content[0].text,
      "The file a.txt has been updated. All 2 occurrences were successfully replaced.",
    );
  } finally {
    await detailed.close();
    await plain.close();
  }
});

test("C2: the MCP server refuses a --config it cannot use, naming the problem (exit 2)", async () => {
  await using box = await sandbox("local");
  for (
    const [config, problem] of [
      ["{bad", "toolfs mcp: --config: "],
      ["[1]", "toolfs mcp: --config: expected a JSON object: got [1]"],
      ['{"readLimt":5}', 'toolfs mcp: --config: unknown config key "readLimt": expected one of '],
      [
        '{"detailedFooters":"yes"}',
        'toolfs mcp: --config: config "detailedFooters" must be a boolean: got "yes"',
      ],
    ]
  ) {
    const run = await runMcp([box.root, "--config", config]);
    assertEquals(run.code, 2, run.stderr);
    assert(run.stderr.startsWith(problem), run.stderr);
  }
});

test("C4.2a/C15.1: over HTTP the MCP server takes --config and --tools as over stdio", async () => {
  await using box = await sandbox("local", { "a.txt": "x x" });
  const server = await startHttp([
    box.root,
    "--http",
    "127.0.0.1:0",
    "--no-auth",
    "--tools",
    "read,patch",
    "--config",
    '{"detailedFooters":true}',
  ]);
  try {
    const connection = await connectHttp(server);
    try {
      const { tools } = await connection.client.listTools();
      assertEquals(tools.map((tool) => tool.name), ["read", "patch"]);
      const read = await connection.call("read", { file_path: "a.txt" });
      assertEquals(
        read.content[0].text.split("\n").at(-2),
        "(End of file - total 1 line; no newline at end of file)",
      );
    } finally {
      await connection.close();
    }
  } finally {
    await server.stop();
  }
});
