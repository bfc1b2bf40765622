// A README harness (tests/readme_test.ts, fence `ts scripted=ai_sdk`): the AI SDK's global
// provider answers any model id with a scripted model that calls `read README.md`, then
// answers. The process exits non-zero unless the model got toolfs's text back.

import { MockLanguageModelV4 } from "ai/test";

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const model = new MockLanguageModelV4(
  {
    doGenerate: [
      {
        content: [{
          type: "tool-call",
          toolCallId: "call_1",
          toolName: "read",
          input: '{"file_path":"README.md"}',
        }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: USAGE,
        warnings: [],
      },
      {
        content: [{ type: "text", text: "Fixed." }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: USAGE,
        warnings: [],
      },
    ],
  } as ConstructorParameters<typeof MockLanguageModelV4>[0],
);

(globalThis as Record<string, unknown>).AI_SDK_DEFAULT_PROVIDER = {
  specificationVersion: "v4",
  languageModel: () => model,
};

globalThis.addEventListener("unload", () => {
  const second = model.doGenerateCalls[1]?.prompt ?? [];
  const got = JSON.stringify(second).includes("1: Teh quick fox");
  if (!got) {
    console.error(`scripted ai-sdk: ${model.doGenerateCalls.length} steps, tool text seen: ${got}`);
    Deno.exitCode = 3;
  }
});
