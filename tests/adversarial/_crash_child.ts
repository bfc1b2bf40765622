// Child process of crash_test.ts: rewrites one file through `execute("write")` in an
// endless loop, alternating two large contents, until it is killed.

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

if (import.meta.main) {
  const [root, name] = Deno.args;
  const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }), policy: false });
  const contents = crashContents();
  console.log("ready");
  for (let i = 1;; i++) {
    const result = await tools.execute("write", { file_path: name, content: contents[i % 2] });
    if (result.isError) {
      console.error(result.content);
      Deno.exit(1);
    }
  }
}
