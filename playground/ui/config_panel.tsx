/**
 * Config overrides, one field per key of the library's defaults (so a key the library adds
 * shows up by itself), bounded as the server bounds them; and the read-before-write gate.
 *
 * @module
 */

import type { JSX } from "preact";
import type { ToolsConfig } from "./api.ts";

/** Props of {@linkcode ConfigPanel}. */
export interface ConfigPanelProps {
  /** The library defaults: their keys are the fields, their values the placeholders. */
  defaults: ToolsConfig;
  /** The largest value the server takes per key. */
  bounds: Record<string, number>;
  /** The overrides; an absent key keeps the default. */
  overrides: Partial<ToolsConfig>;
  /** Called with new overrides. */
  onChange: (overrides: Partial<ToolsConfig>) => void;
  /** Whether the read-before-write gate is on. */
  policy: boolean;
  /** Called when the gate is toggled. */
  onPolicy: (on: boolean) => void;
}

/**
 * Renders one number input per config key, with the default as placeholder.
 *
 * @param props Defaults, bounds, overrides and handlers.
 * @returns The panel.
 */
export function ConfigPanel(props: ConfigPanelProps): JSX.Element {
  const { defaults, bounds, overrides, onChange, policy, onPolicy } = props;
  // The number caps as inputs; the boolean keys (readImages, detailedFooters) as checkboxes.
  const keys = Object.keys(defaults).filter((key) => typeof defaults[key] === "number");
  const flags = Object.keys(defaults).filter((key) => typeof defaults[key] === "boolean");
  const changed = [...keys, ...flags].filter((k) => overrides[k] !== undefined).length +
    (policy ? 0 : 1);
  return (
    <details class="config" data-testid="config">
      <summary>
        Config{" "}
        <span class="muted">
          {changed ? `${changed} override${changed === 1 ? "" : "s"}` : "defaults"}
        </span>
      </summary>
      <div class="config-grid">
        {keys.map((key) => (
          <label class={overrides[key] !== undefined ? "field changed" : "field"} key={key}>
            <code>{key}</code>
            <input
              type="number"
              min={defaults[key] === 0 || key === "readStreamMinSize" ? 0 : 1}
              max={bounds[key]}
              step={1}
              data-testid={`config-${key}`}
              title={`default ${defaults[key]}; at most ${bounds[key]} here`}
              placeholder={String(defaults[key])}
              value={overrides[key] === undefined ? "" : String(overrides[key])}
              onInput={(e) => {
                const text = e.currentTarget.value;
                const next = { ...overrides };
                if (text === "") {
                  delete next[key];
                } else next[key] = Number(text);
                onChange(next);
              }}
            />
          </label>
        ))}
        {flags.map((key) => {
          const on = (overrides[key] ?? defaults[key]) as boolean;
          return (
            <label
              class={overrides[key] !== undefined ? "field check changed" : "field check"}
              key={key}
            >
              <span>
                <input
                  type="checkbox"
                  data-testid={`config-${key}`}
                  checked={on}
                  onChange={(e) => {
                    const next = { ...overrides };
                    if (e.currentTarget.checked === defaults[key]) delete next[key];
                    else next[key] = e.currentTarget.checked;
                    onChange(next);
                  }}
                />{" "}
                <code>{key}</code>
              </span>
              <span class="hint">{on === defaults[key] ? `${on} (default)` : String(on)}</span>
            </label>
          );
        })}
        <label class={policy ? "field check" : "field check changed"}>
          <span>
            <input
              type="checkbox"
              data-testid="config-policy"
              checked={policy}
              onChange={(e) => onPolicy(e.currentTarget.checked)}
            />{" "}
            read-before-write
          </span>
          <span class="hint">{policy ? "on (default)" : "off: writes are unconditional"}</span>
        </label>
      </div>
      {changed
        ? (
          <button
            type="button"
            class="link"
            onClick={() => {
              onChange({});
              onPolicy(true);
            }}
          >
            Restore defaults
          </button>
        )
        : null}
    </details>
  );
}
