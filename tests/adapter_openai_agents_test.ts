// The OpenAI Agents SDK adapter against the real @openai/agents-core (the SDK @openai/agents
// re-exports): each tool's invoke path, as the
// SDK's runner calls it with the model's JSON arguments, and a whole run driven by a scripted
// model (an object implementing the SDK's Model interface; no network).

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { createFsTools, LocalFileSystem } from "../mod.ts";
import { toOpenAIResponsesTools } from "../formats.ts";
import { sandbox } from "./_sandbox.ts";

// @openai/agents-core reads its environment (OPENAI_* variables, DEBUG) as it loads.
const ignore = Deno.permissions.querySync({ name: "env" }).state !== "granted";
if (ignore) {
  console.warn(
    "adapter_openai_agents_test.ts: skipped, @openai/agents-core needs --allow-env (deno test -A)",
  );
}
const agents = ignore
  ? {} as typeof import("@openai/agents-core")
  : await import("@openai/agents-core");
const { toOpenAIAgentsTools } = ignore
  ? {} as typeof import("../adapters/openai_agents.ts")
  : await import("../adapters/openai_agents.ts");

Deno.test(
  "openai-agents: strict schemas, the same as toOpenAIResponsesTools(strict)",
  { ignore },
  async () => {
    await using box = await sandbox("local");
    const { root } = box;
    const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
    // The SDK's own type for function tools, what an Agent takes.
    const converted: import("@openai/agents-core").FunctionTool[] = toOpenAIAgentsTools(tools);
    assertEquals(
      converted.map((t) => [t.type, t.name, t.description, t.strict, t.parameters]),
      toOpenAIResponsesTools(tools.definitions, { strict: true }).map((t) => [
        t.type,
        t.name,
        t.description,
        t.strict,
        t.parameters,
      ]),
    );
    return Promise.resolve();
  },
);

Deno.test(
  "openai-agents: the output is exactly toolfs's text, errors included (C7.1)",
  { ignore },
  async () => {
    await using box = await sandbox("local", { "a.txt": "hello\nworld\n" });
    const { root } = box;
    const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
    const reference = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
    const [list, read, , edit] = toOpenAIAgentsTools(tools, { session: {} });
    const context = new agents.RunContext();
    const cases: [typeof read, Record<string, unknown>][] = [
      // Before any read in this session: refused.
      [edit, { file_path: "a.txt", old_string: "hello", new_string: "x", replace_all: null }],
      [list, { path: null }],
      // Strict mode sends null for omitted optionals (C1.4).
      [read, { file_path: "a.txt", offset: null, limit: 1 }],
      [read, { file_path: "missing.txt", offset: null, limit: null }],
      [read, { file_path: "a.txt", offset: 0, limit: null }],
      [list, { path: "/" }],
    ];
    for (const [tool, args] of cases) {
      const expected = await reference.execute(tool.name, args, { session: {} });
      const output = await tool.invoke(context, JSON.stringify(args));
      assertEquals(output, expected.content, `${tool.name} ${JSON.stringify(args)}`);
    }
    assertEquals(await Deno.readTextFile(`${root}/a.txt`), "hello\nworld\n");
  },
);

Deno.test(
  "openai-agents: the session option scopes read-before-write (C5.2); signal passes (C7.2)",
  { ignore },
  async () => {
    await using box = await sandbox("local", { "a.txt": "hello\n" });
    const { root } = box;
    const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
    const [, read, , edit] = toOpenAIAgentsTools(tools, { session: {} });
    const context = new agents.RunContext();
    await read.invoke(context, JSON.stringify({ file_path: "a.txt", offset: null, limit: null }));
    const args = {
      file_path: "a.txt",
      old_string: "hello",
      new_string: "bye",
      replace_all: null,
    };
    assertEquals(
      await edit.invoke(context, JSON.stringify(args)),
      "The file a.txt has been updated successfully.",
    );
    const [, , , other] = toOpenAIAgentsTools(tools, { session: {} });
    assertEquals(
      await other.invoke(
        context,
        JSON.stringify({ ...args, old_string: "bye", new_string: "x" }),
      ),
      'Error: cannot edit "a.txt": read it first',
    );
    let seen: AbortSignal | undefined;
    const [, spied] = toOpenAIAgentsTools({
      ...tools,
      execute(name, a, ctx) {
        seen = ctx?.signal;
        return tools.execute(name, a, ctx);
      },
    });
    const controller = new AbortController();
    await spied.invoke(
      context,
      JSON.stringify({ file_path: "a.txt", offset: null, limit: null }),
      {
        signal: controller.signal,
      },
    );
    assert(seen === controller.signal);
  },
);

Deno.test("openai-agents: in a Runner run the model's next turn gets exactly toolfs's text", {
  ignore,
}, async () => {
  await using box = await sandbox("local", { "a.txt": "hello\n" });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const expected = await tools.execute("read", { file_path: "a.txt" }, { session: {} });
  const requests: unknown[] = [];
  const model = scriptedModel(requests, [
    { file_path: "a.txt", offset: null, limit: null },
    { file_path: "nope.txt", offset: null, limit: null },
  ]);
  const agent = new agents.Agent({
    name: "reader",
    model,
    tools: toOpenAIAgentsTools(tools, { session: {} }),
  });
  const runner = new agents.Runner({ tracingDisabled: true });
  const result = await runner.run(agent, "read a.txt");
  assertEquals(result.finalOutput, "done");
  const second = requests[1] as Array<Record<string, unknown>>;
  const outputs = second.filter((item) => item.type === "function_call_result").map((item) => [
    item.callId,
    item.output,
  ]);
  assertEquals(outputs, [
    ["call_1", { type: "text", text: expected.content }],
    ["call_2", { type: "text", text: 'Error: cannot read "nope.txt": not found' }],
  ]);
});

Deno.test(
  "openai-agents: an image read reaches the model's next turn as text, then the image (C17.3)",
  {
    ignore,
  },
  async () => {
    const png = await Deno.readFile(new URL("./fixtures/media/red.png", import.meta.url));
    await using box = await sandbox("local", { "red.png": png });
    const { root } = box;
    const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
    const expected = await tools.execute("read", { file_path: "red.png" });
    const requests: unknown[] = [];
    const model = scriptedModel(requests, [{ file_path: "red.png", offset: null, limit: null }]);
    const agent = new agents.Agent({ name: "viewer", model, tools: toOpenAIAgentsTools(tools) });
    const result = await new agents.Runner({ tracingDisabled: true }).run(agent, "look");
    assertEquals(result.finalOutput, "done");
    const second = requests[1] as Array<Record<string, unknown>>;
    const outputs = second.filter((item) => item.type === "function_call_result").map((item) =>
      item.output
    );
    assertEquals(outputs, [[
      { type: "input_text", text: expected.content },
      { type: "input_image", image: `data:image/png;base64,${expected.attachments![0].data}` },
    ]]);
  },
);

/**
 * A model (the SDK's Model interface; no network) that asks for one `read` call per entry of
 * `reads` (call ids `call_1`, `call_2`, …) in its first turn and answers "done" in the next,
 * keeping each turn's input in `requests`.
 */
function scriptedModel(
  requests: unknown[],
  reads: Record<string, unknown>[],
): import("@openai/agents-core").Model {
  const usage = new agents.Usage();
  return {
    getResponse(request) {
      requests.push(structuredClone(request.input));
      const output = requests.length === 1
        ? reads.map((args, i) => ({
          type: "function_call" as const,
          callId: `call_${i + 1}`,
          name: "read",
          arguments: JSON.stringify(args),
          status: "completed" as const,
        }))
        : [{
          type: "message" as const,
          role: "assistant" as const,
          status: "completed" as const,
          content: [{ type: "output_text" as const, text: "done" }],
        }];
      return Promise.resolve({ usage, output });
    },
    getStreamedResponse() {
      throw new Error("not used");
    },
  };
}
