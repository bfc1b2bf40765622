/**
 * `deno task tokens`: the fixed prompt cost of the four tools, counted with the real DeepSeek V3
 * and o200k tokenizers (the ones the playground uses).
 *
 * A tool's cost is its name, description, input schema (as compact JSON) and guidance, each
 * tokenized on its own and summed. The budget is 500 DeepSeek V3 tokens for all four.
 *
 * @module
 */

import { createFsTools, type FsToolDefinition, LocalFileSystem, systemPrompt } from "../mod.ts";
import { toAnthropicTools, toMcpTools, toOpenAITools } from "../formats.ts";
import { countTokens, type TokenCounts, TOKENIZERS } from "../playground/server/tokens.ts";

/** The budget for the four tools' name, description, schema and guidance, in DeepSeek V3 tokens. */
export const TOKEN_BUDGET = 500;

/** The token counts of one tool's model-facing parts. */
export interface ToolCost {
  /** The tool name. */
  name: string;
  /** The name. */
  nameTokens: TokenCounts;
  /** The description. */
  description: TokenCounts;
  /** The input schema as `JSON.stringify` writes it. */
  schema: TokenCounts;
  /** The guidance section. */
  guidance: TokenCounts;
  /** The sum of the four. */
  total: TokenCounts;
}

/** The cost of a set of definitions. */
export interface DefinitionsCost {
  /** Per tool, in definition order. */
  tools: ToolCost[];
  /** The sum over the tools. */
  total: TokenCounts;
  /** The assembled system prompt (`systemPrompt(definitions)`), counted as one text. */
  systemPrompt: TokenCounts;
}

/**
 * Counts the fixed prompt cost of tool definitions.
 *
 * @param definitions The definitions, e.g. `tools.definitions`.
 * @returns Per-tool and total counts, and the assembled system prompt's.
 */
export function measureDefinitions(definitions: readonly FsToolDefinition[]): DefinitionsCost {
  const tools = definitions.map((d): ToolCost => {
    const parts = {
      nameTokens: countTokens(d.name),
      description: countTokens(d.description),
      schema: countTokens(JSON.stringify(d.inputSchema)),
      guidance: countTokens(d.guidance),
    };
    return { name: d.name, ...parts, total: sum(Object.values(parts)) };
  });
  return {
    tools,
    total: sum(tools.map((t) => t.total)),
    systemPrompt: countTokens(systemPrompt(definitions)),
  };
}

/**
 * The definitions of the default config (`readLimit` 2000), over a read-only root at the
 * current directory (nothing is read).
 *
 * @returns The four definitions.
 */
export function defaultDefinitions(): readonly FsToolDefinition[] {
  const fs = new LocalFileSystem({ roots: [{ path: ".", write: false }] });
  return createFsTools({ fs }).definitions;
}

function sum(counts: TokenCounts[]): TokenCounts {
  const total = Object.fromEntries(TOKENIZERS.map((t) => [t, 0])) as TokenCounts;
  for (const c of counts) for (const t of TOKENIZERS) total[t] += c[t];
  return total;
}

function table(cost: DefinitionsCost): string {
  const cell = (c: TokenCounts): string => TOKENIZERS.map((t) => c[t]).join(" / ");
  const rows = [
    ["tool", "name", "description", "schema", "guidance", "total"],
    ...cost.tools.map((t) => [
      t.name,
      cell(t.nameTokens),
      cell(t.description),
      cell(t.schema),
      cell(t.guidance),
      cell(t.total),
    ]),
    ["all four", "", "", "", "", cell(cost.total)],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ").trimEnd()
  ).join("\n");
}

if (import.meta.main) {
  const definitions = defaultDefinitions();
  const cost = measureDefinitions(definitions);
  const ds = cost.total.deepseek_v3;
  console.log(`Tokens (${TOKENIZERS.join(" / ")}) of each tool's model-facing parts:\n`);
  console.log(table(cost));
  const prompt = TOKENIZERS.map((t) => cost.systemPrompt[t]).join(" / ");
  console.log(`\nsystemPrompt(definitions), assembled: ${prompt}`);
  const serialized = {
    "toOpenAITools": toOpenAITools(definitions),
    "toOpenAITools strict": toOpenAITools(definitions, { strict: true }),
    "toAnthropicTools": toAnthropicTools(definitions),
    "toMcpTools (with annotations)": toMcpTools(definitions),
  };
  console.log("\nThe four tools as one compact JSON array (no guidance):");
  for (const [label, tools] of Object.entries(serialized)) {
    const c = countTokens(JSON.stringify(tools));
    console.log(`  ${label.padEnd(30)} ${TOKENIZERS.map((t) => c[t]).join(" / ")}`);
  }
  console.log(
    `\nbudget: ${ds} of ${TOKEN_BUDGET} DeepSeek V3 tokens ${
      ds <= TOKEN_BUDGET ? "(ok)" : "(OVER)"
    }`,
  );
  if (ds > TOKEN_BUDGET) Deno.exitCode = 1;
}
