/**
 * `deno task tokens`: the fixed prompt cost of the tools, counted with real tokenizers (the ones
 * the playground uses). What is counted is defined once, in `playground/server/prompt_cost.ts`; the
 * tokenizers come from `tokenizers/mod.ts`.
 *
 * ```sh
 * deno task tokens                      # DeepSeek V3 and o200k
 * deno task tokens llama3 qwen3 gemma3  # any of: deepseek_v3 o200k llama3 qwen3 gemma3
 * ```
 *
 * The budget is 900 DeepSeek V3 tokens for what a request carries for the six default tools:
 * the tools in the Anthropic wire format plus `systemPrompt(definitions, { roots })` with one
 * root (issue 21). The last line prints that figure; the line before it, the same cost of all nine
 * tools (a host that turns on move, delete and patch pays it).
 *
 * @module
 */

import type { FsToolDefinition } from "../mod.ts";
import { toolDefinitions } from "../src/tools/tools.ts";
import { TOOL_NAMES } from "../src/present/specs/mod.ts";
import {
  type PromptCost,
  promptCost,
  promptTexts,
  WIRE_FORMATS,
} from "../playground/server/prompt_cost.ts";
import {
  DEFAULT_TOKENIZERS,
  isTokenizerName,
  loadTokenizer,
  type TokenizerName,
  TOKENIZERS,
} from "../tokenizers/mod.ts";

/**
 * The budget for the six default tools in the Anthropic wire format plus the system prompt with
 * one root, in DeepSeek V3 tokens.
 */
export const TOKEN_BUDGET = 900;

/**
 * Counts the fixed prompt cost of tool definitions with each named tokenizer.
 *
 * @param definitions The definitions, e.g. `tools.definitions`.
 * @param tokenizers The tokenizers.
 * @returns The cost per tokenizer.
 */
export async function measureDefinitions(
  definitions: readonly FsToolDefinition[],
  tokenizers: readonly TokenizerName[] = DEFAULT_TOKENIZERS,
): Promise<Record<TokenizerName, PromptCost>> {
  const texts = promptTexts(definitions);
  const costs: Partial<Record<TokenizerName, PromptCost>> = {};
  for (const name of tokenizers) costs[name] = promptCost(texts, await loadTokenizer(name));
  return costs as Record<TokenizerName, PromptCost>;
}

/**
 * The definitions of the default config.
 *
 * @returns The definitions.
 */
export function defaultDefinitions(): readonly FsToolDefinition[] {
  return toolDefinitions();
}

/**
 * The definitions of all nine tools (the six defaults and the opt-in move, delete and patch).
 *
 * @returns The definitions.
 */
export function allDefinitions(): readonly FsToolDefinition[] {
  return toolDefinitions({ tools: [...TOOL_NAMES] });
}

function table(
  costs: Record<TokenizerName, PromptCost>,
  tokenizers: readonly TokenizerName[],
): string {
  const cell = (pick: (c: PromptCost) => number): string =>
    tokenizers.map((t) => pick(costs[t])).join(" / ");
  const first = costs[tokenizers[0]];
  const rows = [
    ["tool", "name", "description", "schema", "guidance", "total"],
    ...first.tools.map((tool, i) => [
      tool.tool,
      cell((c) => c.tools[i].name),
      cell((c) => c.tools[i].description),
      cell((c) => c.tools[i].schema),
      cell((c) => c.tools[i].guidance),
      cell((c) => c.tools[i].total),
    ]),
    [`all ${first.tools.length}`, "", "", "", "", cell((c) => c.total)],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ").trimEnd()
  ).join("\n");
}

if (import.meta.main) {
  const unknown = Deno.args.filter((a) => !isTokenizerName(a));
  if (unknown.length) {
    console.error(`unknown tokenizer "${unknown[0]}": expected any of ${TOKENIZERS.join(", ")}`);
    Deno.exit(2);
  }
  const chosen = Deno.args.length ? Deno.args as TokenizerName[] : [...DEFAULT_TOKENIZERS];
  const tokenizers = chosen.includes("deepseek_v3") ? chosen : ["deepseek_v3" as const, ...chosen];
  const costs = await measureDefinitions(defaultDefinitions(), tokenizers);
  console.log(`Tokens (${tokenizers.join(" / ")}) of each tool's model-facing parts:\n`);
  console.log(table(costs, tokenizers));
  const prompt = tokenizers.map((t) => costs[t].systemPrompt).join(" / ");
  console.log(`\nsystemPrompt(definitions), assembled: ${prompt}`);
  const rooted = tokenizers.map((t) => costs[t].workspacePrompt).join(" / ");
  console.log(`systemPrompt(definitions, { roots }) with one root: ${rooted}`);
  console.log("\nThe tools as one compact JSON array (no guidance):");
  for (const format of WIRE_FORMATS) {
    console.log(
      `  ${format.padEnd(25)} ${tokenizers.map((t) => costs[t].wire[format]).join(" / ")}`,
    );
  }
  // What a host turning on every tool pays, beside the budget of the default six (issue 32).
  const all = await measureDefinitions(allDefinitions(), tokenizers);
  console.log(
    `\nall ${TOOL_NAMES.length} tools (anthropic tools + systemPrompt with one root): ${
      tokenizers.map((t) => all[t].budget).join(" / ")
    } (${TOOL_NAMES.join(", ")})`,
  );
  const { budget: ds, wire, workspacePrompt } = costs.deepseek_v3;
  console.log(
    `\nbudget: ${ds} of ${TOKEN_BUDGET} DeepSeek V3 tokens (anthropic tools ${wire.anthropic} + systemPrompt with one root ${workspacePrompt}) ${
      ds <= TOKEN_BUDGET ? "(ok)" : "(OVER)"
    }`,
  );
  if (ds > TOKEN_BUDGET) Deno.exitCode = 1;
}
