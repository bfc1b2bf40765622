// Child process of races_test.ts: `<count>` times, reads `<file>` and adds a line `<id>-<i>`
// before the line `END`, by `edit` or by `write` of the whole text, under the default policy
// (or none with `--no-policy`). Prints the tokens that landed and the codes of the rest.
//
//   deno run --allow-read --allow-write _editor_child.ts <root> <file> <id> <count> <edit|write> [--no-policy]

import { createFsTools, LocalFileSystem } from "../../mod.ts";

const [root, file, id, count, how, flag] = Deno.args;
const tools = createFsTools({
  fs: new LocalFileSystem({ roots: [root] }),
  policy: flag !== "--no-policy",
});
const landed: string[] = [];
const codes: Record<string, number> = {};

for (let i = 0; i < Number(count); i++) {
  const token = `${id}-${i}`;
  const read = await tools.execute("read", { file_path: file });
  let result;
  if (how === "edit") {
    result = await tools.execute("edit", {
      file_path: file,
      old_string: "\nEND\n",
      new_string: `\n${token}\nEND\n`,
    });
  } else {
    const lines = (read.value as { lines: { text: string }[] } | undefined)?.lines ?? [];
    const text = lines.map((line) => line.text);
    text.splice(text.length - 1, 0, token);
    result = await tools.execute("write", { file_path: file, content: text.join("\n") + "\n" });
  }
  if (!result.isError) landed.push(token);
  else codes[result.error!.code] = (codes[result.error!.code] ?? 0) + 1;
}
console.log(JSON.stringify({ landed, codes }));
