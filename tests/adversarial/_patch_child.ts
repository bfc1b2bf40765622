// Child process of patch_test.ts (C16.2). Two modes:
//
//   deno run <permissions> _patch_child.ts crash <root> <files>
//     flips the first line of f0.txt … f<files-1>.txt between "STATE A" and "STATE B" with one
//     multi-file patch after another, forever (until killed); prints "ready" first.
//   deno run <permissions> _patch_child.ts race <root> <iterations> <secret>
//     patches t.txt (add a line after "line") and adds then deletes nothing else, <iterations>
//     times, while another process swaps t.txt for a link out; prints one JSON line
//     { calls, codes, leaks } (leaks: results that showed <secret>).

import { createFsTools, LocalFileSystem } from "../../mod.ts";

/** The content of file `i` in state `state` (about 2 MiB, so a kill lands mid-write). */
export function crashContent(i: number, state: "A" | "B"): string {
  const body = `f${i} ${"x".repeat(120)}\n`.repeat(16 * 1024);
  return `STATE ${state}\n${body}`;
}

/** The patch that flips every file from `from` to the other state. */
export function flipPatch(files: number, from: "A" | "B"): string {
  const to = from === "A" ? "B" : "A";
  const ops = Array.from(
    { length: files },
    (_, i) => `*** Update File: f${i}.txt\n@@\n-STATE ${from}\n+STATE ${to}`,
  );
  return ["*** Begin Patch", ...ops, "*** End Patch"].join("\n");
}

if (import.meta.main) {
  const [mode, root, count, secret] = Deno.args;
  const tools = createFsTools({
    fs: new LocalFileSystem({ roots: [root] }),
    policy: false,
    tools: ["patch"],
  });
  if (mode === "crash") {
    console.log("ready");
    for (let i = 0;; i++) {
      const result = await tools.execute("patch", {
        patch: flipPatch(Number(count), i % 2 === 0 ? "A" : "B"),
      });
      if (result.isError) {
        console.error(result.content);
        Deno.exit(1);
      }
    }
  } else {
    const codes: Record<string, number> = {};
    let leaks = 0;
    const patch = "*** Begin Patch\n*** Update File: t.txt\n@@\n line\n+added\n*** End Patch";
    for (let i = 0; i < Number(count); i++) {
      const result = await tools.execute("patch", { patch });
      const code = result.error?.code ?? "ok";
      codes[code] = (codes[code] ?? 0) + 1;
      if (result.content.includes(secret)) leaks++;
    }
    console.log(JSON.stringify({ calls: Number(count), codes, leaks }));
  }
}
