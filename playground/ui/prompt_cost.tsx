/**
 * The fixed prompt cost of the tools: each definition and guidance section, in tokens.
 *
 * @module
 */

import { Fragment, type JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import {
  getPromptCost,
  type PromptCostResponse,
  type TokenCounts,
  type TokenizerName,
  type ToolsConfig,
} from "./api.ts";

/** Props of {@linkcode PromptCost}. */
export interface PromptCostProps {
  /** The config overrides (the `read.limit` schema depends on them). */
  config: Partial<ToolsConfig>;
  /** Tokenizer names in display order. */
  tokenizers: readonly TokenizerName[];
}

const number = new Intl.NumberFormat("en-US");

function Counts(props: { counts: TokenCounts; tokenizers: readonly TokenizerName[] }) {
  return (
    <>
      {props.tokenizers.map((t) => <td class="num" key={t}>{number.format(props.counts[t])}</td>)}
    </>
  );
}

/**
 * Lists every tool's guidance and schema with their token cost.
 *
 * @param props The config and tokenizers.
 * @returns The view.
 */
export function PromptCost(props: PromptCostProps): JSX.Element {
  const { config, tokenizers } = props;
  const [data, setData] = useState<PromptCostResponse | undefined>();
  const [error, setError] = useState<string | undefined>();
  const key = JSON.stringify(config);

  useEffect(() => {
    let live = true;
    getPromptCost(config).then(
      (d) => live && (setData(d), setError(undefined)),
      (e) => live && setError(String(e.message ?? e)),
    );
    return () => {
      live = false;
    };
  }, [key]);

  if (error) return <div class="request-error">{error}</div>;
  if (!data) return <div class="muted pad">Counting…</div>;
  const head = tokenizers.map((t) => <th class="num" key={t}>{t}</th>);
  return (
    <div class="prompt-cost" data-testid="prompt-cost">
      <p class="lede">
        What the four tools add to every request before any call is made: the{" "}
        <strong>definition</strong>{" "}
        (name, description and JSON schema, serialized as a function-calling request carries it) and
        the <strong>guidance</strong>{" "}
        (the tool's system-prompt section). Config overrides from the editor apply: the{" "}
        <code>read.limit</code> schema advertises <code>readLimit</code>.
      </p>
      <table class="cost-table" data-testid="prompt-cost-table">
        <thead>
          <tr>
            <th>tool</th>
            <th>part</th>
            {head}
          </tr>
        </thead>
        <tbody>
          {data.tools.map((t) => (
            <Fragment key={t.name}>
              <tr class="first">
                <td rowSpan={3} class="tool-name">
                  <code>{t.name}</code>
                  <div class="muted small-text">{t.description}</div>
                </td>
                <td>definition</td>
                <Counts counts={t.tokens.definition} tokenizers={tokenizers} />
              </tr>
              <tr>
                <td>guidance</td>
                <Counts counts={t.tokens.guidance} tokenizers={tokenizers} />
              </tr>
              <tr class="subtotal">
                <td>total</td>
                <Counts counts={t.tokens.total} tokenizers={tokenizers} />
              </tr>
            </Fragment>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={2}>all four tools</td>
            <Counts counts={data.total} tokenizers={tokenizers} />
          </tr>
        </tfoot>
      </table>
      <div class="cost-cards">
        {data.tools.map((t) => (
          <article class="cost-card" key={t.name}>
            <h3>
              <code>{t.name}</code>
            </h3>
            <h4>
              Guidance{" "}
              <span class="muted">
                {tokenizers.map((k) => `${t.tokens.guidance[k]} ${k}`).join(" · ")}
              </span>
            </h4>
            <pre class="output wrap">{t.guidance}</pre>
            <h4>
              Definition{" "}
              <span class="muted">
                {tokenizers.map((k) => `${t.tokens.definition[k]} ${k}`).join(" · ")}
              </span>
            </h4>
            <pre class="json">{JSON.stringify(JSON.parse(t.definition), null, 2)}</pre>
          </article>
        ))}
      </div>
    </div>
  );
}
