// The fixed prompt cost of the six default tools stays within the budget (issue 21: the tools in
// the Anthropic wire format plus systemPrompt with one root ≤ 900 DeepSeek V3 tokens), counted by
// the same function `deno task tokens` uses, which prints exactly that figure.

import { equal, ok } from "node:assert/strict";
import {
  allDefinitions,
  defaultDefinitions,
  measureDefinitions,
  TOKEN_BUDGET,
} from "../scripts/tokens.ts";
import { sandbox } from "./_sandbox.ts";
import { quotedGuidance, toolSection } from "./_docs.ts";

Deno.test("C9.1, C12.9: the six tools in the Anthropic format plus systemPrompt with one root cost at most 900 DeepSeek V3 tokens, the figure deno task tokens prints", async () => {
  const definitions = defaultDefinitions();
  equal(definitions.length, 6);
  equal(TOKEN_BUDGET, 900);
  const cost = (await measureDefinitions(definitions, ["deepseek_v3"])).deepseek_v3;
  equal(cost.budget, cost.wire.anthropic + cost.workspacePrompt);
  ok(cost.budget <= 900, `${cost.budget} DeepSeek V3 tokens, over 900`);
  const script = new URL("../scripts/tokens.ts", import.meta.url);
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-read", script.pathname, "deepseek_v3"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(run.stdout).trimEnd().split("\n");
  const printed = out.at(-1) ?? "";
  // Issue 32 item 7: the cost of all nine tools is printed too, just above the budget.
  const nine = (await measureDefinitions(allDefinitions(), ["deepseek_v3"])).deepseek_v3;
  equal(allDefinitions().length, 9);
  ok(nine.budget > cost.budget);
  ok(
    out.includes(
      `all 9 tools (anthropic tools + systemPrompt with one root): ${nine.budget} (list, read, write, edit, glob, grep, move, delete, patch)`,
    ),
    out.join("\n"),
  );
  ok(
    printed.startsWith(`budget: ${cost.budget} of 900 DeepSeek V3 tokens (anthropic tools `),
    printed,
  );
});

// Moved from tests/contract/c1_definitions_test.ts (issue 33 items 5 and 6): loading the DeepSeek
// V3 vocabulary took 2-8 s of the core suite, which this file's task runs anyway.
Deno.test(`the six tools' name, description, schema and guidance fit ${TOKEN_BUDGET} DeepSeek V3 tokens`, async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  const cost = (await measureDefinitions(tools.definitions, ["deepseek_v3"])).deepseek_v3;
  ok(
    cost.total <= TOKEN_BUDGET,
    `${cost.total} DeepSeek V3 tokens, over the budget of ${TOKEN_BUDGET}`,
  );
  ok(cost.total > 100, "the tokenizer counted implausibly few tokens");
});

// Issue 34.10: the figures README's "Model experience" gives are the ones the tools cost now.
Deno.test("issue 34.10: README's Model experience gives each default tool's guidance and fixed cost, and the budget, as counted now", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const costs = await measureDefinitions(defaultDefinitions(), ["deepseek_v3", "o200k"]);
  const ds = costs.deepseek_v3;
  const o200k = costs.o200k;
  const stale: string[] = [];
  for (const [i, tool] of ds.tools.entries()) {
    const section = toolSection(readme, tool.tool);
    const { tokens } = quotedGuidance(section);
    if (tokens !== tool.guidance) {
      stale.push(`${tool.tool}: guidance ${tokens}, now ${tool.guidance}`);
    }
    const fixed = /Fixed cost (\d+)(?: DeepSeek V3)? \/ (\d+)/.exec(section);
    const now = `${tool.total} / ${o200k.tools[i].total}`;
    if (!fixed || `${fixed[1]} / ${fixed[2]}` !== now) {
      stale.push(`${tool.tool}: fixed cost ${fixed?.slice(1).join(" / ")}, now ${now}`);
    }
  }
  const flat = readme.replace(/\s+/g, " ");
  const budget =
    `**${ds.budget} DeepSeek V3 tokens** (${ds.wire.anthropic} + ${ds.workspacePrompt})`;
  if (!flat.includes(budget)) {
    const said = /\*\*\d+ DeepSeek V3 tokens\*\* \(\d+ \+ \d+\)/.exec(flat)?.[0];
    stale.push(`budget: README says ${said}, now ${budget}`);
  }
  equal(stale.join("\n"), "");
});
