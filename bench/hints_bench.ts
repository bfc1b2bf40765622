// The C12.3 whitespace-insensitive search against the exact search `edit` runs first, on 50 MiB
// of source code: the hint runs only after the exact search failed, and must cost at most
// about as much again (target: the loose search within 2x of the exact one).
//
//   deno bench --allow-read --allow-write bench/hints_bench.ts

import { findLoose } from "../src/text/loose_match.ts";
import { MatchError, planEdit } from "../src/text/edit_apply.ts";

const SIZE = 50 * 1024 * 1024;

/** One block of TypeScript, its identifiers numbered so that no two blocks are alike. */
function block(n: number): string {
  return [
    `app.get("/users/${n}", async (c) => {`,
    `  const id = c.req.param("id");`,
    `  if (id === "") {`,
    `    return c.json({ error: "missing id" }, 400);`,
    `  }`,
    `  const user${n} = await db.users.findOne(id, { cache: ${n % 7} });`,
    `  return c.json({ id, user: user${n} });`,
    `});`,
    ``,
  ].join("\n") + "\n";
}

function source(): Uint8Array {
  const parts: string[] = [];
  let size = 0;
  for (let n = 0; size < SIZE; n++) {
    const text = block(n);
    parts.push(text);
    size += text.length;
  }
  return new TextEncoder().encode(parts.join(""));
}

const bytes = source();

// Needles written with tabs where the file has spaces: the exact search finds nothing, the
// loose search finds the block near the end of the file, so both read all 50 MiB.
const lastBlock = (() => {
  const text = new TextDecoder().decode(bytes.subarray(bytes.length - 400));
  const m = text.match(/const user(\d+) = await/g);
  return Number(m![m!.length - 1].match(/\d+/)![0]);
})();
const rare =
  `\tconst user${lastBlock} = await db.users.findOne(id, { cache: ${lastBlock % 7} });\n` +
  `\treturn c.json({ id, user: user${lastBlock} });`;
const common = `\tif (id === "") {\n\t\treturn c.json({ error: "missing id" }, 400);\n\t}\n` +
  `\tconst user${lastBlock} = await`;

function exact(oldString: string): void {
  try {
    planEdit(bytes, { oldString, newString: "x", replaceAll: false });
    throw new Error("the exact search must not match");
  } catch (error) {
    if (!(error instanceof MatchError)) throw error;
  }
}

function loose(oldString: string): void {
  if (!findLoose(bytes, oldString)) throw new Error("the loose search must match");
}

for (const [name, needle] of [["rare longest word", rare], ["common words", common]]) {
  const group = `50 MiB, ${name}`;
  Deno.bench({
    name: `exact search (edit), ${name}`,
    group,
    baseline: true,
    fn: () => exact(needle),
  });
  Deno.bench({ name: `whitespace-insensitive search, ${name}`, group, fn: () => loose(needle) });
}
