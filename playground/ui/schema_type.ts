/**
 * The type a JSON Schema property accepts, as the argument form shows it: `string`, or
 * `string | string[]` for a property that takes one string or a list (written as a type list or
 * as `anyOf`).
 *
 * @module
 */

/** The parts of a JSON Schema property that name its type. */
export interface SchemaType {
  type?: string | string[];
  items?: SchemaType;
  anyOf?: SchemaType[];
}

/** One readable label for a property's type; `""` when the schema names none. */
export function typeLabel(property: SchemaType): string {
  if (Array.isArray(property.anyOf)) return property.anyOf.map(typeLabel).join(" | ");
  const types = Array.isArray(property.type) ? property.type : [property.type ?? ""];
  return types.map((type) =>
    type === "array" && property.items ? `${typeLabel(property.items)}[]` : type
  ).join(" | ");
}

/** Whether the property takes a string (alone or as one of its forms). */
export function takesString(property: SchemaType): boolean {
  return typeLabel(property).split(" | ").includes("string");
}
