/**
 * The System prompt view: the assembled system prompt and the tool definitions in each wire
 * format, exactly as a request carries them, with their tokens and a copy button.
 *
 * @module
 */

import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { TokenizerInfo, ToolsConfig, WireFormat } from "./api.ts";
import { usePromptCost } from "./prompt_cost.tsx";

/** Props of {@linkcode SystemPromptView}. */
export interface SystemPromptViewProps {
  /** The config overrides (schemas depend on them). */
  config: Partial<ToolsConfig>;
  /** The tokenizers to count with. */
  tokenizers: readonly string[];
  /** Labels of the tokenizers. */
  labels: readonly TokenizerInfo[];
}

const number = new Intl.NumberFormat("en-US");

/**
 * Renders the system prompt and the chosen wire format's tools array.
 *
 * @param props The config and tokenizers.
 * @returns The view.
 */
export function SystemPromptView(props: SystemPromptViewProps): JSX.Element {
  const { data, error } = usePromptCost(props.config, props.tokenizers);
  const [format, setFormat] = useState<WireFormat>("openai-chat");
  const [copied, setCopied] = useState<string | undefined>();
  if (error) return <div class="request-error">{error}</div>;
  if (!data) return <div class="muted pad">Counting…</div>;
  const costs = Object.entries(data.costs);
  const label = (name: string): string => props.labels.find((t) => t.name === name)?.label ?? name;

  function copy(what: string, text: string): void {
    navigator.clipboard?.writeText(text).then(
      () => setCopied(what),
      () => setCopied(undefined),
    );
  }

  const wire = data.wire[format];
  return (
    <div class="system-prompt" data-testid="system-prompt">
      <p class="lede">
        Exactly what a request carries for these tools: the system prompt (
        <code>systemPrompt(tools.definitions, {"{ roots: fs.roots }"})</code>) and the{" "}
        <code>tools</code>{" "}
        array in the wire format you pick. Tokens are counted on the exact text shown.
      </p>
      <section class="card prompt-block">
        <header class="prompt-head">
          <h3>System prompt</h3>
          <TokenChips
            testId="system-prompt-tokens"
            counts={costs.map(([name, c]) => [label(name), c.systemPrompt])}
          />
          <span class="spacer" />
          <button
            type="button"
            class="small"
            data-testid="copy-system-prompt"
            onClick={() => copy("system", data.systemPrompt)}
          >
            {copied === "system" ? "Copied" : "Copy"}
          </button>
        </header>
        <pre class="output wrap" data-testid="system-prompt-text">{data.systemPrompt}</pre>
      </section>
      <section class="card prompt-block">
        <header class="prompt-head">
          <h3>Tool definitions</h3>
          <div class="tabs small-tabs" role="tablist" aria-label="wire format">
            {data.formats.map((f) => (
              <button
                type="button"
                role="tab"
                key={f.format}
                title={f.label}
                aria-selected={f.format === format}
                data-testid={`format-${f.format}`}
                onClick={() => setFormat(f.format)}
              >
                {f.label.replace(/ \(.*\)$/, "")}
              </button>
            ))}
          </div>
        </header>
        <div class="prompt-head">
          <code class="muted">{data.formats.find((f) => f.format === format)?.label}</code>
          <TokenChips
            testId="wire-tokens"
            counts={costs.map(([name, c]) => [label(name), c.wire[format]])}
          />
          <span class="spacer" />
          <button
            type="button"
            class="small"
            data-testid="copy-wire"
            onClick={() => copy(format, wire)}
          >
            {copied === format ? "Copied" : "Copy JSON"}
          </button>
        </div>
        <pre class="output wrap" data-testid="wire-text">{wire}</pre>
        <details class="section">
          <summary>Indented, for reading (tokens above are of the compact JSON sent)</summary>
          <pre class="json">{JSON.stringify(JSON.parse(wire), null, 2)}</pre>
        </details>
      </section>
    </div>
  );
}

function TokenChips(props: { counts: [string, number][]; testId: string }): JSX.Element {
  return (
    <span class="chips" data-testid={props.testId}>
      {props.counts.map(([name, n]) => (
        <span class="chip" key={name}>
          <b>{number.format(n)}</b> {name}
        </span>
      ))}
    </span>
  );
}
