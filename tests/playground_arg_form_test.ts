// Issue 34: the playground's argument form names a property's type readably: a property that takes
// one string or a list shows `string | string[]` (it showed `stringarray`), in either schema form.

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { takesString, typeLabel } from "../playground/ui/schema_type.ts";
import { createFsTools, LocalFileSystem } from "../mod.ts";

Deno.test("arg form: a string-or-list property reads `string | string[]` in both schema forms", () => {
  assertEquals(typeLabel({ type: "string" }), "string");
  assertEquals(typeLabel({ type: "integer" }), "integer");
  assertEquals(
    typeLabel({ type: ["string", "array"], items: { type: "string" } }),
    "string | string[]",
  );
  assertEquals(
    typeLabel({ anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }),
    "string | string[]",
  );
  assertEquals(takesString({ anyOf: [{ type: "string" }, { type: "array" }] }), true);
  assertEquals(takesString({ type: "boolean" }), false);
});

Deno.test("arg form: no tool's property shows a run-together type like `stringarray`", () => {
  for (
    const definition of createFsTools({ fs: new LocalFileSystem({ roots: [Deno.cwd()] }) })
      .definitions
  ) {
    const properties = definition.inputSchema.properties as Record<string, object>;
    for (const [name, property] of Object.entries(properties)) {
      const label = typeLabel(property);
      assertEquals(
        /^(string|integer|number|boolean|string\[\])( \| [a-z[\]]+)*$/.test(label),
        true,
        `${definition.name}.${name}: ${label}`,
      );
    }
  }
});
