/**
 * Prompt variants: edit any tool's description, guidance and argument descriptions in A and B,
 * see the exact definitions and system prompt per wire format with their tokens side by side and
 * the delta, what the delta does to a recorded session, and export B as a `createFsTools` override.
 *
 * @module
 */

import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import {
  getPromptVariant,
  type PromptCostResponse,
  type ToolDefinition,
  type ToolsConfig,
  type WireFormat,
} from "./api.ts";
import type { TextsOverride } from "./state.ts";

/** Props of {@linkcode VariantsView}. */
export interface VariantsViewProps {
  /** The library's definitions (the texts every override starts from). */
  tools: readonly ToolDefinition[];
  /** Variants A and B. */
  texts: { A: TextsOverride; B: TextsOverride };
  /** Sets a variant's overrides. */
  onTexts: (variant: "A" | "B", texts: TextsOverride) => void;
  /** Config overrides (the schemas depend on them). */
  config: Partial<ToolsConfig>;
  /** The tokenizers counted. */
  tokenizers: readonly string[];
  /** Per-call result tokens of the recorded session (first tokenizer), for the session delta. */
  sessionTokens: Record<string, number[]>;
  /** Copies a text and says what it was. */
  onCopy: (text: string, what: string) => void;
}

const number = new Intl.NumberFormat("en-US");
const signed = new Intl.NumberFormat("en-US", { signDisplay: "exceptZero" });

/**
 * The TypeScript a host ships to use a variant.
 *
 * @param texts The variant's overrides.
 * @returns A `createFsTools({ texts })` snippet.
 */
export function overrideCode(texts: TextsOverride): string {
  const body = JSON.stringify(texts, null, 2).replaceAll("\n", "\n  ");
  return `import { createFsTools, LocalFileSystem } from "jsr:@toolfs/fs";

// A prompt variant, exported from the toolfs playground.
const tools = createFsTools({
  fs: new LocalFileSystem({ roots: ["./workspace"] }),
  texts: ${body},
});
`;
}

function cleaned(texts: TextsOverride): TextsOverride {
  const out: TextsOverride = {};
  for (const [tool, entry] of Object.entries(texts)) {
    const next: TextsOverride[string] = {};
    if (entry.description !== undefined) next.description = entry.description;
    if (entry.guidance !== undefined) next.guidance = entry.guidance;
    if (entry.parameters && Object.keys(entry.parameters).length) {
      next.parameters = entry.parameters;
    }
    if (Object.keys(next).length) out[tool] = next;
  }
  return out;
}

/**
 * Renders the Variants view.
 *
 * @param props Definitions, variants and handlers.
 * @returns The view.
 */
export function VariantsView(props: VariantsViewProps): JSX.Element {
  const { tools, texts, onTexts, config, tokenizers, sessionTokens, onCopy } = props;
  const [tool, setTool] = useState(tools.find((t) => t.name === "read")?.name ?? tools[0]?.name);
  const [format, setFormat] = useState<WireFormat | "system">("anthropic");
  const [costs, setCosts] = useState<{ A?: PromptCostResponse; B?: PromptCostResponse }>({});
  const [error, setError] = useState<string | undefined>(undefined);
  const key = JSON.stringify([texts, config, tokenizers]);

  useEffect(() => {
    const timer = setTimeout(() => {
      Promise.all([
        getPromptVariant(texts.A, config, tokenizers),
        getPromptVariant(texts.B, config, tokenizers),
      ]).then(
        ([A, B]) => {
          setCosts({ A, B });
          setError(undefined);
        },
        (e: Error) => setError(e.message),
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [key]);

  const definition = tools.find((t) => t.name === tool);
  function set(
    variant: "A" | "B",
    field: "description" | "guidance" | string,
    value: string,
    library: string,
    parameter?: boolean,
  ): void {
    const current = { ...(texts[variant][tool] ?? {}) };
    if (parameter) {
      const parameters = { ...(current.parameters ?? {}) };
      if (value === library) delete parameters[field];
      else parameters[field] = value;
      current.parameters = parameters;
    } else if (value === library) {
      delete current[field as "description" | "guidance"];
    } else {
      current[field as "description" | "guidance"] = value;
    }
    onTexts(variant, cleaned({ ...texts[variant], [tool]: current }));
  }

  function editor(variant: "A" | "B"): JSX.Element {
    const over = texts[variant][tool] ?? {};
    const d = definition!;
    const properties = d.inputSchema.properties as Record<string, { description?: string }>;
    return (
      <div class={`variant variant-${variant.toLowerCase()}`} data-testid={`variant-${variant}`}>
        <div class="variant-head">
          <span class="pane-label">{variant}</span>
          <span class="muted">
            {Object.keys(texts[variant]).length
              ? `overrides ${Object.keys(texts[variant]).join(", ")}`
              : "the library's texts"}
          </span>
          <span class="spacer" />
          <button
            type="button"
            class="small"
            onClick={() =>
              onTexts(variant, {})}
            disabled={!Object.keys(texts[variant]).length}
          >
            Library texts
          </button>
        </div>
        <label class={over.description !== undefined ? "changed" : ""}>
          <code>description</code>
          <textarea
            rows={3}
            data-testid={`variant-${variant}-description`}
            value={over.description ?? d.description}
            onInput={(e) =>
              set(variant, "description", e.currentTarget.value, d.description)}
          />
        </label>
        <label class={over.guidance !== undefined ? "changed" : ""}>
          <span>
            <code>guidance</code> <span class="muted">its system-prompt section</span>
          </span>
          <textarea
            rows={4}
            data-testid={`variant-${variant}-guidance`}
            value={over.guidance ?? d.guidance}
            onInput={(e) => set(variant, "guidance", e.currentTarget.value, d.guidance)}
          />
        </label>
        {Object.entries(properties).map(([name, p]) => (
          <label key={name} class={over.parameters?.[name] !== undefined ? "changed" : ""}>
            <span>
              <code>{name}</code> <span class="muted">argument description</span>
            </span>
            <input
              type="text"
              data-testid={`variant-${variant}-param-${name}`}
              value={over.parameters?.[name] ?? p.description ?? ""}
              placeholder="(none)"
              onInput={(e) =>
                set(variant, name, e.currentTarget.value, p.description ?? "", true)}
            />
          </label>
        ))}
      </div>
    );
  }

  const a = costs.A;
  const b = costs.B;
  const formats = a?.formats ?? [];
  const chosenFormat = format === "system" ? "anthropic" : format;
  function row(label: string, pick: (r: PromptCostResponse, t: string) => number, testId: string) {
    return (
      <tr data-testid={testId}>
        <td>{label}</td>
        {tokenizers.map((t) => {
          const x = a ? pick(a, t) : 0;
          const y = b ? pick(b, t) : 0;
          return [
            <td class="num" key={`${t}a`}>{number.format(x)}</td>,
            <td class="num" key={`${t}b`}>{number.format(y)}</td>,
            <td class={`num delta ${y > x ? "up" : y < x ? "down" : ""}`} key={`${t}d`}>
              {y === x ? "±0" : signed.format(y - x)}
            </td>,
          ];
        })}
      </tr>
    );
  }
  const firstTokenizer = tokenizers[0];
  const calls = sessionTokens[firstTokenizer] ?? [];
  const results = calls.reduce((n, x) => n + x, 0);
  const fixed = (r: PromptCostResponse) =>
    r.costs[firstTokenizer].wire[chosenFormat] + r.costs[firstTokenizer].systemPrompt;

  return (
    <section class="variants" data-testid="variants">
      <div class="variants-top">
        <div class="card pad">
          <h2>Prompt variants</h2>
          <p class="lede">
            Change any tool's texts in A or B; the definitions, the system prompt and their tokens
            follow. Export B as a <code>createFsTools({"{ texts }"})</code> override to ship it.
          </p>
          <div class="tool-picker" role="tablist" aria-label="tool">
            {tools.map((t) => (
              <button
                type="button"
                role="tab"
                key={t.name}
                aria-selected={t.name === tool}
                data-testid={`variant-tool-${t.name}`}
                onClick={() => setTool(t.name)}
              >
                {t.name}
                {texts.A[t.name] || texts.B[t.name] ? " •" : ""}
              </button>
            ))}
          </div>
          {definition ? <div class="variant-grid">{editor("A")}{editor("B")}</div> : null}
          {error ? <div class="json-error" data-testid="variant-error">{error}</div> : null}
        </div>
        <div class="variants-side">
          <div class="card pad">
            <h3>Tokens, A and B</h3>
            <table class="cost-table" data-testid="variant-costs">
              <thead>
                <tr>
                  <th />
                  {tokenizers.map((t) => <th key={t} colSpan={3} class="num">{t}: A · B · B − A
                  </th>)}
                </tr>
              </thead>
              <tbody>
                {formats.map((f) =>
                  row(f.format, (r, t) => r.costs[t].wire[f.format], `variant-row-${f.format}`)
                )}
                {row("system prompt", (r, t) => r.costs[t].systemPrompt, "variant-row-system")}
                {row("texts (budget)", (r, t) => r.costs[t].total, "variant-row-total")}
              </tbody>
            </table>
            {a && b
              ? (
                <p class="session-delta" data-testid="variant-session-delta">
                  {calls.length
                    ? (
                      <>
                        The recorded session ({calls.length} calls, {number.format(results)}{" "}
                        {firstTokenizer} tokens of results): context at its end{" "}
                        <b>{number.format(fixed(a) + results)}</b> with A,{" "}
                        <b>{number.format(fixed(b) + results)}</b> with B (
                        {signed.format(fixed(b) - fixed(a))}); sent as input over its {calls.length}
                        {" "}
                        requests without caching:{" "}
                        {signed.format((fixed(b) - fixed(a)) * calls.length)} tokens ({chosenFormat}
                        {" "}
                        tools + system prompt).
                      </>
                    )
                    : "Record a session (Session view) to see what the variant costs over it."}
                </p>
              )
              : null}
          </div>
          <div class="card pad">
            <div class="variant-head">
              <h3>B as a createFsTools override</h3>
              <button
                type="button"
                class="small"
                data-testid="copy-override"
                onClick={() => onCopy(overrideCode(texts.B), "Override code")}
              >
                Copy
              </button>
            </div>
            <pre class="json small" data-testid="override-code">{overrideCode(texts.B)}</pre>
          </div>
        </div>
      </div>
      <div class="card pad">
        <div class="variant-head">
          <h3>Exactly what is sent</h3>
          <select
            aria-label="wire format"
            data-testid="variant-format"
            value={format}
            onChange={(e) => setFormat(e.currentTarget.value as WireFormat | "system")}
          >
            {formats.map((f) => <option key={f.format} value={f.format}>{f.label}</option>)}
            <option value="system">system prompt</option>
          </select>
        </div>
        <div class="variant-grid">
          {(["A", "B"] as const).map((v) => {
            const r = costs[v];
            return (
              <pre class="json small variant-text" key={v} data-testid={`variant-text-${v}`}>
                {r ? (format === "system" ? r.systemPrompt : r.wire[format]) : "…"}
              </pre>
            );
          })}
        </div>
      </div>
    </section>
  );
}
