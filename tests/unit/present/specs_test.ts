// One spec per tool (src/present/specs/): every tool has every surface, and each MCP output
// schema accepts the structured value a real call gives (C6, C13.1).

import assert from "node:assert/strict";
import { SPECS, TOOL_NAMES } from "../../../src/present/specs/mod.ts";
import { outputSchemaFor } from "../../../src/mcp/output_schemas.ts";
import { sandbox } from "../../_sandbox.ts";

/** The JSON types of a value, as JSON Schema names them. */
function typesOf(value: unknown): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (Number.isInteger(value)) return ["integer", "number"];
  return [typeof value];
}

/** The subset of JSON Schema the output schemas use: type, enum, required, properties, items. */
function violations(schema: Record<string, unknown>, value: unknown, at = "$"): string[] {
  const out: string[] = [];
  if (schema.type !== undefined) {
    const allowed = ([] as string[]).concat(schema.type as string | string[]);
    if (!typesOf(value).some((t) => allowed.includes(t))) out.push(`${at}: not ${allowed}`);
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) out.push(`${at}: not in enum`);
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const key of (schema.required as string[] | undefined) ?? []) {
      if (!(key in record)) out.push(`${at}.${key}: missing`);
    }
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [key, sub] of Object.entries(properties)) {
      if (key in record) out.push(...violations(sub, record[key], `${at}.${key}`));
    }
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) =>
      out.push(...violations(schema.items as Record<string, unknown>, item, `${at}[${i}]`))
    );
  }
  return out;
}

Deno.test("every tool's spec has a description, guidance, schema, annotations, output schema and presentation", () => {
  for (const name of TOOL_NAMES) {
    const spec = SPECS[name];
    assert.ok(spec.description.length > 0, name);
    assert.ok(spec.guidance.length > 0, name);
    assert.equal(spec.inputSchema({ readLimit: 5 } as never).type, "object", name);
    assert.equal(spec.annotations.openWorldHint, false, name);
    assert.equal(outputSchemaFor(name).type, "object", name);
    assert.equal(typeof spec.present({}, "/w").title, "string", name);
  }
});

Deno.test("C13.1 every tool's MCP output schema accepts the value of a real call", async () => {
  await using box = await sandbox("memory", { "a.ts": "let a = 1;\n", "b.ts": "let b;\n" }, {
    tools: TOOL_NAMES,
  });
  const calls: [string, Record<string, unknown>][] = [
    ["list", {}],
    ["read", { file_path: "a.ts" }],
    ["write", { file_path: "new.ts", content: "x\n" }],
    ["edit", { file_path: "a.ts", old_string: "1", new_string: "2" }],
    ["glob", { pattern: "*.ts" }],
    ["grep", { pattern: "let" }],
    ["grep", { pattern: "let", output_mode: "count" }],
    ["move", { source_path: "b.ts", destination_path: "c/b.ts" }],
    ["delete", { path: "new.ts" }],
    ["read", { file_path: "c/b.ts" }],
    ["delete", { path: "c", recursive: true }],
    ["patch", { patch: "*** Begin Patch\n*** Add File: p.ts\n+x\n*** End Patch" }],
  ];
  const seen = new Set<string>();
  for (const [name, args] of calls) {
    const result = await box.run(name, args);
    assert.equal(result.isError, false, result.content);
    assert.deepEqual(violations(outputSchemaFor(name), result.value), [], name);
    seen.add(name);
  }
  assert.deepEqual([...seen].sort(), [...TOOL_NAMES].sort());
});

Deno.test("an unknown tool's output schema is a plain object schema", () => {
  assert.deepEqual(outputSchemaFor("nope"), { type: "object" });
});
