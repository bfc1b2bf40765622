// Child process of races_test.ts: runs read, write, edit, list, glob and grep through `<root>/d` and on
// `<root>/g.txt` while two _swapper.ts processes swap `d` for a link to an outside directory and
// `g.txt` for a link to an outside file, and reports what came back.
//
//   deno run <permissions> _race_child.ts <root> <iterations> <secret> <marker>
//
// Prints one JSON line of counts. The permissions decide the mode: with --allow-all, Linux and
// /proc/self/fd, toolfs checks descriptors (pinned); with scoped grants, paths only.

import { createFsTools, LocalFileSystem } from "../../mod.ts";
import { fdPathsAvailable } from "../../src/provider/local/_fd_paths.ts";

const [root, iterations, secret, marker] = Deno.args;
const tools = createFsTools({ fs: new LocalFileSystem({ roots: [root] }) });
const counts: Record<string, number> = {};
let calls = 0;
let leaks = 0; // results carrying outside file content
let nameLeaks = 0; // listings carrying an outside-only name
const nameLeaksBy: Record<string, number> = {}; // which calls they were
let malformed = 0; // failures that are not `Error: <message>` with a contract code
const samples: string[] = [];

for (let i = 0; i < Number(iterations); i++) {
  const results = [
    ["read", await tools.execute("read", { file_path: "d/f.txt" })],
    ["write", await tools.execute("write", { file_path: `d/new_${i}.txt`, content: `n${i}\n` })],
    [
      "write-deep",
      await tools.execute("write", { file_path: `d/sub${i}/deep/x.txt`, content: "x" }),
    ],
    [
      "edit",
      await tools.execute("edit", {
        file_path: "d/f.txt",
        old_string: "END",
        new_string: `e${i}\nEND`,
      }),
    ],
    ["list", await tools.execute("list", { path: "d" })],
    ["read-file", await tools.execute("read", { file_path: "g.txt" })],
    [
      "edit-file",
      await tools.execute("edit", {
        file_path: "g.txt",
        old_string: "END",
        new_string: `g${i}\nEND`,
      }),
    ],
    [
      "write-file",
      await tools.execute("write", { file_path: "g.txt", content: `inside ${i}\nEND\n` }),
    ],
  ] as const;
  // The search tools (C9.2) walk `d` and read its files while it is swapped: every 5th round,
  // since the tree grows by the files written above.
  const searches = i % 5 === 0
    ? [
      ["grep", await tools.execute("grep", { pattern: "." })],
      ["grep-files", await tools.execute("grep", { pattern: ".", output_mode: "count" })],
      ["grep-d", await tools.execute("grep", { pattern: ".", path: "d" })],
      // A literal (the secret without its first letter, so the pattern itself never counts as a
      // leak): over the root's 300 filler files the files are told apart ahead on a worker.
      ["grep-literal", await tools.execute("grep", { pattern: secret.slice(1) })],
      [
        "grep-literal-files",
        await tools.execute("grep", {
          pattern: secret.slice(1),
          output_mode: "files_with_matches",
        }),
      ],
      ["glob", await tools.execute("glob", { pattern: "**" })],
      ["glob-d", await tools.execute("glob", { pattern: "*.txt", path: "d" })],
    ] as const
    : [];
  for (const [what, result] of [...results, ...searches]) {
    calls++;
    const key = `${what}:${result.error?.code ?? "ok"}`;
    counts[key] = (counts[key] ?? 0) + 1;
    const text = result.content + JSON.stringify(result.value ?? null);
    if (text.includes(secret)) {
      leaks++;
      if (samples.length < 3) samples.push(result.content.slice(0, 200));
    }
    if (text.includes(marker)) {
      nameLeaks++;
      nameLeaksBy[what] = (nameLeaksBy[what] ?? 0) + 1;
    }
    if (
      result.isError && (!result.content.startsWith("Error: ") || /\n\s+at /.test(result.content))
    ) {
      malformed++;
    }
  }
}
console.log(
  JSON.stringify({
    pinned: fdPathsAvailable(),
    calls,
    leaks,
    nameLeaks,
    nameLeaksBy,
    malformed,
    counts,
    samples,
  }),
);
