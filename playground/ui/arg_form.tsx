/**
 * An argument form generated from a tool's JSON schema.
 *
 * @module
 */

import type { JSX } from "preact";
import type { ToolDefinition } from "./api.ts";
import { takesString, typeLabel } from "./schema_type.ts";

/** Props of {@linkcode ArgForm}. */
export interface ArgFormProps {
  /** The tool whose schema shapes the form. */
  definition: ToolDefinition;
  /** The current arguments. */
  args: Record<string, unknown>;
  /** Called with the new arguments on every change. */
  onChange: (args: Record<string, unknown>) => void;
}

interface Property {
  type?: string | string[];
  items?: { type?: string };
  anyOf?: { type?: string; items?: { type?: string } }[];
  enum?: unknown[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

function without(args: Record<string, unknown>, key: string): Record<string, unknown> {
  const next = { ...args };
  delete next[key];
  return next;
}

/** Optional fields shown unfolded when a schema has more than {@linkcode FOLD_ABOVE} properties. */
const SHOWN_OPTIONAL = 2;
const FOLD_ABOVE = 4;

/**
 * Which properties show and which fold away: a tool with more than four arguments (grep) shows
 * its required ones and the first two optional ones; the rest sit under "More arguments".
 *
 * @param names The schema's properties, in order.
 * @param required The required ones.
 * @returns The shown and the folded names.
 */
export function foldFields(
  names: readonly string[],
  required: ReadonlySet<string>,
): { shown: string[]; folded: string[] } {
  if (names.length <= FOLD_ABOVE) return { shown: [...names], folded: [] };
  const shown: string[] = [];
  const folded: string[] = [];
  let optional = 0;
  for (const name of names) {
    if (required.has(name) || optional++ < SHOWN_OPTIONAL) shown.push(name);
    else folded.push(name);
  }
  return { shown, folded };
}

/**
 * Renders one field per schema property: a choice for enums, a line for paths and patterns, a
 * text area for other strings, a number input for integers and a three-way choice for booleans. An emptied optional field is
 * left out of the arguments, as a model would omit it.
 *
 * @param props The definition, arguments and change handler.
 * @returns The form.
 */
export function ArgForm(props: ArgFormProps): JSX.Element {
  const { definition, args, onChange } = props;
  const schema = definition.inputSchema;
  const required = new Set(schema.required);
  const names = Object.keys(schema.properties);

  function set(name: string, value: unknown): void {
    onChange(value === undefined ? without(args, name) : { ...args, [name]: value });
  }

  const { shown, folded } = foldFields(names, required);
  const setFolded = folded.filter((name) => args[name] !== undefined);
  return (
    <div class="arg-form">
      {names.length === 0 && <p class="muted">This tool takes no arguments.</p>}
      {shown.map(field)}
      {folded.length
        ? (
          <details class="more-args wide" data-testid="more-args" open={setFolded.length > 0}>
            <summary>
              More arguments <span class="muted">{folded.join(", ")}</span>
              {setFolded.length ? <span class="chip">{setFolded.length} set</span> : null}
            </summary>
            <div class="arg-form">{folded.map(field)}</div>
          </details>
        )
        : null}
    </div>
  );

  function field(name: string): JSX.Element {
    {
      const property = schema.properties[name] as Property;
      const isRequired = required.has(name);
      const value = args[name];
      const id = `arg-${name}`;
      const hint = [
        property.description,
        property.default !== undefined ? `default ${JSON.stringify(property.default)}` : "",
        property.maximum !== undefined ? `max ${property.maximum}` : "",
      ].filter(Boolean).join(" · ");
      let input: JSX.Element;
      if (Array.isArray(property.enum)) {
        input = (
          <select
            id={id}
            data-testid={id}
            value={value === undefined ? "" : JSON.stringify(value)}
            onChange={(e) => {
              const text = e.currentTarget.value;
              set(name, text === "" ? undefined : JSON.parse(text));
            }}
          >
            {isRequired ? null : <option value="">(omitted)</option>}
            {property.enum.map((option) => (
              <option key={String(option)} value={JSON.stringify(option)}>
                {String(option)}
              </option>
            ))}
          </select>
        );
      } else if (property.type === "integer" || property.type === "number") {
        input = (
          <input
            id={id}
            data-testid={id}
            type="number"
            min={property.minimum}
            max={property.maximum}
            step={property.type === "integer" ? 1 : "any"}
            placeholder={property.default !== undefined ? String(property.default) : ""}
            value={typeof value === "number" ? String(value) : ""}
            onInput={(e) => {
              const text = e.currentTarget.value;
              set(name, text === "" ? undefined : Number(text));
            }}
          />
        );
      } else if (property.type === "boolean") {
        input = (
          <select
            id={id}
            data-testid={id}
            value={value === true ? "true" : value === false ? "false" : ""}
            onChange={(e) => {
              const text = e.currentTarget.value;
              set(name, text === "" ? undefined : text === "true");
            }}
          >
            <option value="">(omitted)</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        );
      } else if (property.type === "string" && !/(path|pattern|glob)$/.test(name)) {
        input = (
          <textarea
            id={id}
            data-testid={id}
            rows={name === "content" ? 5 : 3}
            spellcheck={false}
            value={typeof value === "string" ? value : ""}
            onInput={(e) => {
              const text = e.currentTarget.value;
              set(name, text === "" && !isRequired ? undefined : text);
            }}
          />
        );
      } else {
        input = (
          <input
            id={id}
            data-testid={id}
            type="text"
            spellcheck={false}
            autoComplete="off"
            placeholder={isRequired ? "" : "(omitted)"}
            value={typeof value === "string" ? value : ""}
            onInput={(e) => {
              const text = e.currentTarget.value;
              set(name, text === "" && !isRequired ? undefined : text);
            }}
          />
        );
      }
      return (
        <div
          class={takesString(property) ? "field wide" : "field"}
          key={`${definition.name}.${name}`}
        >
          <label for={id}>
            <code>{name}</code>
            {isRequired ? <span class="req" title="required">*</span> : null}
            <span class="type">{typeLabel(property)}</span>
          </label>
          {input}
          {hint ? <div class="hint">{hint}</div> : null}
        </div>
      );
    }
  }
}
