// Reading README's "Model experience" sections, for tests/docs_test.ts (the quotes) and
// tests/tokens_budget_test.ts (the token figures, which need the tokenizers).

import { ok as assert } from "node:assert/strict";

/** README's "Model experience" subsection of one tool: `### \`<tool>\`` up to the next heading. */
export function toolSection(readme: string, tool: string): string {
  const at = readme.indexOf(`\n### \`${tool}\`\n`);
  assert(at >= 0, `README has no "### \`${tool}\`" section`);
  const end = readme.indexOf("\n#", at + 1);
  return readme.slice(at, end < 0 ? undefined : end);
}

/** The guidance a tool's section quotes (its `>` block, Markdown escapes undone) and its count. */
export function quotedGuidance(section: string): { text: string; tokens: number } {
  const tokens = Number(/Guidance \((\d+) tokens\):/.exec(section)?.[1]);
  const text = section.split("\n").filter((line) => line.startsWith(">"))
    .map((line) => line.replace(/^>\s?/, "")).join(" ").replace(/\\([*_`\\])/g, "$1").trim();
  return { text, tokens };
}
