// CONTRACT C16.4: the apply_patch hosts run through toolfs — a Responses API `apply_patch_call`
// operation (applyPatchOperation), the OpenAI Agents SDK's applyPatchTool with toolfs's Editor
// (a whole Runner run driven by a scripted model, no network), and @langchain/openai's
// applyPatch tool with toolfs's execute (invoked with the tool calls of a scripted AIMessage).
// The real packages, real files; roots and read-before-write enforced.

import assert from "node:assert/strict";
import { applyPatchOperation, createFsTools, LocalFileSystem } from "../mod.ts";
import { sandbox } from "./_sandbox.ts";

// @openai/agents-core and @langchain/openai read their environment as they load.
const ignore = Deno.permissions.querySync({ name: "env" }).state !== "granted";
if (ignore) console.warn("apply_patch_hosts_test.ts: skipped, the hosts need --allow-env (-A)");

const FILES = {
  "src/a.ts": "export function checkName() {\n  return 1;\n}\n",
  "src/b.ts": "import { checkName } from './a.ts';\ncheckName();\n",
};

Deno.test("C16.4 applyPatchOperation: Responses API operations within the roots and after reads", async () => {
  await using box = await sandbox("local", FILES);
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [`${root}/src`] }) });
  const session = {};
  const apply = (operation: Parameters<typeof applyPatchOperation>[1]) =>
    applyPatchOperation(tools, operation, { session });
  const update = {
    type: "update_file" as const,
    path: "a.ts",
    diff: "@@\n-export function checkName() {\n+export function checkLabel() {\n",
  };
  assert.deepEqual(await apply(update), {
    status: "failed",
    output: 'Error: cannot patch "a.ts" (Update File): read it first',
  });
  assert.deepEqual(await apply({ type: "create_file", path: "../evil.ts", diff: "+x\n" }), {
    status: "failed",
    output: 'Error: cannot patch "../evil.ts": outside the permitted roots',
  });
  assert.equal((await tools.execute("read", { file_path: "a.ts" }, { session })).isError, false);
  assert.deepEqual(await apply(update), { status: "completed", output: "Updated a.ts" });
  assert.deepEqual(await apply({ type: "create_file", path: "c.ts", diff: "+export {};\n" }), {
    status: "completed",
    output: "Added c.ts",
  });
  assert.deepEqual(await apply({ type: "create_file", path: "c.ts", diff: "+again" }), {
    status: "failed",
    output:
      'Error: cannot patch "c.ts" (Add File): the file already exists; use *** Update File to change it',
  });
  // c.ts was added by this session, so it may be deleted; a.ts moved with move_to.
  assert.deepEqual(await apply({ type: "delete_file", path: "c.ts" }), {
    status: "completed",
    output: "Deleted c.ts",
  });
  assert.deepEqual(
    await apply({
      type: "update_file",
      path: "a.ts",
      move_to: "lib/a.ts",
      diff: "@@\n-  return 1;\n+  return 2;",
    }),
    { status: "completed", output: "Updated a.ts and moved it to lib/a.ts" },
  );
  assert.deepEqual(await apply({ type: "bogus" } as never), {
    status: "failed",
    output:
      'Error: operation must be an object whose type is "create_file", "update_file" or "delete_file"',
  });
  assert.equal(
    await Deno.readTextFile(`${root}/src/lib/a.ts`),
    "export function checkLabel() {\n  return 2;\n}\n",
  );
  await assert.rejects(Deno.stat(`${root}/src/c.ts`));
  await assert.rejects(Deno.stat(`${root}/src/a.ts`));
});

Deno.test("C16.4 OpenAI Agents SDK: applyPatchTool with toolfs's Editor in a Runner run", {
  ignore,
}, async () => {
  const agents = await import("@openai/agents-core");
  const { toOpenAIAgentsEditor, toOpenAIAgentsTools } = await import(
    "../adapters/openai_agents.ts"
  );
  await using box = await sandbox("local", FILES);
  const { root } = box;
  const tools = createFsTools({
    fs: new LocalFileSystem({ roots: [`${root}/src`] }),
    tools: ["read"],
  });
  const session = {};
  const requests: Array<Array<Record<string, unknown>>> = [];
  const usage = new agents.Usage();
  const call = (callId: string, operation: Record<string, unknown>) => ({
    type: "apply_patch_call" as const,
    callId,
    status: "completed" as const,
    operation: operation as never,
  });
  const turns = [
    // Turn 1: patch before reading (refused), and a file outside the roots (refused).
    [
      call("p1", {
        type: "update_file",
        path: "b.ts",
        diff: "@@\n-checkName();\n+checkLabel();",
      }),
      call("p2", { type: "create_file", path: "../../outside.ts", diff: "+x" }),
    ],
    // Turn 2: read b.ts, then patch it and add a file.
    [{
      type: "function_call" as const,
      callId: "r1",
      name: "read",
      arguments: JSON.stringify({ file_path: "b.ts", offset: null, limit: null }),
      status: "completed" as const,
    }],
    [
      call("p3", {
        type: "update_file",
        path: "b.ts",
        diff: "@@\n-checkName();\n+checkLabel();",
      }),
      call("p4", { type: "create_file", path: "new.ts", diff: "+export const n = 1;\n" }),
      call("p5", {
        type: "update_file",
        path: "new.ts",
        moveTo: "lib/new.ts",
        diff: "@@\n-export const n = 1;\n+export const n = 2;",
      }),
      call("p6", { type: "delete_file", path: "b.ts" }),
    ],
    [{
      type: "message" as const,
      role: "assistant" as const,
      status: "completed" as const,
      content: [{ type: "output_text" as const, text: "done" }],
    }],
  ];
  const model: import("@openai/agents-core").Model = {
    getResponse(request) {
      requests.push(structuredClone(request.input) as Array<Record<string, unknown>>);
      return Promise.resolve({ usage, output: turns[requests.length - 1] as never });
    },
    getStreamedResponse() {
      throw new Error("not used");
    },
  };
  const agent = new agents.Agent({
    name: "coder",
    model,
    tools: [
      ...toOpenAIAgentsTools(tools, { session }),
      agents.applyPatchTool({ editor: toOpenAIAgentsEditor(tools, { session }) }),
    ],
  });
  const result = await new agents.Runner({ tracingDisabled: true }).run(agent, "rename");
  assert.equal(result.finalOutput, "done");
  const outputs = requests.at(-1)!.filter((item) => item.type === "apply_patch_call_output")
    .map((item) => [item.callId, item.status, item.output]);
  assert.deepEqual(outputs, [
    ["p1", "failed", 'Error: cannot patch "b.ts" (Update File): read it first'],
    ["p2", "failed", 'Error: cannot patch "../../outside.ts": outside the permitted roots'],
    ["p3", "completed", "Updated b.ts"],
    ["p4", "completed", "Added new.ts"],
    ["p5", "completed", "Updated new.ts and moved it to lib/new.ts"],
    ["p6", "completed", "Deleted b.ts"],
  ]);
  await assert.rejects(Deno.stat(`${root}/src/b.ts`));
  // create_file joins its lines as the SDK's applyDiff does: no final break without a final "+".
  assert.equal(await Deno.readTextFile(`${root}/src/lib/new.ts`), "export const n = 2;");
  await assert.rejects(Deno.stat(`${root}/outside.ts`));
});

Deno.test(
  "C16.4 LangChain: @langchain/openai applyPatch with toolfs's execute; a failure is status error (issue 34.5)",
  {
    ignore,
  },
  async () => {
    const { tools: openaiTools } = await import("@langchain/openai");
    const { AIMessage } = await import("@langchain/core/messages");
    const { toLangChainPatchExecute } = await import("../adapters/langchain.ts");
    await using box = await sandbox("local", FILES);
    const { root } = box;
    const tools = createFsTools({ fs: new LocalFileSystem({ roots: [`${root}/src`] }) });
    const session = {};
    const patchTool = openaiTools.applyPatch({
      execute: toLangChainPatchExecute(tools, { session }),
    });
    assert.equal(patchTool.name, "apply_patch");
    // A scripted model's turn: its tool calls, run as LangGraph's ToolNode runs them.
    const turn = new AIMessage({
      content: "",
      tool_calls: [
        {
          id: "c1",
          name: "apply_patch",
          args: { type: "update_file", path: "a.ts", diff: "@@\n-  return 1;\n+  return 2;" },
        },
        { id: "c2", name: "apply_patch", args: { type: "delete_file", path: "/etc/passwd" } },
      ],
    });
    const run = async () => {
      const out: unknown[] = [];
      for (const toolCall of turn.tool_calls!) {
        // Invoked with a tool call, a LangChain tool answers with a ToolMessage.
        const message = await patchTool.invoke({ ...toolCall, type: "tool_call" }) as unknown as {
          tool_call_id: string;
          status: string;
          content: string;
        };
        out.push([message.tool_call_id, message.status, message.content]);
      }
      return out;
    };
    assert.deepEqual(await run(), [
      ["c1", "error", 'Error: cannot patch "a.ts" (Update File): read it first'],
      ["c2", "error", 'Error: cannot patch "/etc/passwd": outside the permitted roots'],
    ]);
    await tools.execute("read", { file_path: "a.ts" }, { session });
    const [first] = await run() as [string, string, string][];
    assert.deepEqual(first, ["c1", "success", "Updated a.ts"]);
    assert.equal(
      await Deno.readTextFile(`${root}/src/a.ts`),
      "export function checkName() {\n  return 2;\n}\n",
    );
  },
);

Deno.test(
  "C16.5 the hosts' operations bind: an update_file cannot delete or create other files (issue 30.7)",
  {
    ignore,
  },
  async () => {
    const { toOpenAIAgentsEditor } = await import("../adapters/openai_agents.ts");
    const { toLangChainPatchExecute } = await import("../adapters/langchain.ts");
    const { tools: openaiTools } = await import("@langchain/openai");
    await using box = await sandbox("local", {
      "readme.txt": "hello\n",
      "precious.txt": "keep me\n",
    });
    const { root } = box;
    const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }), tools: ["read"] });
    const session = {};
    for (const f of ["readme.txt", "precious.txt"]) {
      await tools.execute("read", { file_path: f }, { session });
    }
    const injection = {
      type: "update_file" as const,
      path: "readme.txt",
      diff: "@@\n-hello\n+hi\n*** Delete File: precious.txt\n*** Add File: injected.sh\n+evil\n",
    };
    const refused =
      'Error: invalid patch at line 4: the diff of one operation holds only that operation\'s lines; send each operation on its own, got "*** Delete File: precious.txt"';
    const editor = toOpenAIAgentsEditor(tools, { session });
    assert.deepEqual(await editor.updateFile(injection), { status: "failed", output: refused });
    assert.deepEqual(await applyPatchOperation(tools, injection, { session }), {
      status: "failed",
      output: refused,
    });
    const patchTool = openaiTools.applyPatch({
      execute: toLangChainPatchExecute(tools, { session }),
    });
    const message = await patchTool.invoke({
      type: "tool_call",
      id: "c1",
      name: "apply_patch",
      args: injection,
    }) as unknown as { status: string; content: string };
    assert.deepEqual([message.status, message.content], ["error", refused]);
    assert.equal(await Deno.readTextFile(`${root}/readme.txt`), "hello\n");
    assert.equal(await Deno.readTextFile(`${root}/precious.txt`), "keep me\n");
    await assert.rejects(Deno.stat(`${root}/injected.sh`));
  },
);

Deno.test(
  "C16.5 create_file writes what the Agents SDK's applyDiff create mode gives (issue 31.5)",
  {
    ignore,
  },
  async () => {
    const { applyDiff } = await import("@openai/agents-core");
    const { toOpenAIAgentsEditor } = await import("../adapters/openai_agents.ts");
    await using box = await sandbox("local");
    const { root } = box;
    const editor = toOpenAIAgentsEditor(
      createFsTools({ fs: new LocalFileSystem({ roots: [root] }), tools: ["read"] }),
    );
    const diffs = ["+a\n+b", "+a\n+b\n", "+a\n+b\n+", "+a\n+b\n+\n", "+\n", "+x\r\n+\r\n", ""];
    for (const [i, diff] of diffs.entries()) {
      const outcome = await editor.createFile({ type: "create_file", path: `f${i}`, diff });
      assert.equal(outcome.status, "completed", outcome.output);
      assert.equal(await Deno.readTextFile(`${root}/f${i}`), applyDiff("", diff, "create"), diff);
    }
  },
);
