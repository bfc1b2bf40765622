// The AI SDK adapter against the real `ai` package: generateText drives the tools through a
// scripted model (the SDK's own MockLanguageModelV4, no network), and the test reads what the
// SDK put in the prompt of the model's next step.

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Tool, ToolExecutionOptions, ToolSet } from "ai";
import type { MockLanguageModelV4 } from "ai/test";
import { createFsTools, type FsToolResult, LocalFileSystem } from "../mod.ts";
import { sandbox } from "./_sandbox.ts";

// The `ai` package reads the host name as it loads (Deno: --allow-sys=hostname).
const ignore = Deno.permissions.querySync({ name: "sys", kind: "hostname" }).state !== "granted";
if (ignore) {
  console.warn("adapter_ai_sdk_test.ts: skipped, `ai` needs --allow-sys=hostname (deno test -A)");
}
const { generateText, stepCountIs } = ignore ? {} as typeof import("ai") : await import("ai");
const { MockLanguageModelV4: Model } = ignore
  ? {} as typeof import("ai/test")
  : await import("ai/test");
const { AiSdkToolError, toAiSdkTools } = ignore
  ? {} as typeof import("../adapters/ai_sdk.ts")
  : await import("../adapters/ai_sdk.ts");

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that makes the given tool calls in its first step and then answers "done". */
function scripted(calls: [string, unknown][]): MockLanguageModelV4 {
  return new Model(
    {
      doGenerate: [
        {
          content: calls.map(([toolName, input], i) => ({
            type: "tool-call" as const,
            toolCallId: `call_${i}`,
            toolName,
            input: JSON.stringify(input),
          })),
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: USAGE,
          warnings: [],
        },
        {
          content: [{ type: "text", text: "done" }],
          finishReason: { unified: "stop", raw: "stop" },
          usage: USAGE,
          warnings: [],
        },
      ],
    } as ConstructorParameters<typeof MockLanguageModelV4>[0],
  );
}

/** The tool-result outputs the SDK sent the model in its second step, by call id. */
function toolOutputs(model: MockLanguageModelV4): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  for (const message of model.doGenerateCalls[1].prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result") outputs[part.toolCallId] = part.output;
    }
  }
  return outputs;
}

Deno.test(
  "ai-sdk: the model gets exactly toolfs's text, errors as error-text and tool-error parts (C7.1, issue 34.5)",
  { ignore },
  async () => {
    await using box = await sandbox("local", { "a.txt": "hello\nworld\n" });
    const { root } = box;
    const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
    const reference = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
    const calls: [string, unknown][] = [
      ["read", { file_path: "a.txt", limit: 1 }],
      ["read", { file_path: "a.txt", limit: "x" }],
      ["list", { path: "missing" }],
    ];
    const model = scripted(calls);
    const result = await generateText({
      model,
      tools: toAiSdkTools(tools, { session: {} }),
      stopWhen: stepCountIs(3),
      prompt: "read a.txt",
    });
    assertEquals(result.text, "done");
    const expected = await Promise.all(
      calls.map(([name, args]) => reference.execute(name, args)),
    );
    assertEquals(toolOutputs(model), {
      call_0: { type: "text", value: expected[0].content },
      // The SDK did not pre-empt toolfs's own argument check.
      call_1: { type: "error-text", value: "Error: limit must be a positive integer" },
      call_2: { type: "error-text", value: expected[2].content },
    });
    // The host sees each failure as the SDK's tool-error (issue 34.5), carrying the whole
    // result; the success stays a tool-result with its value.
    const parts = result.steps[0].content.flatMap((part) =>
      part.type === "tool-result"
        ? [[part.type, part.toolCallId, (part.output as FsToolResult).isError]]
        : part.type === "tool-error"
        ? [[part.type, part.toolCallId, (part.error as InstanceType<typeof AiSdkToolError>).code]]
        : []
    );
    assertEquals(parts, [
      ["tool-result", "call_0", false],
      ["tool-error", "call_1", "FS_INVALID_ARGUMENT"],
      ["tool-error", "call_2", "FS_NOT_FOUND"],
    ]);
    const error = result.steps[0].content.find((part) => part.type === "tool-error")!;
    assertEquals(
      error.type === "tool-error" && error.error instanceof AiSdkToolError &&
        [String(error.error), error.error.result.error],
      ["Error: limit must be a positive integer", { name: "FsError", code: "FS_INVALID_ARGUMENT" }],
    );
  },
);

Deno.test("ai-sdk: after an edit the model sees the one-line success, not the file twice", {
  ignore,
}, async () => {
  await using box = await sandbox("local", { "a.txt": "hello\n" });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const session = {};
  await tools.execute("read", { file_path: "a.txt" }, { session });
  const model = scripted([["edit", {
    file_path: "a.txt",
    old_string: "hello",
    new_string: "bye",
  }]]);
  await generateText({
    model,
    tools: toAiSdkTools(tools, { session }),
    stopWhen: stepCountIs(3),
    prompt: "edit",
  });
  assertEquals(toolOutputs(model), {
    call_0: { type: "text", value: "The file a.txt has been updated successfully." },
  });
  assertEquals(await Deno.readTextFile(`${root}/a.txt`), "bye\n");
});

Deno.test("ai-sdk: the session option scopes read-before-write (C5.2) and the schemas are ours", {
  ignore,
}, async () => {
  await using box = await sandbox("local", { "a.txt": "hello\n" });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const model = scripted([["edit", {
    file_path: "a.txt",
    old_string: "hello",
    new_string: "x",
  }]]);
  await tools.execute("read", { file_path: "a.txt" }, { session: {} }); // another session
  await generateText({
    model,
    tools: toAiSdkTools(tools, { session: {} }),
    stopWhen: stepCountIs(3),
    prompt: "edit",
  });
  assertEquals(toolOutputs(model), {
    call_0: { type: "error-text", value: 'Error: cannot edit "a.txt": read it first' },
  });
  const sent = model.doGenerateCalls[0].tools?.map((t) =>
    t.type === "function" ? [t.name, t.inputSchema] : [t.type]
  );
  assertEquals(sent, tools.definitions.map((d) => [d.name, d.inputSchema]));
});

Deno.test("ai-sdk: the call's abortSignal reaches the tool (C7.2)", { ignore }, async () => {
  await using box = await sandbox("local", { "a.txt": "hello\n" });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const set = toAiSdkTools(tools);
  const controller = new AbortController();
  controller.abort();
  // The options as the SDK passes them (its own type), and the tools as its own types.
  const sdkOptions: ToolExecutionOptions<Record<string, never>> = {
    toolCallId: "c",
    messages: [],
    abortSignal: controller.signal,
    context: {},
  };
  const asSdk: { set: ToolSet; read: Tool } = { set, read: set.read };
  const failure = await set.read.execute({ file_path: "a.txt" }, sdkOptions).catch((e) => e);
  assertEquals(asSdk.read.description, tools.definitions[1].description);
  assertEquals(String(failure), 'Error: cannot read "a.txt": aborted');
  assertEquals(failure.code, "FS_ABORTED");
});

Deno.test("ai-sdk: an image read reaches the model as content: the text, then the image (C17.3)", {
  ignore,
}, async () => {
  const png = await Deno.readFile(new URL("./fixtures/media/red.png", import.meta.url));
  await using box = await sandbox("local", { "red.png": png });
  const { root } = box;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
  const expected = await tools.execute("read", { file_path: "red.png" });
  const model = scripted([["read", { file_path: "red.png" }]]);
  await generateText({
    model,
    tools: toAiSdkTools(tools, { session: {} }),
    stopWhen: stepCountIs(3),
    prompt: "look",
  });
  // The SDK adds undefined `filename` and `providerOptions`; JSON drops them.
  assertEquals(JSON.parse(JSON.stringify(toolOutputs(model))), {
    call_0: {
      type: "content",
      value: [
        { type: "text", text: expected.content },
        {
          type: "file",
          data: { type: "data", data: expected.attachments![0].data },
          mediaType: "image/png",
        },
      ],
    },
  });
});
