/**
 * The fixed prompt cost of the tools: each tool's name, description, schema and guidance in
 * tokens, counted as `deno task tokens` counts them (`playground/server/prompt_cost.ts`).
 *
 * @module
 */

import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import {
  getPromptCost,
  type PromptCost as Cost,
  type PromptCostResponse,
  type ToolsConfig,
} from "./api.ts";

/** Props of {@linkcode PromptCost}. */
export interface PromptCostProps {
  /** The config overrides (the `read.limit` schema depends on them). */
  config: Partial<ToolsConfig>;
  /** Tokenizer names in display order. */
  tokenizers: readonly string[];
}

const number = new Intl.NumberFormat("en-US");

/**
 * Fetches the prompt texts and their costs for a config and tokenizers.
 *
 * @param config The config overrides.
 * @param tokenizers The tokenizers.
 * @returns The response, or the error, or neither while loading.
 */
export function usePromptCost(
  config: Partial<ToolsConfig>,
  tokenizers: readonly string[],
  tools?: "all",
): { data?: PromptCostResponse; error?: string } {
  const [result, setResult] = useState<{ data?: PromptCostResponse; error?: string }>({});
  const key = JSON.stringify([config, tokenizers, tools]);
  useEffect(() => {
    let live = true;
    setResult((r) => ({ data: r.data }));
    getPromptCost(config, tokenizers, tools).then(
      (data) => live && setResult({ data }),
      (e) => live && setResult({ error: String(e.message ?? e) }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return result;
}

function Counts(props: { pick: (c: Cost) => number; data: PromptCostResponse }): JSX.Element {
  return (
    <>
      {Object.values(props.data.costs).map((c, i) => (
        <td class="num" key={i}>{number.format(props.pick(c))}</td>
      ))}
    </>
  );
}

/**
 * Lists every tool's parts with their token cost.
 *
 * @param props The config and tokenizers.
 * @returns The view.
 */
export function PromptCost(props: PromptCostProps): JSX.Element {
  const [all, setAll] = useState(false);
  const { data, error } = usePromptCost(props.config, props.tokenizers, all ? "all" : undefined);
  if (error) return <div class="request-error">{error}</div>;
  if (!data) return <div class="muted pad">Counting…</div>;
  const names = Object.keys(data.costs);
  const parts = ["name", "description", "schema", "guidance"] as const;
  return (
    <div class="prompt-cost" data-testid="prompt-cost">
      <p class="lede">
        What the tools add to every request before any call is made, counted as{" "}
        <code>deno task tokens</code>{" "}
        counts it: each tool's name, description, JSON schema (compact) and guidance (its
        system-prompt section), each tokenized on its own. Config overrides from the editor apply:
        the <code>read.limit</code> schema advertises <code>readLimit</code>.
      </p>
      <label class="muted">
        <input
          type="checkbox"
          data-testid="prompt-cost-all-tools"
          checked={all}
          onChange={(e) => setAll(e.currentTarget.checked)}
        />{" "}
        all nine tools (<code>move</code>, <code>delete</code>, <code>patch</code>{" "}
        too; the budget is the default six's)
      </label>
      <table class="cost-table" data-testid="prompt-cost-table">
        <thead>
          <tr>
            <th>tool</th>
            <th>part</th>
            {names.map((t) => <th class="num" key={t}>{t}</th>)}
          </tr>
        </thead>
        <tbody>
          {data.tools.flatMap((tool, i) => [
            ...parts.map((part, j) => (
              <tr key={`${tool.name}.${part}`} class={j === 0 ? "first" : ""}>
                {j === 0
                  ? (
                    <td rowSpan={parts.length + 1} class="tool-name">
                      <code>{tool.name}</code>
                      <div class="muted small-text">{tool.description}</div>
                    </td>
                  )
                  : null}
                <td>{part}</td>
                <Counts
                  data={data}
                  pick={(c) =>
                    c.tools[i][part]}
                />
              </tr>
            )),
            <tr key={`${tool.name}.total`} class="subtotal">
              <td>total</td>
              <Counts data={data} pick={(c) => c.tools[i].total} />
            </tr>,
          ])}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={2}>all {data.tools.length} tools</td>
            <Counts data={data} pick={(c) => c.total} />
          </tr>
          <tr>
            <td colSpan={2}>system prompt, assembled</td>
            <Counts data={data} pick={(c) => c.systemPrompt} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
