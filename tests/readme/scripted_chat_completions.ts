// A README harness (tests/readme_test.ts, fence `ts scripted=chat_completions`): `fetch` to
// api.example.com answers as a Chat Completions endpoint would, scripted: the first turn asks
// for `read README.md`, the second answers. The process exits non-zero unless both turns ran
// and the tool result reached the second request.

const realFetch = globalThis.fetch;
let turns = 0;
let sawToolResult = false;

globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith("https://api.example.com/")) return realFetch(input, init);
  const body = JSON.parse(String(init?.body));
  turns++;
  if (turns === 1) {
    const call = {
      id: "call_1",
      type: "function",
      function: { name: "read", arguments: '{"file_path":"README.md"}' },
    };
    return Promise.resolve(
      Response.json({
        choices: [{ message: { role: "assistant", content: null, tool_calls: [call] } }],
      }),
    );
  }
  sawToolResult = body.messages.some((m: { role: string; content: string }) =>
    m.role === "tool" && m.content.includes("1: Teh quick fox")
  );
  return Promise.resolve(
    Response.json({ choices: [{ message: { role: "assistant", content: "Fixed." } }] }),
  );
};

globalThis.addEventListener("unload", () => {
  if (turns !== 2 || !sawToolResult) {
    console.error(`scripted chat: ${turns} turns, tool result seen: ${sawToolResult}`);
    Deno.exitCode = 3;
  }
});
