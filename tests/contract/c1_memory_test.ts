// C1.7: every tool behaves on MemoryFileSystem as on LocalFileSystem, exact texts and error
// codes included. Each scenario runs the same steps on both providers and asserts identical
// content, code and value (absolute paths made portable), and the exact text where given.

import assert from "node:assert/strict";
import type { FsCallContext } from "../../mod.ts";
import { MemoryFileSystem } from "../../memory.ts";
import { PROVIDERS, type Sandbox, sandbox, type SandboxOptions } from "../_sandbox.ts";
import { needsRun } from "../_helpers.ts";

type Step =
  | { run: [string, unknown, FsCallContext?]; expect?: string; code?: string }
  | { host: (box: Sandbox) => Promise<void> };

function scenario(
  name: string,
  files: Record<string, string | Uint8Array>,
  steps: Step[],
  options: SandboxOptions = {},
): void {
  Deno.test(name, async () => {
    const seen: Record<string, unknown[]> = {};
    for (const kind of PROVIDERS) {
      await using box = await sandbox(kind, files, options);
      const outcomes: unknown[] = (seen[kind] = []);
      for (const [index, step] of steps.entries()) {
        if ("host" in step) {
          await step.host(box);
          continue;
        }
        const [tool, args, ctx] = step.run;
        const result = await box.run(tool, args, ctx);
        const content = box.portable(result.content);
        const where = `${kind}, step ${index + 1} (${tool})`;
        if (step.expect !== undefined) assert.equal(content, step.expect, where);
        assert.equal(result.error?.code, step.code, `${where}: ${content}`);
        const value = result.value === undefined
          ? undefined
          : box.portable(JSON.stringify(result.value));
        outcomes.push({ step: index + 1, content, code: result.error?.code, value });
      }
      outcomes.push({ files: await snapshot(box, Object.keys(files)) });
    }
    assert.deepEqual(seen.memory, seen.local);
  });
}

/** The text of every file named in the layout, after the steps. */
async function snapshot(box: Sandbox, names: string[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const name of names) if (!name.endsWith("/")) out[name] = await box.read(name);
  return out;
}

const view = (path: string, type: string, lines: string[], footer: string) =>
  `<path>${path}</path>\n<type>${type}</type>\n<content>\n${
    lines.map((line) => line + "\n").join("")
  }\n${footer}\n</content>`;
const written = (path: string, created: boolean) =>
  `<path>${path}</path>\n<type>file</type>\n<content>\n${
    created ? "Created file" : "Updated file"
  }\n</content>`;

scenario("C1.7/C4.1: list of the cwd, a subdirectory, an empty one and a capped one", {
  "b.txt": "b",
  "A.md": "a",
  "src/main.ts": "",
  "src/util/": "",
  "empty/": "",
  "many/": "",
  ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`many/f${i}.txt`, ""])),
}, [
  {
    run: ["list", {}],
    expect: view(
      ".",
      "directory",
      ["empty/", "many/", "src/", "A.md", "b.txt"],
      "(5 entries: 3 directories, 2 files)",
    ),
  },
  {
    run: ["list", { path: "src" }],
    expect: view("src", "directory", ["util/", "main.ts"], "(2 entries: 1 directory, 1 file)"),
  },
  { run: ["list", { path: "empty" }], expect: view("empty", "directory", [], "(Empty directory)") },
  {
    run: ["list", { path: "util" }, { cwd: "src" }],
    expect: view("util", "directory", [], "(Empty directory)"),
  },
]);

scenario("C1.7/C4.1: list caps at listMaxEntries with the exact capped footer", {
  "d/": "",
  ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`f${i}.txt`, ""])),
}, [
  {
    run: ["list", {}],
    expect: view(
      ".",
      "directory",
      ["d/", "f0.txt"],
      "(Showing 2 of 5 entries: 1 directory, 4 files. Entries are directories first, then files, each alphabetical; list a subdirectory to see the rest.)",
    ),
  },
], { config: { listMaxEntries: 2 } });

const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

scenario("C1.7/C4.2: read windows, footers, truncation, CRLF and the byte cap", {
  "a.txt": lines,
  "crlf.txt": "one\r\ntwo\r\n",
  "long.txt": "x".repeat(30) + "\n",
  "empty.txt": "",
  "bom.txt": "\uFEFF",
  "bad.txt": new Uint8Array([0x61, 0xff, 0x62]),
}, [
  {
    run: ["read", { file_path: "a.txt", offset: 11 }],
    expect: view("a.txt", "file", ["11: line 11", "12: line 12"], "(End of file - total 12 lines)"),
  },
  {
    run: ["read", { file_path: "a.txt", offset: 3, limit: 2 }],
    expect: view(
      "a.txt",
      "file",
      ["3: line 3", "4: line 4"],
      "(Showing lines 3-4 of 12. Use offset=5 to continue.)",
    ),
  },
  {
    run: ["read", { file_path: "a.txt", offset: 13 }],
    expect: `Error: offset 13 is out of range for "a.txt" (12 lines)`,
    code: "FS_OFFSET_OUT_OF_RANGE",
  },
  {
    run: ["read", { file_path: "crlf.txt" }],
    expect: view("crlf.txt", "file", ["1: one", "2: two"], "(End of file - total 2 lines)"),
  },
  {
    run: ["read", { file_path: "long.txt" }],
    expect: view(
      "long.txt",
      "file",
      ["1: " + "x".repeat(10) + "... (line truncated to 10 chars)"],
      "(End of file - total 1 lines)",
    ),
  },
  {
    run: ["read", { file_path: "a.txt" }],
    expect: view(
      "a.txt",
      "file",
      ["1: line 1", "2: line 2", "3: line 3", "4: line 4"],
      "(Output capped. Showing lines 1-4. Use offset=5 to continue.)",
    ),
  },
  { run: ["read", { file_path: "empty.txt" }] },
  { run: ["read", { file_path: "bom.txt" }] },
  { run: ["read", { file_path: "bad.txt" }] },
  { run: ["read", { file_path: "empty.txt", offset: 2 }], code: "FS_OFFSET_OUT_OF_RANGE" },
], { config: { readMaxLineLength: 10, readMaxBytes: 48 } });

scenario("C1.7/C4.2: a streamed read gives the same text as a whole-file read", {
  "a.txt": lines,
  "bin.dat": new Uint8Array([1, 2, 0, 3]),
}, [
  {
    run: ["read", { file_path: "a.txt", offset: 12 }],
    expect: view("a.txt", "file", ["12: line 12"], "(End of file - total 12 lines)"),
  },
  { run: ["read", { file_path: "bin.dat" }], code: "FS_BINARY" },
], { config: { readStreamMinSize: 1 } });

scenario("C1.7/C4.2: streamed in 3-byte chunks, CRLF and multi-byte text split across chunks", {
  "u.txt": "\uFEFFé\r\nñandú 日本\r\nlast",
}, [
  {
    run: ["read", { file_path: "u.txt" }],
    expect: view(
      "u.txt",
      "file",
      ["1: é", "2: ñandú 日本", "3: last"],
      "(End of file - total 3 lines)",
    ),
  },
  {
    run: ["read", { file_path: "u.txt", offset: 2, limit: 1 }],
    expect: view(
      "u.txt",
      "file",
      ["2: ñandú 日本"],
      "(Showing lines 2-2 of 3. Use offset=3 to continue.)",
    ),
  },
], { config: { readStreamMinSize: 1 }, chunkSize: 3 });

scenario(
  "C1.7/C3.3: a read-only first root refuses write and edit, reads fine",
  { "a.txt": "a\n" },
  [
    { run: ["read", { file_path: "a.txt" }] },
    {
      run: ["edit", { file_path: "a.txt", old_string: "a", new_string: "b" }],
      expect: `Error: cannot edit "a.txt": the root is read-only`,
      code: "FS_READ_ONLY",
    },
    { run: ["write", { file_path: "new.txt", content: "x" }], code: "FS_READ_ONLY" },
  ],
  { readOnly: true },
);

scenario("C1.7/C4.3/C5: write creates (parents too), needs a read to update, then updates", {
  "a.txt": "old\n",
}, [
  {
    run: ["write", { file_path: "new/deep/b.txt", content: "b" }],
    expect: written("new/deep/b.txt", true),
  },
  { run: ["write", { file_path: "a.txt", content: "new" }], code: "FS_NOT_OBSERVED" },
  { run: ["read", { file_path: "a.txt" }] },
  { run: ["write", { file_path: "a.txt", content: "new\n" }], expect: written("a.txt", false) },
  { run: ["write", { file_path: "a.txt", content: "again\n" }], expect: written("a.txt", false) },
  {
    run: ["write", { file_path: "new/deep/b.txt", content: "b2" }],
    expect: written("new/deep/b.txt", false),
  },
]);

scenario("C1.7/C4.4: edit once, replace_all, CRLF, no match, ambiguous", {
  "a.txt": "x = 1\ny = 1\nz = 2\n",
  "crlf.txt": "one\r\ntwo\r\nthree\r\n",
}, [
  { run: ["read", { file_path: "a.txt" }] },
  {
    run: ["edit", { file_path: "a.txt", old_string: "z = 2", new_string: "z = 3" }],
    expect: "The file a.txt has been updated successfully.",
  },
  {
    run: ["edit", { file_path: "a.txt", old_string: "= 1", new_string: "= 9" }],
    code: "FS_AMBIGUOUS_MATCH",
  },
  {
    run: ["edit", { file_path: "a.txt", old_string: "= 1", new_string: "= 9", replace_all: true }],
    expect: "The file a.txt has been updated. All occurrences were successfully replaced.",
  },
  {
    run: ["edit", { file_path: "a.txt", old_string: "nowhere", new_string: "x" }],
    code: "FS_NO_MATCH",
  },
  { run: ["read", { file_path: "crlf.txt" }] },
  {
    run: ["edit", { file_path: "crlf.txt", old_string: "one\ntwo", new_string: "1\n2" }],
    expect: "The file crlf.txt has been updated successfully.",
  },
  { run: ["read", { file_path: "crlf.txt" }] },
]);

scenario("C1.7/C5: policy errors: never read, changed since the read, and policy off", {
  "a.txt": "one\n",
}, [
  {
    run: ["edit", { file_path: "a.txt", old_string: "one", new_string: "two" }],
    expect: `Error: cannot edit "a.txt": read it first`,
    code: "FS_NOT_OBSERVED",
  },
  { run: ["read", { file_path: "a.txt" }] },
  { host: (box) => box.write("a.txt", "ONE\n") },
  {
    run: ["edit", { file_path: "a.txt", old_string: "ONE", new_string: "two" }],
    expect: `Error: cannot edit "a.txt": it changed since it was last read; read it again`,
    code: "FS_STALE",
  },
  { run: ["write", { file_path: "a.txt", content: "x" }], code: "FS_STALE" },
  { run: ["read", { file_path: "a.txt", limit: 1 }] },
  {
    run: ["edit", { file_path: "a.txt", old_string: "ONE", new_string: "two" }],
    expect: "The file a.txt has been updated successfully.",
  },
]);

scenario("C1.7/C5.6: with policy false writes and edits are unconditional", { "a.txt": "one\n" }, [
  { run: ["write", { file_path: "a.txt", content: "two\n" }], expect: written("a.txt", false) },
  {
    run: ["edit", { file_path: "a.txt", old_string: "two", new_string: "three" }],
    expect: "The file a.txt has been updated successfully.",
  },
], { policy: false });

scenario("C1.7/C3/C7: not found, not a directory, outside the roots, read-only, parent a file", {
  "a.txt": "a\n",
  "d/": "",
  "../root_evil/secret.txt": "s",
  "../docs/guide.md": "g\n",
}, [
  { run: ["read", { file_path: "missing.txt" }], code: "FS_NOT_FOUND" },
  { run: ["list", { path: "missing" }], code: "FS_NOT_FOUND" },
  {
    run: ["edit", { file_path: "missing.txt", old_string: "a", new_string: "b" }],
    code: "FS_NOT_FOUND",
  },
  {
    run: ["list", { path: "a.txt" }],
    expect: `Error: cannot list "a.txt": not a directory`,
    code: "FS_NOT_DIRECTORY",
  },
  { run: ["read", { file_path: "d" }], code: "FS_NOT_REGULAR_FILE" },
  {
    run: ["write", { file_path: "d", content: "x" }],
    expect: `Error: cannot write "d": not a regular file`,
    code: "FS_NOT_REGULAR_FILE",
  },
  { run: ["read", { file_path: "a.txt/x" }], code: "FS_NOT_FOUND" },
  { run: ["list", { path: "a.txt/x" }], code: "FS_NOT_FOUND" },
  {
    run: ["edit", { file_path: "a.txt/x", old_string: "a", new_string: "b" }],
    code: "FS_NOT_FOUND",
  },
  {
    run: ["write", { file_path: "a.txt/x", content: "x" }],
    expect: `Error: cannot write "a.txt/x": a parent is not a directory`,
    code: "FS_NOT_DIRECTORY",
  },
  {
    run: ["read", { file_path: "../root_evil/secret.txt" }],
    expect: `Error: cannot read "../root_evil/secret.txt": outside the permitted roots`,
    code: "FS_OUTSIDE_ROOT",
  },
  {
    run: ["list", { path: ".." }],
    expect: `Error: cannot list "..": outside the permitted roots`,
    code: "FS_OUTSIDE_ROOT",
  },
  { run: ["read", { file_path: "../docs/guide.md" }] },
  {
    run: ["write", { file_path: "../docs/guide.md", content: "x" }],
    expect: `Error: cannot write "<base>/docs/guide.md": the root is read-only`,
    code: "FS_READ_ONLY",
  },
  { run: ["write", { file_path: "../docs/new.md", content: "x" }], code: "FS_READ_ONLY" },
  { run: ["read", { file_path: "a\0b" }], code: "FS_INVALID_ARGUMENT" },
  { run: ["read", { file_path: "a.txt" }, { cwd: "../root_evil" }], code: "FS_OUTSIDE_ROOT" },
], { roots: [{ name: "docs", write: false }] });

scenario("C1.7/C3.9: unsafe names are quoted alike on both providers", {
  "x\n\n(Empty directory)\nforged": "",
  "dir\u202eevil/": "",
  "tab\tname.txt": "one\n",
  "plain.txt": "",
}, [
  { run: ["list", {}] },
  { run: ["read", { file_path: "tab\tname.txt" }] },
  { run: ["write", { file_path: "new\u2028line.txt", content: "x" }] },
  { run: ["read", { file_path: "gone\u0085.txt" }], code: "FS_NOT_FOUND" },
]);

const noPermissions = "C1.7: MemoryFileSystem runs the tools with no Deno permission at all";
Deno.test({
  name: noPermissions,
  ignore: needsRun(noPermissions),
  fn: async () => {
    const script = `
      import { createFsTools } from "${new URL("../../mod.ts", import.meta.url)}";
      import { MemoryFileSystem } from "${new URL("../../memory.ts", import.meta.url)}";
      const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/a.txt": "hi\\n" } });
      const tools = createFsTools({ fs });
      await tools.execute("read", { file_path: "a.txt" });
      const edit = await tools.execute("edit", { file_path: "a.txt", old_string: "hi", new_string: "yo" });
      console.log(edit.content + " " + JSON.stringify(new TextDecoder().decode(fs.readFile("/w/a.txt"))));
    `;
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-prompt", "--no-config", "--no-lock", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    assert.equal(code, 0, decode(stderr));
    assert.equal(decode(stdout).trim(), 'The file a.txt has been updated successfully. "yo\\n"');
  },
});

Deno.test("C1.7: roots are created as empty directories; relative roots and conflicts are refused", async () => {
  const fs = new MemoryFileSystem({ roots: ["/w", { path: "/ro/", write: false }] });
  assert.deepEqual(fs.roots.map((r) => ({ ...r })), [
    { path: "/w", writable: true },
    { path: "/ro", writable: false },
  ]);
  const { createFsTools } = await import("../../mod.ts");
  const tools = createFsTools({ fs });
  assert.equal(
    (await tools.execute("list", {})).content,
    view(".", "directory", [], "(Empty directory)"),
  );
  assert.throws(() => new MemoryFileSystem({ roots: [] }), /at least one root/);
  assert.throws(
    () => new MemoryFileSystem({ roots: ["w"] }),
    /root "w" must be an absolute POSIX path/,
  );
  assert.throws(
    () => new MemoryFileSystem({ roots: ["/w"], files: { "/w": "a file" } }),
    /root "\/w" is not a directory/,
  );
  assert.throws(
    () => new MemoryFileSystem({ roots: ["/w"], files: { "/w/a": "x", "/w/a/b": "y" } }),
    /file "\/w\/a\/b" conflicts/,
  );
  assert.throws(
    () => new MemoryFileSystem({ roots: ["/w"], files: { "/w/a": 42 as unknown as string } }),
    /content of "\/w\/a" must be a string or a Uint8Array: got number/,
  );
});

Deno.test("C1.7: the host sees what the agent wrote, and its own changes make reads stale", async () => {
  const fs = new MemoryFileSystem({ roots: ["/w"], files: { "/w/a.txt": "one\n", "/w/d/": "" } });
  const { createFsTools } = await import("../../mod.ts");
  const tools = createFsTools({ fs });
  await tools.execute("write", { file_path: "d/b.txt", content: "bee" });
  assert.deepEqual(fs.paths(), ["/w/a.txt", "/w/d/b.txt"]);
  assert.equal(new TextDecoder().decode(fs.readFile("/w/d/b.txt")), "bee");
  await tools.execute("read", { file_path: "a.txt" });
  fs.writeFile("/w/a.txt", "two\n");
  const stale = await tools.execute("write", { file_path: "a.txt", content: "x" });
  assert.equal(stale.error?.code, "FS_STALE");
  assert.equal(fs.remove("/w/d"), true);
  assert.deepEqual(fs.paths(), ["/w/a.txt"]);
  const gone = await tools.execute("read", { file_path: "d/b.txt" });
  assert.equal(gone.error?.code, "FS_NOT_FOUND");
});
