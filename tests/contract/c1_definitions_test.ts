// CONTRACT C1.3: what a model sees before any file is touched: definitions, guidance, systemPrompt, token budget.

import {
  deepStrictEqual as assertEquals,
  ok as assert,
  strictEqual as assertStrictEquals,
} from "node:assert/strict";
import { systemPrompt } from "../../mod.ts";
import { toMcpTools, toOpenAITools } from "../../formats.ts";
import { DESCRIPTIONS, NAMES, SCHEMAS } from "./_shared.ts";
import { entriesSkip, sandbox } from "../_sandbox.ts";

const GUIDANCE = {
  list:
    "Use list, not ls, to see what a directory holds; glob or grep once you know the path pattern or the text. Make independent calls in parallel.",
  read:
    "Use read, not cat, head or tail. Lines come numbered; continue with the offset the footer gives, or use offset and limit to jump within a large file.",
  write:
    "Use write, not shell redirection, to create a file (parent directories too) or replace all of it. Read an existing file first; prefer edit for partial changes.",
  edit:
    "Use edit, not sed, for targeted changes: old_string must match exactly once (copy it from read output without line numbers) unless replace_all is set. First read its current version: any read window (one line is enough), a grep content view or your own write or edit counts.",
  glob:
    "Use glob, not find: *.ts matches at any depth. Gitignored files are skipped, hidden ones unless the pattern names them (.github/**, .*).",
  grep:
    "Use grep, not shell grep or rg, to find where something is defined or used. Narrow with path or glob; files_with_matches or count for an overview. Gitignored files are skipped, hidden ones unless glob names them (.github/**, .*). Line numbers work as read offsets.",
};

Deno.test("C9.1: definitions are list, read, write, edit, glob, grep with the pinned descriptions, schemas and guidance", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  assertEquals(
    tools.definitions,
    NAMES.map((name) => ({
      name,
      description: DESCRIPTIONS[name],
      inputSchema: SCHEMAS[name],
      guidance: GUIDANCE[name],
    })),
  );
});

Deno.test("every schema is snake_case, lists required and forbids additional properties", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  for (const { inputSchema } of tools.definitions) {
    assertStrictEquals(inputSchema.type, "object");
    assertStrictEquals(inputSchema.additionalProperties, false);
    assert(Array.isArray(inputSchema.required));
    for (const key of Object.keys(inputSchema.properties)) assert(/^[a-z]+(_[a-z]+)*$/.test(key));
    for (const key of inputSchema.required) assert(key in inputSchema.properties);
  }
});

Deno.test("read.limit advertises the configured readLimit as default and maximum", async () => {
  await using box = await sandbox("local", {}, { config: { readLimit: 300 } });
  const { tools } = box;
  const limit = tools.definitions[1].inputSchema.properties.limit;
  assertEquals(limit, { type: "integer", minimum: 1, maximum: 300, default: 300 });
});

Deno.test("guidance tells when to use each tool instead of a shell, how to page, and to read before changing", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  const [list, read, write, edit] = tools.definitions.map((d) => d.guidance);
  assert(list.includes("not ls"));
  assert(read.includes("not cat") && read.includes("offset and limit"));
  assert(
    write.includes("not shell redirection") && write.includes("Read an existing file first"),
  );
  assert(edit.includes("not sed") && edit.includes("First read its current version"));
  // Issue 21: one read line or a grep content view is enough for edit; calls in parallel;
  // both search tools skip gitignored files, and (issue 32 item 5, C9.2) hidden ones unless
  // the pattern or glob names them.
  assert(edit.includes("(one line is enough)") && edit.includes("a grep content view"));
  assert(list.includes("independent calls in parallel"));
  const [glob, grep] = tools.definitions.slice(4).map((d) => d.guidance);
  assert(glob.includes("Gitignored files are skipped, hidden ones unless the pattern names them"));
  assert(grep.includes("Gitignored files are skipped, hidden ones unless glob names them"));
  for (const search of [glob, grep]) assert(search.includes("(.github/**, .*)"));
});

Deno.test("systemPrompt joins the guidance in the fixed order, whatever order it is given", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  const expected = NAMES.map((n) => GUIDANCE[n]).join("\n\n");
  assertStrictEquals(systemPrompt(tools.definitions), expected);
  assertStrictEquals(systemPrompt([...tools.definitions].reverse()), expected);
  assertStrictEquals(
    systemPrompt([tools.definitions[3], tools.definitions[1]]),
    `${GUIDANCE.read}\n\n${GUIDANCE.edit}`,
  );
  assertStrictEquals(systemPrompt([]), "");
});

Deno.test("systemPrompt and the formats are byte-stable across instances of one config", async () => {
  await using boxA = await sandbox("local");
  await using boxB = await sandbox("local");
  const [a, b] = [boxA.tools, boxB.tools];
  assertStrictEquals(systemPrompt(a.definitions), systemPrompt(b.definitions));
  assertStrictEquals(
    JSON.stringify(toOpenAITools(a.definitions)),
    JSON.stringify(toOpenAITools(b.definitions)),
  );
  assertStrictEquals(
    JSON.stringify(toMcpTools(a.definitions)),
    JSON.stringify(toMcpTools(b.definitions)),
  );
});

Deno.test(
  "C9.6/C15.3 (issue 32 item 5): delete's guidance says a grep content view counts as a read, and it does",
  {
    ignore: entriesSkip() !== null,
  },
  async () => {
    await using box = await sandbox("local", { "old.ts": "export const gone = 1;\n" });
    const tools = box.toolsWith({ tools: ["grep", "delete"] });
    const [, del] = tools.definitions;
    assertStrictEquals(
      del.guidance,
      "Use delete, not rm. Read a file before deleting it (a grep content view counts); a non-empty directory needs recursive: true, and every file in it read first. Deleting cannot be undone.",
    );
    await tools.execute("grep", { pattern: "gone" });
    assertStrictEquals(
      (await tools.execute("delete", { path: "old.ts" })).content,
      "Deleted old.ts",
    );
  },
);
