// Child process of crash_test.ts: rewrites one file through `execute("write")` in an
// endless loop, alternating two large contents, until it is killed; with `edit`, flips one line
// of the 8 MiB file by `execute("edit")` instead (a streamed edit, issue 20 item 7).

import { createFsTools, LocalFileSystem } from "../../mod.ts";

/** The two contents of about 8 MiB the child alternates between (B is longer, so a mix shows). */
export function crashContents(): [string, string] {
  const block = (tag: string) =>
    Array.from(
      { length: 1024 },
      (_, i) => `${tag} ${String(i).padStart(4, "0")} ${tag.repeat(57)}\n`,
    )
      .join("");
  return [block("A").repeat(128), block("B").repeat(128) + "and one more line\n"];
}

/** The line `edit` mode flips, both ways (B's is longer, so a mix shows). */
export const FLIPPED: [string, string] = [
  "the middle line, first",
  "the middle line, second and longer",
];

/** The two contents `edit` mode alternates between: content A with one or the other line. */
export function crashEditContents(): [string, string] {
  const [a] = crashContents();
  const half = a.length >> 1;
  return FLIPPED.map((line) => `${a.slice(0, half)}${line}\n${a.slice(half)}`) as [
    string,
    string,
  ];
}

if (import.meta.main) {
  const [root, name, mode] = Deno.args;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }), policy: false });
  const contents = crashContents();
  console.log("ready");
  for (let i = 1;; i++) {
    const current = (await Deno.readTextFile(`${root}/${name}`)).includes(FLIPPED[0]) ? 0 : 1;
    const result = mode === "edit"
      ? await tools.execute("edit", {
        file_path: name,
        old_string: FLIPPED[current],
        new_string: FLIPPED[1 - current],
      })
      : await tools.execute("write", { file_path: name, content: contents[i % 2] });
    if (result.isError) {
      console.error(result.content);
      Deno.exit(1);
    }
  }
}
