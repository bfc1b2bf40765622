// The playground API for prompt variants (POST /api/prompt-cost with texts, issue 25) and the
// bounds that keep one big read from stalling the server (issue 19, finding 12).

import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { systemPrompt } from "../mod.ts";
import { toAnthropicTools, toOpenAITools } from "../formats.ts";
import { toolDefinitions } from "../src/tools/tools.ts";
import { countTokens } from "../tokenizers/mod.ts";
import { CONFIG_BOUNDS, createApp } from "../playground/server/app.ts";
import type { ExecuteResponse, PromptCostResponse } from "../playground/server/api_types.ts";
import { countTokensBounded } from "../playground/server/bounded_tokens.ts";
import { createFixtureWorkspace } from "../playground/server/workspace.ts";

function post(app: ReturnType<typeof createApp>, path: string, body: unknown): Promise<Response> {
  return Promise.resolve(app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }));
}

const TEXTS = {
  read: {
    description: "Read a text file as numbered lines; large files come in windows of 2000 lines.",
    parameters: { offset: "First line to show, 1-based; the footer says where to go on." },
  },
};

Deno.test("POST /api/prompt-cost with texts gives the variant's exact wire texts, system prompt and tokens", async () => {
  const workspace = await createFixtureWorkspace({ bigLogBytes: 1024 });
  try {
    const app = createApp({ workspace, token: null });
    const plain = await (await post(app, "/api/prompt-cost", {})).json() as PromptCostResponse;
    const response = await post(app, "/api/prompt-cost", { texts: TEXTS, tokenizers: ["o200k"] });
    assertEquals(response.status, 200);
    const varied = await response.json() as PromptCostResponse;
    const definitions = toolDefinitions({ texts: TEXTS });
    assertEquals(varied.wire["openai-chat"], JSON.stringify(toOpenAITools(definitions)));
    assertEquals(varied.wire.anthropic, JSON.stringify(toAnthropicTools(definitions)));
    // The prompt an integrator sends: the variant's guidance, then the workspace section (C12.9).
    assert(
      varied.systemPrompt.startsWith(
        `${systemPrompt(definitions)}\n\nThe workspace is ${workspace.root};`,
      ),
      varied.systemPrompt,
    );
    assertEquals(Object.keys(varied.costs), ["o200k"]);
    // The same texts cost more than the library's shorter ones; the system prompt is unchanged.
    assert(varied.costs.o200k.wire.anthropic > plain.costs.o200k.wire.anthropic);
    assertEquals(varied.costs.o200k.systemPrompt, plain.costs.o200k.systemPrompt);
    // Without texts the answer is the GET one.
    const get = await (await app.request("/api/prompt-cost")).json() as PromptCostResponse;
    assertEquals(plain.wire, get.wire);
  } finally {
    await workspace.dispose();
  }
});

Deno.test("POST /api/prompt-cost refuses an unknown tool, argument or field with the library's message", async () => {
  const workspace = await createFixtureWorkspace({ bigLogBytes: 1024 });
  try {
    const app = createApp({ workspace, token: null });
    const cases: [unknown, string][] = [
      [
        { texts: { reed: { description: "x" } } },
        'texts: unknown tool "reed"; the tools are list, read, write, edit, glob, grep, move, delete, patch',
      ],
      [
        { texts: { read: { parameters: { ofset: "x" } } } },
        'texts.read.parameters: unknown argument "ofset" for read; its arguments are file_path, offset, limit',
      ],
      [{ text: {} }, 'unknown field "text": expected config, tokenizers, texts, tools'],
    ];
    for (const [body, error] of cases) {
      const response = await post(app, "/api/prompt-cost", body);
      assertEquals([response.status, await response.json()], [400, { error }]);
    }
  } finally {
    await workspace.dispose();
  }
});

Deno.test("playground: readStreamMinSize may not exceed the library default, so a big file is always streamed", async () => {
  assertEquals(CONFIG_BOUNDS.readStreamMinSize, 10 * 1024 * 1024);
  const workspace = await createFixtureWorkspace({ bigLogBytes: 1024 });
  try {
    const app = createApp({ workspace, token: null });
    const response = await post(app, "/api/execute", {
      tool: "read",
      args: { file_path: "generated/big.log" },
      config: { readStreamMinSize: 57 * 1024 * 1024 },
    });
    assertEquals(response.status, 400);
    assertEquals(
      (await response.json()).error,
      'config "readStreamMinSize" may be at most 10485760 in the playground: got 59768832',
    );
  } finally {
    await workspace.dispose();
  }
});

Deno.test("bounded token counts: exact below the bound, extrapolated and marked above it", async () => {
  const text = Array.from({ length: 400 }, (_, i) => `${i + 1}: line number ${i + 1} of a log`)
    .join("\n");
  const exact = await countTokens(text, ["o200k"]);
  const whole = await countTokensBounded(text, ["o200k"], { chunkChars: 1024 });
  assertEquals(whole.estimated, false);
  // Chunks end at line breaks, so the sum is the whole count (o200k splits at line breaks).
  assertEquals(whole.tokens.o200k, exact.o200k);
  const part = await countTokensBounded(text, ["o200k"], { maxChars: 2048, chunkChars: 1024 });
  assertEquals(part.estimated, true);
  assert(Math.abs(part.tokens.o200k - exact.o200k!) / exact.o200k! < 0.1, JSON.stringify(part));
});

Deno.test("bounded token counts yield between chunks, so timers and other requests run while a big result is counted", async () => {
  const text = "0123456789 abcdefghij klmnopqrst\n".repeat(20_000); // 660 Ki characters
  let finished = false;
  const counting = countTokensBounded(text, ["o200k"]).then((counts) => {
    finished = true;
    return counts;
  });
  let ticks = 0;
  while (!finished) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (!finished) ticks++;
  }
  // Counted in one go, a timer set now would only fire after the count (0 ticks).
  assert(ticks >= 5, `timers ran ${ticks} times during the count`);
  assertEquals((await counting).estimated, false);
});

Deno.test("a read of the 20 MiB log at the playground's bounds is streamed, counted with a bound and lets another request through", async () => {
  const workspace = await createFixtureWorkspace();
  try {
    const app = createApp({ workspace, token: null });
    const order: string[] = [];
    const big = post(app, "/api/execute", {
      tool: "read",
      args: { file_path: "generated/big.log", limit: 100_000 },
      config: { readLimit: 100_000, readMaxBytes: 10 * 1024 * 1024 },
      tokenizers: ["o200k"],
    }).then(async (r) => {
      order.push("read");
      return await r.json() as ExecuteResponse;
    });
    // Let the read start, then ask for something small.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const small = Promise.resolve(app.request("/api/sessions/default")).then((r) => {
      order.push("session");
      return r.status;
    });
    const [read, status] = await Promise.all([big, small]);
    assertEquals(status, 200);
    assertEquals(order, ["session", "read"]);
    assertEquals(read.isError, false);
    assertEquals(read.tokensEstimated, true);
    assert(read.bytes > 1024 * 1024, String(read.bytes));
  } finally {
    await workspace.dispose();
  }
});
