// The fixed prompt cost of all six tools stays within the budget (issue 12: ≤ 750 DeepSeek V3
// tokens), counted by the same function `deno task tokens` uses.

import { ok } from "node:assert/strict";
import { defaultDefinitions, measureDefinitions, TOKEN_BUDGET } from "../scripts/tokens.ts";

Deno.test("C9.1: the six tools' definitions and guidance cost at most 750 DeepSeek V3 tokens", async () => {
  const definitions = defaultDefinitions();
  ok(definitions.length === 6, `expected six definitions, got ${definitions.length}`);
  ok(TOKEN_BUDGET <= 750);
  const cost = (await measureDefinitions(definitions, ["deepseek_v3"])).deepseek_v3.total;
  ok(cost <= 750, `${cost} DeepSeek V3 tokens, over 750`);
});
