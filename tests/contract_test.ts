// Walks ../shared/CONTRACT.md clause by clause (C1-C8) at the tools level, against real files.

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import {
  createFsTools,
  DEFAULT_CONFIG,
  FsError,
  type FsIntent,
  type FsObservation,
  type FsPolicy,
  type FsPrecondition,
  type FsToolEventDetail,
  LocalFileSystem,
  ReadBeforeWritePolicy,
} from "../mod.ts";
import {
  encoder,
  failed,
  listText,
  mkfifo,
  needsRun,
  ok,
  put,
  readText,
  tempFiles,
  toolsAt,
  withSandbox,
  writeText,
} from "./_helpers.ts";
import { RecordingFs } from "./_recording_fs.ts";

const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

function concat(...parts: (Uint8Array | string)[]): Uint8Array {
  const chunks = parts.map((part) => typeof part === "string" ? encoder.encode(part) : part);
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

// --- C1 Public API ----------------------------------------------------------------------------

Deno.test("C1.1 a string root can be read and written", async () => {
  await withSandbox({ "a.txt": "one\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.equal(
      ok(await tools.execute("read", { file_path: "a.txt" })),
      readText("a.txt", ["1: one"], "(End of file - total 1 lines)"),
    );
    assert.equal(
      ok(await tools.execute("write", { file_path: "a.txt", content: "two\n" })),
      writeText("a.txt", false),
    );
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "two\n");
  });
});

Deno.test("C1.1 a root with write: false can be read but not written", async () => {
  await withSandbox({ "a.txt": "one\n" }, async ({ root }) => {
    const fs = new LocalFileSystem({ roots: [{ path: root, write: false }] });
    const tools = createFsTools({ fs });
    ok(await tools.execute("read", { file_path: "a.txt" }));
    assert.deepEqual(failed(await tools.execute("write", { file_path: "a.txt", content: "x" })), [
      'Error: cannot write "a.txt": the root is read-only',
      "FS_READ_ONLY",
    ]);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "one\n");
  });
});

Deno.test("C1.1 roots are resolved to real paths once, at construction", async () => {
  await withSandbox({ "a.txt": "in root\n" }, async ({ dir, root }) => {
    await put(dir, { "other/a.txt": "in other\n" });
    const link = join(dir, "link");
    await Deno.symlink(root, link);
    const fs = new LocalFileSystem({ roots: [link, relative(Deno.cwd(), join(dir, "other"))] });
    assert.deepEqual(fs.roots, [
      { path: root, writable: true },
      { path: join(dir, "other"), writable: true },
    ]);
    // Re-pointing the link afterwards does not move the root.
    await Deno.remove(link);
    await Deno.symlink(join(dir, "other"), link);
    const tools = createFsTools({ fs });
    assert.equal(tools.cwd, root);
    assert.equal(
      ok(await tools.execute("read", { file_path: "a.txt" })),
      readText("a.txt", ["1: in root"], "(End of file - total 1 lines)"),
    );
  });
});

Deno.test("C1.1 a missing root is a constructor error that names it", async () => {
  await withSandbox({ "file.txt": "x" }, ({ root }) => {
    const missing = join(root, "nope");
    assert.throws(
      () => new LocalFileSystem({ roots: [missing] }),
      { message: `root "${missing}" does not exist: create it or pass another directory` },
    );
    return Promise.resolve();
  });
});

Deno.test("C1.1 a root that is a file is a constructor error that names it", async () => {
  await withSandbox({ "file.txt": "x" }, ({ root }) => {
    const file = join(root, "file.txt");
    assert.throws(() => new LocalFileSystem({ roots: [file] }), (error: Error) => {
      assert.match(error.message, /not a directory/);
      assert.ok(error.message.includes(`"${file}"`), error.message);
      return true;
    });
    assert.throws(() => new LocalFileSystem({ roots: [] }), TypeError);
    return Promise.resolve();
  });
});

const permissionTest =
  "C1.1 a root without a permission grant is a constructor error naming the flag";
Deno.test({
  name: permissionTest,
  ignore: needsRun(permissionTest),
  async fn() {
    await withSandbox({}, async ({ root }) => {
      const child = (flags: string[], mode: string) =>
        new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--quiet",
            ...flags,
            new URL("./_permission_child.ts", import.meta.url).pathname,
            root,
            mode,
          ],
          stdout: "piped",
          stderr: "piped",
        }).output().then((out) => new TextDecoder().decode(out.stdout).trim());
      assert.equal(
        await child([`--allow-read=${root}`], "rw"),
        `root "${root}" needs write permission: run Deno with --allow-write=${root}`,
      );
      assert.equal(
        await child([`--allow-write=${root}`], "ro"),
        `root "${root}" needs read permission: run Deno with --allow-read=${root}`,
      );
      assert.equal(await child([`--allow-read=${root}`], "ro"), "ok");
      assert.equal(await child([`--allow-read=${root}`, `--allow-write=${root}`], "rw"), "ok");
    });
  },
});

Deno.test("C1.2 cwd defaults to the first root; a relative cwd resolves against it", async () => {
  await withSandbox({ "sub/a.txt": "a\n", "top.txt": "t\n" }, async ({ root }) => {
    const fs = new LocalFileSystem({ roots: [root] });
    assert.equal(createFsTools({ fs }).cwd, root);
    const tools = createFsTools({ fs, cwd: "sub" });
    assert.equal(tools.cwd, join(root, "sub"));
    assert.equal(
      ok(await tools.execute("list", {})),
      listText(".", ["a.txt"], "(1 entry: 0 directories, 1 file)"),
    );
  });
});

Deno.test("C1.2 a cwd outside every root is a constructor error", async () => {
  await withSandbox({}, ({ dir, root }) => {
    const fs = new LocalFileSystem({ roots: [root] });
    assert.throws(() => createFsTools({ fs, cwd: dir }), (error: Error) => {
      assert.ok(error.message.includes(`cwd "${dir}"`), error.message);
      return true;
    });
    assert.throws(() => createFsTools({ fs, cwd: "../root_evil" }), Error);
    return Promise.resolve();
  });
});

Deno.test("C1.2 a ctx.cwd outside every root fails the call with FS_OUTSIDE_ROOT", async () => {
  await withSandbox({ "a.txt": "a" }, async ({ dir, root }) => {
    await put(dir, { "a.txt": "outside" });
    const tools = toolsAt(root);
    for (const cwd of [dir, "..", "/"]) {
      assert.deepEqual(failed(await tools.execute("read", { file_path: "a.txt" }, { cwd })), [
        'Error: cannot read "a.txt": outside the permitted roots',
        "FS_OUTSIDE_ROOT",
      ]);
    }
    assert.deepEqual(failed(await tools.execute("list", {}, { cwd: dir })), [
      'Error: cannot list ".": outside the permitted roots',
      "FS_OUTSIDE_ROOT",
    ]);
  });
});

Deno.test("C1.2 config overrides some keys and keeps the defaults of the others", async () => {
  await withSandbox({}, ({ root }) => {
    const tools = toolsAt(root, { config: { readLimit: 10, listMaxEntries: 3 } });
    assert.deepEqual(tools.config, { ...DEFAULT_CONFIG, readLimit: 10, listMaxEntries: 3 });
    return Promise.resolve();
  });
});

Deno.test("C1.2 an invalid config value is a constructor error naming the key", async () => {
  await withSandbox({}, ({ root }) => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { readLimt: 5 },
        'unknown config key "readLimt": expected one of listMaxEntries, readLimit, readMaxLineLength, readMaxBytes, readStreamMinSize, globMaxFiles, grepMaxMatches, editSnippet',
      ],
      [{ readLimit: 0 }, 'config "readLimit" must be a whole number of at least 1: got 0'],
      [{ readLimit: 1.5 }, 'config "readLimit" must be a whole number of at least 1: got 1.5'],
      [
        { readMaxBytes: "10" },
        'config "readMaxBytes" must be a whole number of at least 1: got "10"',
      ],
      [
        { listMaxEntries: -1 },
        'config "listMaxEntries" must be a whole number of at least 1: got -1',
      ],
      [
        { readMaxLineLength: NaN },
        'config "readMaxLineLength" must be a whole number of at least 1: got null',
      ],
      [
        { readStreamMinSize: -1 },
        'config "readStreamMinSize" must be a whole number of at least 0: got -1',
      ],
      [{ editSnippet: -1 }, 'config "editSnippet" must be a whole number of at least 0: got -1'],
      [{ globMaxFiles: 0 }, 'config "globMaxFiles" must be a whole number of at least 1: got 0'],
      [
        { grepMaxMatches: 0 },
        'config "grepMaxMatches" must be a whole number of at least 1: got 0',
      ],
    ];
    for (const [config, message] of cases) {
      assert.throws(() => toolsAt(root, { config: config as never }), {
        name: "TypeError",
        message,
      });
    }
    assert.equal(toolsAt(root, { config: { readStreamMinSize: 0 } }).config.readStreamMinSize, 0);
    return Promise.resolve();
  });
});

Deno.test("C1.3 definitions are list, read, write, edit with strict snake_case schemas", async () => {
  await withSandbox({}, ({ root }) => {
    const tools = toolsAt(root, { config: { readLimit: 300 } });
    assert.deepEqual(tools.definitions.map((d) => d.name), ["list", "read", "write", "edit"]);
    const required: Record<string, string[]> = {
      list: [],
      read: ["file_path"],
      write: ["file_path", "content"],
      edit: ["file_path", "old_string", "new_string"],
    };
    for (const definition of tools.definitions) {
      assert.equal(typeof definition.description, "string");
      assert.ok(definition.description.length > 0);
      assert.equal(typeof definition.guidance, "string");
      assert.ok(definition.guidance.length > 0);
      assert.equal(definition.inputSchema.type, "object");
      assert.equal(definition.inputSchema.additionalProperties, false);
      assert.deepEqual(definition.inputSchema.required, required[definition.name]);
      for (const key of Object.keys(definition.inputSchema.properties)) {
        assert.match(key, /^[a-z]+(_[a-z]+)*$/);
      }
    }
    const read = tools.definitions[1].inputSchema.properties;
    assert.deepEqual(Object.keys(read), ["file_path", "offset", "limit"]);
    assert.equal(read.limit.default, 300);
    assert.equal(read.limit.maximum, 300);
    assert.deepEqual(Object.keys(tools.definitions[3].inputSchema.properties), [
      "file_path",
      "old_string",
      "new_string",
      "replace_all",
    ]);
    return Promise.resolve();
  });
});

Deno.test("C1.4 execute resolves to an error result for any bad input, never throws", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    const bad: unknown[] = [undefined, null, 42, "a.txt", [], [1], { file_path: 5 }, {
      file_path: {},
    }];
    for (const name of ["list", "read", "write", "edit"]) {
      for (const args of bad) {
        const result = await tools.execute(name, args);
        if (
          name === "list" && (args === undefined || args === null || typeof args !== "object" ||
            Array.isArray(args) || !("path" in args))
        ) continue; // `list` needs no argument
        assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
        assert.equal(result.error?.code, "FS_INVALID_ARGUMENT");
        assert.equal(result.error?.name, "FsError");
        assert.equal(result.value, undefined);
      }
    }
    // A null ctx, a ctx with junk, a symbol-keyed args object: still results.
    ok(await tools.execute("read", { file_path: "a.txt" }, null as never));
    ok(await tools.execute("read", { file_path: "a.txt" }, { cwd: "" }));
  });
});

Deno.test("C1.4 an unknown tool name is an error result", async () => {
  await withSandbox({}, async ({ root }) => {
    const tools = toolsAt(root);
    assert.deepEqual(await tools.execute("delete", { file_path: "a" }), {
      content: 'Error: unknown tool "delete"',
      isError: true,
      error: { name: "FsError", code: "FS_UNKNOWN_TOOL" },
    });
  });
});

Deno.test("C1.4 null counts as absent for every optional argument", async () => {
  await withSandbox({ "a.txt": "a\nb\na\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.equal(
      ok(await tools.execute("list", { path: null })),
      listText(".", ["a.txt"], "(1 entry: 0 directories, 1 file)"),
    );
    assert.equal(
      ok(await tools.execute("read", { file_path: "a.txt", offset: null, limit: null })),
      readText("a.txt", ["1: a", "2: b", "3: a"], "(End of file - total 3 lines)"),
    );
    assert.equal(
      ok(
        await tools.execute("edit", {
          file_path: "a.txt",
          old_string: "b",
          new_string: "B",
          replace_all: null,
        }),
      ),
      "The file a.txt has been updated successfully.",
    );
  });
});

Deno.test("C1.4 read observations are scoped to ctx.session, one default session per instance", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const fs = new LocalFileSystem({ roots: [root] });
    const one = createFsTools({ fs });
    const two = createFsTools({ fs });
    ok(await one.execute("read", { file_path: "a.txt" }));
    assert.deepEqual(failed(await two.execute("write", { file_path: "a.txt", content: "b" })), [
      'Error: cannot write "a.txt": read it first',
      "FS_NOT_OBSERVED",
    ]);
    ok(await one.execute("write", { file_path: "a.txt", content: "b" }));
    const alice = {};
    const bob = {};
    ok(await one.execute("read", { file_path: "a.txt" }, { session: alice }));
    assert.equal(
      (await one.execute("edit", { file_path: "a.txt", old_string: "b", new_string: "c" }, {
        session: bob,
      })).error?.code,
      "FS_NOT_OBSERVED",
    );
    ok(
      await one.execute("edit", { file_path: "a.txt", old_string: "b", new_string: "c" }, {
        session: alice,
      }),
    );
  });
});

Deno.test("C1.4 a session that is not an object is refused before anything is written", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    for (const session of ["alice", 42, true]) {
      for (
        const [name, args] of [["read", { file_path: "a.txt" }], ["write", {
          file_path: "b.txt",
          content: "b",
        }]] as const
      ) {
        assert.deepEqual(failed(await tools.execute(name, args, { session: session as never })), [
          `Error: ctx.session must be an object: got ${typeof session}`,
          "FS_INVALID_ARGUMENT",
        ]);
      }
    }
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["a.txt"]);
    // Any object will do, a function included.
    ok(await tools.execute("read", { file_path: "a.txt" }, { session: () => {} }));
  });
});

Deno.test("C1.5 presentCall is synchronous and touches no file", async () => {
  await withSandbox({}, ({ root }) => {
    const fs = new RecordingFs({ roots: [root] });
    const tools = createFsTools({ fs });
    const presented = tools.presentCall("read", { file_path: "missing/deep.txt", offset: 3 });
    assert.ok(!(presented instanceof Promise));
    assert.deepEqual(presented, {
      title: "Read missing/deep.txt",
      kind: "read",
      rawInput: { offset: 3 },
      locations: [{ path: join(root, "missing/deep.txt"), line: 3 }],
    });
    tools.presentCall("write", { file_path: "/etc/passwd", content: "x" });
    tools.presentCall("list", { path: "../.." });
    tools.presentCall("edit", { file_path: "a\0b", old_string: "x", new_string: "y" });
    assert.deepEqual(fs.calls, []);
    return Promise.resolve();
  });
});

Deno.test("C1.6 the tools reach files only through the provider, passing the signal", async () => {
  await withSandbox({ "a.txt": "hello\n", "d/": "" }, async ({ root }) => {
    const fs = new RecordingFs({ roots: [root] });
    const tools = createFsTools({ fs, config: { readStreamMinSize: 0 } });
    const signal = new AbortController().signal;
    ok(await tools.execute("list", {}, { signal }));
    ok(await tools.execute("read", { file_path: "a.txt" }, { signal }));
    ok(await tools.execute("write", { file_path: "a.txt", content: "hi\n" }, { signal }));
    ok(
      await tools.execute("edit", { file_path: "a.txt", old_string: "hi", new_string: "yo" }, {
        signal,
      }),
    );
    const used = new Set(fs.methods);
    for (
      const method of ["resolve", "stat", "listDir", "streamText", "writeText", "editText"]
    ) {
      assert.ok(used.has(method), `${method} not called: ${fs.methods.join(", ")}`);
    }
    assert.ok(fs.calls.every((call) => call.withSignal), JSON.stringify(fs.calls));
    const whole = new RecordingFs({ roots: [root] });
    ok(await createFsTools({ fs: whole }).execute("read", { file_path: "a.txt" }));
    assert.ok(whole.methods.includes("readText"));
    assert.ok(!whole.methods.includes("streamText"));
  });
});

// --- C2 Config --------------------------------------------------------------------------------

Deno.test("C2 the defaults are 200 entries, 2000 lines, 2000 chars, 51200 bytes, 10 MiB, 200 paths, 100 matches, no snippet", async () => {
  await withSandbox({}, ({ root }) => {
    const expected = {
      listMaxEntries: 200,
      readLimit: 2000,
      readMaxLineLength: 2000,
      readMaxBytes: 51200,
      readStreamMinSize: 10485760,
      globMaxFiles: 200,
      grepMaxMatches: 100,
      editSnippet: 0,
    };
    assert.deepEqual({ ...DEFAULT_CONFIG }, expected);
    assert.deepEqual({ ...toolsAt(root).config }, expected);
    return Promise.resolve();
  });
});

Deno.test("C2 each config key changes what one call renders", async () => {
  const files = { "d1/": "", "d2/": "", "f.txt": "abcdefgh\n12345678\nxyz\n" };
  await withSandbox(files, async ({ root }) => {
    const listed = toolsAt(root, { config: { listMaxEntries: 2 } });
    assert.equal(
      ok(await listed.execute("list", {})),
      listText(
        ".",
        ["d1/", "d2/"],
        "(Showing 2 of 3 entries: 2 directories, 1 file. Entries are directories first, then files, each alphabetical; list a subdirectory to see the rest.)",
      ),
    );
    const limited = toolsAt(root, { config: { readLimit: 2 } });
    assert.equal(
      ok(await limited.execute("read", { file_path: "f.txt" })),
      readText(
        "f.txt",
        ["1: abcdefgh", "2: 12345678"],
        "(Showing lines 1-2 of 3. Use offset=3 to continue.)",
      ),
    );
    const narrow = toolsAt(root, { config: { readMaxLineLength: 4 } });
    assert.equal(
      ok(await narrow.execute("read", { file_path: "f.txt" })),
      readText(
        "f.txt",
        [
          "1: abcd... (line truncated to 4 chars)",
          "2: 1234... (line truncated to 4 chars)",
          "3: xyz",
        ],
        "(End of file - total 3 lines)",
      ),
    );
    const small = toolsAt(root, { config: { readMaxBytes: 24 } });
    assert.equal(
      ok(await small.execute("read", { file_path: "f.txt" })),
      readText(
        "f.txt",
        ["1: abcdefgh", "2: 12345678"],
        "(Output capped. Showing lines 1-2. Use offset=3 to continue.)",
      ),
    );
    const fs = new RecordingFs({ roots: [root] });
    const streamed = createFsTools({ fs, config: { readStreamMinSize: 23 } });
    ok(await streamed.execute("read", { file_path: "f.txt" })); // 22 bytes: whole file
    assert.ok(fs.methods.includes("readText") && !fs.methods.includes("streamText"));
    await Deno.writeTextFile(join(root, "f.txt"), "abcdefgh\n12345678\nxyz\n!");
    ok(await streamed.execute("read", { file_path: "f.txt" })); // 23 bytes: streamed
    assert.ok(fs.methods.includes("streamText"));
  });
});

// --- C3 Paths and roots -----------------------------------------------------------------------

Deno.test("C3.1 a relative path resolves against ctx.cwd, else the tools' cwd", async () => {
  await withSandbox({ "a.txt": "top\n", "sub/a.txt": "sub\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.equal(
      ok(await tools.execute("read", { file_path: "a.txt" })),
      readText("a.txt", ["1: top"], "(End of file - total 1 lines)"),
    );
    assert.equal(
      ok(await tools.execute("read", { file_path: "a.txt" }, { cwd: "sub" })),
      readText("a.txt", ["1: sub"], "(End of file - total 1 lines)"),
    );
    assert.equal(
      ok(await tools.execute("read", { file_path: "a.txt" }, { cwd: join(root, "sub") })),
      readText("a.txt", ["1: sub"], "(End of file - total 1 lines)"),
    );
  });
});

Deno.test("C3.1 '~' is not expanded", async () => {
  await withSandbox({ "~/notes.txt": "tilde dir\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.equal(
      ok(await tools.execute("read", { file_path: "~/notes.txt" })),
      readText("~/notes.txt", ["1: tilde dir"], "(End of file - total 1 lines)"),
    );
    assert.equal(
      (await tools.execute("read", { file_path: "~/.bashrc" })).error?.code,
      "FS_NOT_FOUND",
    );
  });
});

/** A root beside a sibling `root_evil`, an outside file and escaping links. */
async function escapeSandbox(fn: (root: string, dir: string) => Promise<void>): Promise<void> {
  await withSandbox({ "inside.txt": "inside\n" }, async ({ dir, root }) => {
    await put(dir, { "outside.txt": "secret\n", "root_evil/secret.txt": "evil\n" });
    await Deno.symlink(join(dir, "outside.txt"), join(root, "out_abs"));
    await Deno.symlink("../outside.txt", join(root, "out_rel"));
    await Deno.symlink(join(dir, "root_evil"), join(root, "evil_dir"));
    await Deno.symlink("hop2", join(root, "hop1"));
    await Deno.symlink("hop3", join(root, "hop2"));
    await Deno.symlink("../root_evil/secret.txt", join(root, "hop3"));
    await Deno.symlink(join(dir, "not_there.txt"), join(root, "dangling_out"));
    await Deno.symlink(join(dir, "no_dir", "x.txt"), join(root, "dangling_deep"));
    await fn(root, dir);
  });
}

Deno.test("C3.2 paths escaping the root fail with FS_OUTSIDE_ROOT quoting the path as given", async () => {
  await escapeSandbox(async (root, dir) => {
    const tools = toolsAt(root);
    const escapes = [
      "../outside.txt",
      "sub/../../outside.txt",
      "./../root/../outside.txt",
      join(dir, "outside.txt"),
      "../root_evil/secret.txt",
      join(dir, "root_evil/secret.txt"),
      "out_abs",
      "out_rel",
      "evil_dir/secret.txt",
      "hop1",
      "dangling_out",
      "dangling_deep",
      "/etc/hostname",
    ];
    for (const path of escapes) {
      for (const op of ["read", "write", "edit"]) {
        const args = { file_path: path, content: "pwned\n", old_string: "secret", new_string: "x" };
        assert.deepEqual(failed(await tools.execute(op, args)), [
          `Error: cannot ${op} "${path}": outside the permitted roots`,
          "FS_OUTSIDE_ROOT",
        ], `${op} ${path}`);
      }
    }
    for (const path of ["..", "../root_evil", "evil_dir", dir, "/"]) {
      assert.deepEqual(failed(await tools.execute("list", { path })), [
        `Error: cannot list "${path}": outside the permitted roots`,
        "FS_OUTSIDE_ROOT",
      ]);
    }
    // Nothing outside changed or appeared.
    assert.equal(await Deno.readTextFile(join(dir, "outside.txt")), "secret\n");
    assert.equal(await Deno.readTextFile(join(dir, "root_evil/secret.txt")), "evil\n");
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
      ["outside.txt", "root", "root_evil"],
    );
    assert.deepEqual(
      [...Deno.readDirSync(join(dir, "root_evil"))].map((e) => e.name),
      ["secret.txt"],
    );
  });
});

Deno.test("C3.2 new files below a link that leaves the root are refused and not created", async () => {
  await escapeSandbox(async (root, dir) => {
    const tools = toolsAt(root);
    for (const path of ["evil_dir/new.txt", "evil_dir/deep/new.txt", "../root_evil/new.txt"]) {
      assert.equal(
        (await tools.execute("write", { file_path: path, content: "x" })).error?.code,
        "FS_OUTSIDE_ROOT",
      );
    }
    assert.deepEqual(
      [...Deno.readDirSync(join(dir, "root_evil"))].map((e) => e.name),
      ["secret.txt"],
    );
  });
});

Deno.test("C3.2 containment is separator-aware: root /w does not contain /w_evil or /w2", async () => {
  await withSandbox({}, async ({ dir }) => {
    await put(dir, { "w/a.txt": "w\n", "w_evil/a.txt": "evil\n", "w2/a.txt": "two\n" });
    const tools = toolsAt(join(dir, "w"));
    ok(await tools.execute("read", { file_path: join(dir, "w/a.txt") }));
    for (const path of [join(dir, "w_evil/a.txt"), join(dir, "w2/a.txt"), "../w_evil/a.txt"]) {
      assert.equal(
        (await tools.execute("read", { file_path: path })).error?.code,
        "FS_OUTSIDE_ROOT",
      );
    }
  });
});

Deno.test("C3.2 a new path inside the root is judged by its nearest existing ancestor", async () => {
  await withSandbox({ "sub/": "" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.equal(
      ok(await tools.execute("write", { file_path: "sub/x/y/z.txt", content: "z" })),
      writeText("sub/x/y/z.txt", true),
    );
    assert.equal(await Deno.readTextFile(join(root, "sub/x/y/z.txt")), "z");
  });
});

Deno.test("C3.3 write and edit under a read-only root fail with FS_READ_ONLY", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const fs = new LocalFileSystem({ roots: [{ path: root, write: false }] });
    const tools = createFsTools({ fs });
    ok(await tools.execute("read", { file_path: "a.txt" }));
    assert.deepEqual(
      failed(await tools.execute("edit", { file_path: "a.txt", old_string: "a", new_string: "b" })),
      ['Error: cannot edit "a.txt": the root is read-only', "FS_READ_ONLY"],
    );
    assert.deepEqual(failed(await tools.execute("write", { file_path: "new.txt", content: "b" })), [
      'Error: cannot write "new.txt": the root is read-only',
      "FS_READ_ONLY",
    ]);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "a\n");
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["a.txt"]);
  });
});

Deno.test("C3.4 the display path is relative to the session cwd, '.' for it, else absolute", async () => {
  await withSandbox({ "top.txt": "t\n", "sub/a.txt": "a\n" }, async ({ dir, root }) => {
    await put(dir, { "second/b.txt": "b\n" });
    const fs = new LocalFileSystem({ roots: [root, join(dir, "second")] });
    const tools = createFsTools({ fs });
    const shown = async (args: Record<string, unknown>, cwd?: string) =>
      ok(await tools.execute(args.path !== undefined ? "list" : "read", args, { cwd }))
        .split("\n")[0];
    assert.equal(await shown({ file_path: "sub/a.txt" }), "<path>sub/a.txt</path>");
    assert.equal(await shown({ file_path: "./sub/../sub/a.txt" }), "<path>sub/a.txt</path>");
    assert.equal(await shown({ file_path: join(root, "sub/a.txt") }), "<path>sub/a.txt</path>");
    assert.equal(await shown({ path: "." }), "<path>.</path>");
    assert.equal(await shown({ path: root }), "<path>.</path>");
    assert.equal(await shown({ path: "sub/" }), "<path>sub</path>");
    assert.equal(await shown({ file_path: "a.txt" }, "sub"), "<path>a.txt</path>");
    assert.equal(await shown({ file_path: "../top.txt" }, "sub"), `<path>${root}/top.txt</path>`);
    assert.equal(await shown({ path: ".." }, "sub"), `<path>${root}</path>`);
    assert.equal(
      await shown({ file_path: join(dir, "second/b.txt") }),
      `<path>${dir}/second/b.txt</path>`,
    );
    assert.equal(
      (await tools.execute("read", { file_path: "../top.txt/x" }, { cwd: "sub" })).content,
      `Error: cannot read "${root}/top.txt/x": not found`,
    );
  });
});

Deno.test("C3.5 a symlink inside the root is followed by read, write and edit; the link stays", async () => {
  await withSandbox({ "real/target.txt": "one\n" }, async ({ root }) => {
    await Deno.symlink("real/target.txt", join(root, "link.txt"));
    await Deno.symlink("real", join(root, "dirlink"));
    const tools = toolsAt(root);
    assert.equal(
      ok(await tools.execute("read", { file_path: "link.txt" })),
      readText("link.txt", ["1: one"], "(End of file - total 1 lines)"),
    );
    assert.equal(
      ok(await tools.execute("write", { file_path: "link.txt", content: "two\n" })),
      writeText("link.txt", false),
    );
    assert.equal(
      ok(
        await tools.execute("edit", {
          file_path: "dirlink/target.txt",
          old_string: "two",
          new_string: "three",
        }),
      ),
      "The file dirlink/target.txt has been updated successfully.",
    );
    assert.ok((await Deno.lstat(join(root, "link.txt"))).isSymlink);
    assert.equal(await Deno.readLink(join(root, "link.txt")), "real/target.txt");
    assert.equal(await Deno.readTextFile(join(root, "real/target.txt")), "three\n");
  });
});

Deno.test("C3.6 a NUL byte in a path is rejected before any file system call", async () => {
  await withSandbox({}, async ({ root }) => {
    const fs = new RecordingFs({ roots: [root] });
    const tools = createFsTools({ fs });
    const nul = "a\0b.txt";
    for (const op of ["read", "write", "edit"]) {
      const args = { file_path: nul, content: "", old_string: "x", new_string: "y" };
      assert.deepEqual(failed(await tools.execute(op, args)), [
        "Error: file_path must not contain a NUL byte",
        "FS_INVALID_ARGUMENT",
      ]);
    }
    assert.deepEqual(failed(await tools.execute("list", { path: "dir\0" })), [
      "Error: path must not contain a NUL byte",
      "FS_INVALID_ARGUMENT",
    ]);
    assert.deepEqual(fs.calls, []);
  });
});

Deno.test("C3.7 the display path is lexical: a link shows as the link", async () => {
  await withSandbox({ "real.txt": "r\n" }, async ({ root }) => {
    await Deno.symlink("real.txt", join(root, "alias.txt"));
    const tools = toolsAt(root);
    const result = await tools.execute("read", { file_path: "alias.txt" });
    assert.equal(result.content, readText("alias.txt", ["1: r"], "(End of file - total 1 lines)"));
    assert.equal((result.value as { path: string }).path, join(root, "alias.txt"));
  });
});

Deno.test("C3.7 with nested roots the most specific root decides whether it is writable", async () => {
  await withSandbox(
    { "a.txt": "a\n", "docs/b.txt": "b\n", "rw/c.txt": "c\n" },
    async ({ dir, root }) => {
      await Deno.symlink(join(root, "docs"), join(root, "docs_link"));
      // A writable root with a read-only root inside it.
      const fs = new LocalFileSystem({ roots: [root, { path: join(root, "docs"), write: false }] });
      const tools = createFsTools({ fs, policy: false });
      ok(await tools.execute("write", { file_path: "a.txt", content: "A\n" }));
      for (const path of ["docs/b.txt", "docs_link/b.txt", "docs/new.txt"]) {
        assert.deepEqual(failed(await tools.execute("write", { file_path: path, content: "x" })), [
          `Error: cannot write "${path}": the root is read-only`,
          "FS_READ_ONLY",
        ]);
      }
      // A read-only root with a writable root inside it.
      const inverse = createFsTools({
        fs: new LocalFileSystem({ roots: [{ path: root, write: false }, join(root, "rw")] }),
        policy: false,
      });
      ok(await inverse.execute("write", { file_path: "rw/c.txt", content: "C\n" }));
      assert.equal(
        (await inverse.execute("write", { file_path: "a.txt", content: "x" })).error?.code,
        "FS_READ_ONLY",
      );
      assert.equal(await Deno.readTextFile(join(root, "rw/c.txt")), "C\n");
      assert.equal(await Deno.readTextFile(join(root, "docs/b.txt")), "b\n");
      assert.ok(dir);
    },
  );
});

Deno.test("C3.8 checks run in order: arguments, abort, NUL, containment, read-only, existence, policy, content", async () => {
  await withSandbox(
    { "bin.dat": new Uint8Array([1, 0, 2]), "a.txt": "a\n", "d/": "" },
    async ({ root }) => {
      const tools = toolsAt(root);
      const aborted = AbortSignal.abort();
      // Argument validation before the abort, the abort before the NUL check.
      assert.equal(
        (await tools.execute("read", { file_path: "a\0", offset: 0 }, { signal: aborted })).error
          ?.code,
        "FS_INVALID_ARGUMENT",
      );
      assert.equal(
        (await tools.execute("read", { file_path: "a\0" }, { signal: aborted })).error?.code,
        "FS_ABORTED",
      );
      // NUL before containment.
      assert.equal(
        (await tools.execute("read", { file_path: "../\0" })).content,
        "Error: file_path must not contain a NUL byte",
      );
      // Containment before read-only, read-only before existence.
      const ro = createFsTools({
        fs: new LocalFileSystem({ roots: [{ path: root, write: false }] }),
      });
      assert.equal(
        (await ro.execute("write", { file_path: "../x", content: "" })).error?.code,
        "FS_OUTSIDE_ROOT",
      );
      assert.equal(
        (await ro.execute("edit", { file_path: "missing.txt", old_string: "a", new_string: "b" }))
          .error?.code,
        "FS_READ_ONLY",
      );
      // Existence and type before the policy.
      assert.deepEqual(
        failed(
          await tools.execute("edit", {
            file_path: "missing.txt",
            old_string: "a",
            new_string: "b",
          }),
        ),
        ['Error: cannot edit "missing.txt": not found', "FS_NOT_FOUND"],
      );
      assert.deepEqual(failed(await tools.execute("write", { file_path: "d", content: "x" })), [
        'Error: cannot write "d": not a regular file',
        "FS_NOT_REGULAR_FILE",
      ]);
      // The policy before the content checks (binary, match).
      assert.equal(
        (await tools.execute("edit", { file_path: "bin.dat", old_string: "a", new_string: "b" }))
          .error?.code,
        "FS_NOT_OBSERVED",
      );
      assert.equal(
        (await tools.execute("edit", { file_path: "a.txt", old_string: "zzz", new_string: "b" }))
          .error?.code,
        "FS_NOT_OBSERVED",
      );
    },
  );
});

// --- C4.1 list --------------------------------------------------------------------------------

Deno.test("C4.1 list validates path", async () => {
  await withSandbox({}, async ({ root }) => {
    const tools = toolsAt(root);
    for (const path of ["", 5, false, {}, []]) {
      assert.deepEqual(failed(await tools.execute("list", { path })), [
        "Error: path must be a non-empty string when given",
        "FS_INVALID_ARGUMENT",
      ]);
    }
  });
});

Deno.test("C4.1 list shows directories, then files, then others, each by lower-cased name", async () => {
  const files = {
    "src/": "",
    "Docs/": "",
    "a_dir/": "",
    "b.txt": "",
    "a.txt": "",
    "A.txt": "",
    "Z.md": "",
    "_x": "",
  };
  await withSandbox(files, async ({ root }) => {
    await Deno.symlink("src", join(root, "link_to_dir"));
    await Deno.symlink("b.txt", join(root, "Link_to_file"));
    const tools = toolsAt(root);
    const result = await tools.execute("list", {});
    assert.equal(
      result.content,
      listText(
        ".",
        [
          "a_dir/",
          "Docs/",
          "src/",
          "_x",
          "A.txt",
          "a.txt",
          "b.txt",
          "Z.md",
          "link_to_dir@",
          "Link_to_file@",
        ],
        "(10 entries: 3 directories, 5 files, 2 other)",
      ),
    );
    assert.deepEqual(result.value, {
      path: root,
      entries: [
        { name: "a_dir", type: "directory" },
        { name: "Docs", type: "directory" },
        { name: "src", type: "directory" },
        { name: "_x", type: "file" },
        { name: "A.txt", type: "file" },
        { name: "a.txt", type: "file" },
        { name: "b.txt", type: "file" },
        { name: "Z.md", type: "file" },
        { name: "link_to_dir", type: "other" },
        { name: "Link_to_file", type: "other" },
      ],
      total: { entries: 10, directories: 3, files: 5, other: 2 },
    });
  });
});

const fifoListTest = "C4.1 list shows a FIFO as 'name@' and counts it as other";
Deno.test({
  name: fifoListTest,
  ignore: needsRun(fifoListTest),
  async fn() {
    await withSandbox({ "f.txt": "" }, async ({ root }) => {
      await mkfifo(join(root, "pipe"));
      assert.equal(
        ok(await toolsAt(root).execute("list", {})),
        listText(".", ["f.txt", "pipe@"], "(2 entries: 0 directories, 1 file, 1 other)"),
      );
    });
  },
});

Deno.test("C4.1 list of an empty directory says (Empty directory)", async () => {
  await withSandbox({ "empty/": "" }, async ({ root }) => {
    const result = await toolsAt(root).execute("list", { path: "empty" });
    assert.equal(
      result.content,
      "<path>empty</path>\n<type>directory</type>\n<content>\n\n(Empty directory)\n</content>",
    );
    assert.deepEqual(result.value, {
      path: join(root, "empty"),
      entries: [],
      total: { entries: 0, directories: 0, files: 0, other: 0 },
    });
  });
});

Deno.test("C4.1 list footers use singulars for a count of one; 'other' never changes", async () => {
  await withSandbox(
    { "one/d/": "", "two/d/": "", "two/f": "", "three/f": "", "three/g": "" },
    async ({ root }) => {
      await Deno.symlink("f", join(root, "three/l"));
      const tools = toolsAt(root);
      const footer = async (path: string) =>
        ok(await tools.execute("list", { path })).split("\n").at(-2);
      assert.equal(await footer("one"), "(1 entry: 1 directory, 0 files)");
      assert.equal(await footer("two"), "(2 entries: 1 directory, 1 file)");
      assert.equal(await footer("three"), "(3 entries: 0 directories, 2 files, 1 other)");
      await Deno.symlink("g", join(root, "three/m"));
      assert.equal(await footer("three"), "(4 entries: 0 directories, 2 files, 2 other)");
    },
  );
});

Deno.test("C4.1 list renders only listMaxEntries and says so, counting the whole directory", async () => {
  await withSandbox(
    { "c/": "", "a/": "", "b/": "", "y.txt": "", "x.txt": "" },
    async ({ root }) => {
      await Deno.symlink("x.txt", join(root, "z"));
      const tools = toolsAt(root, { config: { listMaxEntries: 4 } });
      const result = await tools.execute("list", {});
      assert.equal(
        result.content,
        listText(
          ".",
          ["a/", "b/", "c/", "x.txt"],
          "(Showing 4 of 6 entries: 3 directories, 2 files, 1 other. Entries are directories first, then files, each alphabetical; list a subdirectory to see the rest.)",
        ),
      );
      assert.equal((result.value as { entries: unknown[] }).entries.length, 4);
      const one = toolsAt(root, { config: { listMaxEntries: 1 } });
      assert.equal(
        ok(await one.execute("list", {})).split("\n").at(-2),
        "(Showing 1 of 6 entries: 3 directories, 2 files, 1 other. Entries are directories first, then files, each alphabetical; list a subdirectory to see the rest.)",
      );
    },
  );
});

Deno.test("C4.1 list of a missing path or a file fails with not found / not a directory", async () => {
  await withSandbox({ "f.txt": "x" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.deepEqual(failed(await tools.execute("list", { path: "nope" })), [
      'Error: cannot list "nope": not found',
      "FS_NOT_FOUND",
    ]);
    assert.deepEqual(failed(await tools.execute("list", { path: "f.txt" })), [
      'Error: cannot list "f.txt": not a directory',
      "FS_NOT_DIRECTORY",
    ]);
  });
});

Deno.test("C4.1 a listing records no read observation and emits no event", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    const seen: string[] = [];
    for (const type of ["list", "read", "write", "edit"]) {
      tools.events.addEventListener(type, () => seen.push(type));
    }
    ok(await tools.execute("list", {}));
    assert.deepEqual(seen, []);
    assert.deepEqual(failed(await tools.execute("write", { file_path: "a.txt", content: "b" })), [
      'Error: cannot write "a.txt": read it first',
      "FS_NOT_OBSERVED",
    ]);
  });
});

// --- C4.2 read --------------------------------------------------------------------------------

Deno.test("C4.2 read validates file_path, offset, limit in that order", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const tools = toolsAt(root, { config: { readLimit: 50 } });
    const cases: [Record<string, unknown>, string][] = [
      [{}, "file_path must be a non-empty string"],
      [{ file_path: "", offset: 0, limit: 0 }, "file_path must be a non-empty string"],
      [{ file_path: 7 }, "file_path must be a non-empty string"],
      [{ file_path: "a.txt", offset: 0, limit: 0 }, "offset must be a positive integer"],
      [{ file_path: "a.txt", offset: -1 }, "offset must be a positive integer"],
      [{ file_path: "a.txt", offset: 1.5 }, "offset must be a positive integer"],
      [{ file_path: "a.txt", offset: "2" }, "offset must be a positive integer"],
      [{ file_path: "a.txt", limit: 0 }, "limit must be a positive integer"],
      [{ file_path: "a.txt", limit: 2.5 }, "limit must be a positive integer"],
      [{ file_path: "a.txt", limit: "10" }, "limit must be a positive integer"],
      [{ file_path: "a.txt", limit: 51 }, "limit must be less than or equal to 50"],
      [{ file_path: "missing.txt", limit: 51 }, "limit must be less than or equal to 50"],
    ];
    for (const [args, message] of cases) {
      assert.deepEqual(failed(await tools.execute("read", args)), [
        `Error: ${message}`,
        "FS_INVALID_ARGUMENT",
      ], JSON.stringify(args));
    }
    ok(await tools.execute("read", { file_path: "a.txt", limit: 50 }));
    assert.equal(
      (await toolsAt(root).execute("read", { file_path: "a.txt", limit: 2001 })).content,
      "Error: limit must be less than or equal to 2000",
    );
  });
});

Deno.test("C4.2 read splits on \\n; a final \\n ends the last line; \\r before \\n and the BOM are hidden", async () => {
  const files = {
    "lf.txt": "a\nb\n",
    "open.txt": "a\nb",
    "blank.txt": "a\n\n",
    "crlf.txt": "a\r\nb\r\n",
    "cr.txt": "x\ry\n\r",
    "bom.txt": concat(BOM, "first\nsecond\n"),
    "bom2.txt": concat(BOM, "\uFEFFinner\n"),
    "empty.txt": "",
    "nl.txt": "\n",
  };
  await withSandbox(files, async ({ root }) => {
    const tools = toolsAt(root);
    const lines = async (file_path: string) =>
      ((await tools.execute("read", { file_path })).value as { lines: { text: string }[] }).lines
        .map((line) => line.text);
    assert.deepEqual(await lines("lf.txt"), ["a", "b"]);
    assert.deepEqual(await lines("open.txt"), ["a", "b"]);
    assert.deepEqual(await lines("blank.txt"), ["a", ""]);
    assert.deepEqual(await lines("crlf.txt"), ["a", "b"]);
    assert.deepEqual(await lines("cr.txt"), ["x\ry", "\r"]);
    assert.deepEqual(await lines("bom.txt"), ["first", "second"]);
    assert.deepEqual(await lines("bom2.txt"), ["\uFEFFinner"]);
    assert.deepEqual(await lines("nl.txt"), [""]);
    assert.equal(
      ok(await tools.execute("read", { file_path: "empty.txt" })),
      "<path>empty.txt</path>\n<type>file</type>\n<content>\n\n(End of file - total 0 lines)\n</content>",
    );
    assert.equal(
      ok(await tools.execute("read", { file_path: "crlf.txt" })),
      readText("crlf.txt", ["1: a", "2: b"], "(End of file - total 2 lines)"),
    );
  });
});

Deno.test("C4.2 read decodes invalid UTF-8 to U+FFFD", async () => {
  const bytes = concat(
    "ok ",
    new Uint8Array([0xff]),
    " ",
    new Uint8Array([0xc3]),
    "\n",
    new Uint8Array([0xe2, 0x82]),
  );
  await withSandbox({ "bad.txt": bytes }, async ({ root }) => {
    assert.equal(
      ok(await toolsAt(root).execute("read", { file_path: "bad.txt" })),
      readText("bad.txt", ["1: ok \uFFFD \uFFFD", "2: \uFFFD"], "(End of file - total 2 lines)"),
    );
  });
});

Deno.test("C4.2 a NUL byte in the first 8 KiB makes a binary file; one after it does not", async () => {
  const early = new Uint8Array(8192).fill(0x61);
  early[8191] = 0;
  const late = new Uint8Array(8193).fill(0x61);
  late[8192] = 0;
  await withSandbox({ "early.bin": early, "late.txt": late }, async ({ root }) => {
    for (const config of [{}, { readStreamMinSize: 0 }]) {
      const tools = toolsAt(root, { config });
      assert.deepEqual(failed(await tools.execute("read", { file_path: "early.bin" })), [
        'Error: cannot read "early.bin": binary file',
        "FS_BINARY",
      ]);
      const result = await tools.execute("read", { file_path: "late.txt" });
      assert.equal(result.isError, false);
      assert.equal((result.value as { totalLines: number }).totalLines, 1);
    }
  });
});

Deno.test("C4.2 read shows lines offset..offset+limit-1 and says where to continue", async () => {
  await withSandbox({ "five.txt": "1\n2\n3\n4\n5\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    const result = await tools.execute("read", { file_path: "five.txt", offset: 2, limit: 2 });
    assert.equal(
      result.content,
      readText("five.txt", ["2: 2", "3: 3"], "(Showing lines 2-3 of 5. Use offset=4 to continue.)"),
    );
    assert.deepEqual(result.value, {
      path: join(root, "five.txt"),
      offset: 2,
      lines: [{ number: 2, text: "2" }, { number: 3, text: "3" }],
      totalLines: 5,
    });
    assert.equal(
      ok(await tools.execute("read", { file_path: "five.txt", offset: 4, limit: 2 })),
      readText("five.txt", ["4: 4", "5: 5"], "(End of file - total 5 lines)"),
    );
    assert.equal(
      ok(await tools.execute("read", { file_path: "five.txt", offset: 5 })),
      readText("five.txt", ["5: 5"], "(End of file - total 5 lines)"),
    );
  });
});

Deno.test("C4.2 read truncates a line to readMaxLineLength code points with a marker", async () => {
  const files = {
    "long.txt": "abcdefgh\nabcde\n😀😀😀😀😀😀\ne\u0301\u0300e\u0301\u0300e\u0301\u0300\n",
  };
  await withSandbox(files, async ({ root }) => {
    const tools = toolsAt(root, { config: { readMaxLineLength: 5 } });
    const result = await tools.execute("read", { file_path: "long.txt" });
    assert.equal(
      result.content,
      readText("long.txt", [
        "1: abcde... (line truncated to 5 chars)",
        "2: abcde",
        "3: 😀😀😀😀😀... (line truncated to 5 chars)",
        "4: e\u0301\u0300e\u0301... (line truncated to 5 chars)",
      ], "(End of file - total 4 lines)"),
    );
    assert.equal(
      (result.value as { lines: { text: string }[] }).lines[0].text,
      "abcde... (line truncated to 5 chars)",
    );
  });
});

Deno.test("C4.2 read shows 'Output capped' when the byte cap ends the window", async () => {
  // Rendered with their \n, lines 1 and 2 cost 9 bytes each, "3: éé" 8 and "4: dddd" 8: 34 in all.
  await withSandbox({ "f.txt": "aaaaa\nbbbbb\néé\ndddd\n" }, async ({ root }) => {
    const at = (readMaxBytes: number) => toolsAt(root, { config: { readMaxBytes } });
    const capped = await at(26).execute("read", { file_path: "f.txt" });
    assert.equal(
      capped.content,
      readText(
        "f.txt",
        ["1: aaaaa", "2: bbbbb", "3: éé"],
        "(Output capped. Showing lines 1-3. Use offset=4 to continue.)",
      ),
    );
    assert.deepEqual(capped.value, {
      path: join(root, "f.txt"),
      offset: 1,
      lines: [{ number: 1, text: "aaaaa" }, { number: 2, text: "bbbbb" }, {
        number: 3,
        text: "éé",
      }],
    });
    // Exactly at the cap: everything fits.
    assert.equal(
      ok(await at(34).execute("read", { file_path: "f.txt" })).split("\n").at(-2),
      "(End of file - total 4 lines)",
    );
    assert.equal(
      ok(await at(33).execute("read", { file_path: "f.txt" })).split("\n").at(-2),
      "(Output capped. Showing lines 1-3. Use offset=4 to continue.)",
    );
    // The first line of a window is always rendered.
    assert.equal(
      ok(await at(1).execute("read", { file_path: "f.txt", offset: 2 })),
      readText(
        "f.txt",
        ["2: bbbbb"],
        "(Output capped. Showing lines 2-2. Use offset=3 to continue.)",
      ),
    );
    assert.equal(
      ok(await at(1).execute("read", { file_path: "f.txt", offset: 4 })),
      readText("f.txt", ["4: dddd"], "(End of file - total 4 lines)"),
    );
    // The cap wins over 'more lines after the window'.
    assert.equal(
      ok(await at(9).execute("read", { file_path: "f.txt", limit: 3 })).split("\n").at(-2),
      "(Output capped. Showing lines 1-1. Use offset=2 to continue.)",
    );
  });
});

Deno.test("C4.2 an offset past the last line fails with FS_OFFSET_OUT_OF_RANGE", async () => {
  await withSandbox({ "three.txt": "a\nb\nc\n", "empty.txt": "" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.deepEqual(failed(await tools.execute("read", { file_path: "three.txt", offset: 4 })), [
      'Error: offset 4 is out of range for "three.txt" (3 lines)',
      "FS_OFFSET_OUT_OF_RANGE",
    ]);
    ok(await tools.execute("read", { file_path: "empty.txt", offset: 1 }));
    assert.deepEqual(failed(await tools.execute("read", { file_path: "empty.txt", offset: 2 })), [
      'Error: offset 2 is out of range for "empty.txt" (0 lines)',
      "FS_OFFSET_OUT_OF_RANGE",
    ]);
    const streamed = toolsAt(root, { config: { readStreamMinSize: 0 } });
    assert.equal(
      (await streamed.execute("read", { file_path: "three.txt", offset: 9 })).content,
      'Error: offset 9 is out of range for "three.txt" (3 lines)',
    );
  });
});

Deno.test("C4.2 read of a missing file or a directory fails with not found / not a regular file", async () => {
  await withSandbox({ "d/": "" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.deepEqual(failed(await tools.execute("read", { file_path: "nope.txt" })), [
      'Error: cannot read "nope.txt": not found',
      "FS_NOT_FOUND",
    ]);
    assert.deepEqual(failed(await tools.execute("read", { file_path: "d" })), [
      'Error: cannot read "d": not a regular file',
      "FS_NOT_REGULAR_FILE",
    ]);
  });
});

const fifoTest =
  "C4.2 a FIFO is never opened: read, write and edit fail at once with not a regular file";
Deno.test({
  name: fifoTest,
  ignore: needsRun(fifoTest),
  async fn() {
    await withSandbox({}, async ({ root }) => {
      await mkfifo(join(root, "pipe"));
      await Deno.symlink("pipe", join(root, "pipe_link"));
      for (const config of [{}, { readStreamMinSize: 0 }]) {
        const tools = toolsAt(root, { config, policy: false });
        for (const path of ["pipe", "pipe_link"]) {
          for (const op of ["read", "write", "edit"]) {
            const args = { file_path: path, content: "x", old_string: "a", new_string: "b" };
            // A hang here would time the test out: nothing ever writes to the FIFO.
            assert.deepEqual(failed(await tools.execute(op, args)), [
              `Error: cannot ${op} "${path}": not a regular file`,
              "FS_NOT_REGULAR_FILE",
            ]);
          }
        }
      }
      assert.ok((await Deno.lstat(join(root, "pipe"))).isFifo);
    });
  },
});

Deno.test("C4.2 files at readStreamMinSize or more are streamed with identical results", async () => {
  const text = Array.from({ length: 300 }, (_, i) => `line ${i} ${"é😀x".repeat(i % 7)}\r`).join(
    "\n",
  );
  await withSandbox({ "big.txt": concat(BOM, text) }, async ({ root }) => {
    const whole = toolsAt(root);
    const streamed = toolsAt(root, { config: { readStreamMinSize: 0 } }, { chunkSize: 5 });
    for (const args of [{}, { offset: 100, limit: 20 }, { offset: 300 }, { limit: 1 }]) {
      const a = await whole.execute("read", { file_path: "big.txt", ...args });
      const b = await streamed.execute("read", { file_path: "big.txt", ...args });
      assert.deepEqual(b, a);
    }
  });
});

Deno.test("C4.2 a successful read records an observation for the session", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.equal(
      (await tools.execute("write", { file_path: "a.txt", content: "b" })).error?.code,
      "FS_NOT_OBSERVED",
    );
    ok(await tools.execute("read", { file_path: "a.txt" }));
    ok(await tools.execute("write", { file_path: "a.txt", content: "b" }));
  });
});

// --- C4.3 write -------------------------------------------------------------------------------

Deno.test("C4.3 write validates file_path and content", async () => {
  await withSandbox({}, async ({ root }) => {
    const tools = toolsAt(root);
    const cases: [Record<string, unknown>, string][] = [
      [{ content: "x" }, "file_path must be a non-empty string"],
      [{ file_path: "", content: 5 }, "file_path must be a non-empty string"],
      [{ file_path: "a.txt" }, "content must be a string"],
      [{ file_path: "a.txt", content: null }, "content must be a string"],
      [{ file_path: "a.txt", content: ["x"] }, "content must be a string"],
    ];
    for (const [args, message] of cases) {
      assert.deepEqual(failed(await tools.execute("write", args)), [
        `Error: ${message}`,
        "FS_INVALID_ARGUMENT",
      ]);
    }
    assert.deepEqual([...Deno.readDirSync(root)], []);
  });
});

Deno.test("C4.3 write creates missing parents and says 'Created file' then 'Updated file'", async () => {
  await withSandbox({}, async ({ root }) => {
    const tools = toolsAt(root);
    const created = await tools.execute("write", { file_path: "a/b/c.txt", content: "one\n" });
    assert.equal(created.content, writeText("a/b/c.txt", true));
    assert.deepEqual(created.value, {
      path: join(root, "a/b/c.txt"),
      operation: "create",
      before: null,
      after: "one\n",
    });
    const updated = await tools.execute("write", { file_path: "a/b/c.txt", content: "two\n" });
    assert.equal(
      updated.content,
      "<path>a/b/c.txt</path>\n<type>file</type>\n<content>\nUpdated file\n</content>",
    );
    assert.deepEqual(updated.value, {
      path: join(root, "a/b/c.txt"),
      operation: "update",
      before: "one\n",
      after: "two\n",
    });
    assert.equal(await Deno.readTextFile(join(root, "a/b/c.txt")), "two\n");
    assert.deepEqual(await tempFiles(root), []);
  });
});

Deno.test("C4.3 write keeps an existing file's permission bits", async () => {
  await withSandbox({ "a.sh": "#!/bin/sh\n" }, async ({ root }) => {
    const path = join(root, "a.sh");
    await Deno.chmod(path, 0o640);
    const tools = toolsAt(root, { policy: false });
    ok(await tools.execute("write", { file_path: "a.sh", content: "echo hi\n" }));
    assert.equal((await Deno.stat(path)).mode! & 0o7777, 0o640);
    await Deno.chmod(path, 0o755);
    ok(await tools.execute("edit", { file_path: "a.sh", old_string: "hi", new_string: "ho" }));
    assert.equal((await Deno.stat(path)).mode! & 0o7777, 0o755);
    assert.equal(await Deno.readTextFile(path), "echo ho\n");
  });
});

Deno.test("C4.3 write records an observation at the new version", async () => {
  await withSandbox({}, async ({ root }) => {
    const tools = toolsAt(root);
    ok(await tools.execute("write", { file_path: "a.txt", content: "1" }));
    ok(await tools.execute("write", { file_path: "a.txt", content: "22" }));
    ok(await tools.execute("edit", { file_path: "a.txt", old_string: "22", new_string: "333" }));
    await Deno.writeTextFile(join(root, "a.txt"), "4444");
    assert.equal(
      (await tools.execute("write", { file_path: "a.txt", content: "5" })).error?.code,
      "FS_STALE",
    );
  });
});

Deno.test("C4.3 write below a parent that is a file fails with FS_NOT_DIRECTORY", async () => {
  await withSandbox({ "f.txt": "x" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.deepEqual(
      failed(await tools.execute("write", { file_path: "f.txt/a/b.txt", content: "y" })),
      [
        'Error: cannot write "f.txt/a/b.txt": a parent is not a directory',
        "FS_NOT_DIRECTORY",
      ],
    );
    assert.equal(await Deno.readTextFile(join(root, "f.txt")), "x");
  });
});

// --- C4.4 edit --------------------------------------------------------------------------------

Deno.test("C4.4 edit validates its arguments in order", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    const cases: [Record<string, unknown>, string][] = [
      [{ old_string: "", new_string: 1 }, "file_path must be a non-empty string"],
      [
        { file_path: "a.txt", old_string: "", new_string: 1 },
        "old_string must be a non-empty string",
      ],
      [{ file_path: "a.txt", new_string: "b" }, "old_string must be a non-empty string"],
      [{ file_path: "a.txt", old_string: "a", new_string: 1 }, "new_string must be a string"],
      [{ file_path: "a.txt", old_string: "a" }, "new_string must be a string"],
      [
        { file_path: "a.txt", old_string: "a", new_string: "a", replace_all: "yes" },
        "replace_all must be a boolean when given",
      ],
      [
        { file_path: "a.txt", old_string: "a", new_string: "a" },
        "old_string and new_string must differ",
      ],
    ];
    for (const [args, message] of cases) {
      assert.deepEqual(failed(await tools.execute("edit", args)), [
        `Error: ${message}`,
        "FS_INVALID_ARGUMENT",
      ]);
    }
  });
});

Deno.test("C4.4 edit is literal: no regular expressions, '$&', '$1', '$$' inserted as typed", async () => {
  await withSandbox({ "a.txt": "price: a.c abc (x)\n" }, async ({ root }) => {
    const tools = toolsAt(root, { policy: false });
    assert.equal(
      (await tools.execute("edit", {
        file_path: "a.txt",
        old_string: "a.c",
        new_string: "[$&|$1|$$|$'|$`]",
      })).content,
      "The file a.txt has been updated successfully.",
    );
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "price: [$&|$1|$$|$'|$`] abc (x)\n");
    ok(await tools.execute("edit", { file_path: "a.txt", old_string: "(x)", new_string: "$0" }));
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "price: [$&|$1|$$|$'|$`] abc $0\n");
    assert.equal(
      (await tools.execute("edit", { file_path: "a.txt", old_string: "a.*c", new_string: "x" }))
        .error?.code,
      "FS_NO_MATCH",
    );
  });
});

Deno.test("C4.4 in a CRLF file an LF old_string matches and the replacement is written with CRLF", async () => {
  await withSandbox(
    { "w.txt": "one\r\ntwo\r\nthree\r\n", "mixed.txt": "a\r\nb\nc\nd\n" },
    async ({ root }) => {
      const tools = toolsAt(root);
      ok(await tools.execute("read", { file_path: "w.txt" }));
      const result = await tools.execute("edit", {
        file_path: "w.txt",
        old_string: "one\ntwo",
        new_string: "1\n2\n2.5",
      });
      assert.equal(result.content, "The file w.txt has been updated successfully.");
      assert.equal(await Deno.readTextFile(join(root, "w.txt")), "1\r\n2\r\n2.5\r\nthree\r\n");
      assert.deepEqual(result.value, {
        path: join(root, "w.txt"),
        before: "one\r\ntwo\r\nthree\r\n",
        after: "1\r\n2\r\n2.5\r\nthree\r\n",
      });
      // Where bare \n breaks are the majority, an LF old_string does not match a CRLF break.
      ok(await tools.execute("read", { file_path: "mixed.txt" }));
      assert.deepEqual(
        failed(
          await tools.execute("edit", {
            file_path: "mixed.txt",
            old_string: "a\nb",
            new_string: "x",
          }),
        ),
        ['Error: old_string was not found in "mixed.txt"', "FS_NO_MATCH"],
      );
      ok(
        await tools.execute("edit", {
          file_path: "mixed.txt",
          old_string: "b\nc",
          new_string: "B\nC",
        }),
      );
      assert.equal(await Deno.readTextFile(join(root, "mixed.txt")), "a\r\nB\nC\nd\n");
    },
  );
});

Deno.test("C4.4 edit keeps a BOM and invalid UTF-8 outside the replacement byte for byte", async () => {
  const before = concat(
    BOM,
    "head ",
    new Uint8Array([0xff, 0xfe, 0xc3]),
    "\nmiddle\ntail ",
    new Uint8Array([0x80]),
  );
  await withSandbox({ "odd.txt": before }, async ({ root }) => {
    const tools = toolsAt(root);
    ok(await tools.execute("read", { file_path: "odd.txt" }));
    const result = await tools.execute("edit", {
      file_path: "odd.txt",
      old_string: "middle",
      new_string: "MIDDLE",
    });
    assert.equal(result.content, "The file odd.txt has been updated successfully.");
    const expected = concat(
      BOM,
      "head ",
      new Uint8Array([0xff, 0xfe, 0xc3]),
      "\nMIDDLE\ntail ",
      new Uint8Array([0x80]),
    );
    assert.deepEqual(await Deno.readFile(join(root, "odd.txt")), expected);
    assert.deepEqual(result.value, {
      path: join(root, "odd.txt"),
      before: "head \uFFFD\uFFFD\uFFFD\nmiddle\ntail \uFFFD",
      after: "head \uFFFD\uFFFD\uFFFD\nMIDDLE\ntail \uFFFD",
    });
  });
});

Deno.test("C4.4 edit reports no match, an ambiguous match, and replaces all with replace_all", async () => {
  await withSandbox({ "a.txt": "x = 1\nx = 1\nx = 1\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    ok(await tools.execute("read", { file_path: "a.txt" }));
    assert.deepEqual(
      failed(
        await tools.execute("edit", {
          file_path: "a.txt",
          old_string: "y = 1",
          new_string: "y = 2",
        }),
      ),
      ['Error: old_string was not found in "a.txt"', "FS_NO_MATCH"],
    );
    assert.deepEqual(
      failed(
        await tools.execute("edit", {
          file_path: "a.txt",
          old_string: "x = 1",
          new_string: "x = 2",
        }),
      ),
      [
        'Error: old_string matches 3 times in "a.txt"; add surrounding context to make it unique or set replace_all to true',
        "FS_AMBIGUOUS_MATCH",
      ],
    );
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "x = 1\nx = 1\nx = 1\n");
    const all = await tools.execute("edit", {
      file_path: "a.txt",
      old_string: "x = 1",
      new_string: "x = 2",
      replace_all: true,
    });
    assert.equal(
      all.content,
      "The file a.txt has been updated. All occurrences were successfully replaced.",
    );
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "x = 2\nx = 2\nx = 2\n");
    // replace_all with a single occurrence still uses the replace-all text.
    assert.equal(
      ok(
        await tools.execute("edit", {
          file_path: "a.txt",
          old_string: "x = 2\nx",
          new_string: "y",
          replace_all: true,
        }),
      ),
      "The file a.txt has been updated. All occurrences were successfully replaced.",
    );
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "y = 2\nx = 2\n");
  });
});

Deno.test("C4.4 edit of a missing file, a directory, a binary file or below a file", async () => {
  await withSandbox(
    { "d/": "", "bin": new Uint8Array([0x61, 0, 0x62]), "f.txt": "f" },
    async ({ root }) => {
      const tools = toolsAt(root, { policy: false });
      const edit = (file_path: string) =>
        tools.execute("edit", { file_path, old_string: "a", new_string: "b" });
      assert.deepEqual(failed(await edit("nope.txt")), [
        'Error: cannot edit "nope.txt": not found',
        "FS_NOT_FOUND",
      ]);
      assert.deepEqual(failed(await edit("d")), [
        'Error: cannot edit "d": not a regular file',
        "FS_NOT_REGULAR_FILE",
      ]);
      assert.deepEqual(failed(await edit("bin")), [
        'Error: cannot edit "bin": binary file',
        "FS_BINARY",
      ]);
      assert.deepEqual(failed(await edit("f.txt/x")), [
        'Error: cannot edit "f.txt/x": not found',
        "FS_NOT_FOUND",
      ]);
      assert.deepEqual(await Deno.readFile(join(root, "bin")), new Uint8Array([0x61, 0, 0x62]));
      assert.deepEqual(await tempFiles(root), []);
    },
  );
});

Deno.test("C4.4 edit records an observation at the new version", async () => {
  await withSandbox({ "a.txt": "one two\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    ok(await tools.execute("read", { file_path: "a.txt" }));
    ok(await tools.execute("edit", { file_path: "a.txt", old_string: "one", new_string: "1" }));
    ok(await tools.execute("edit", { file_path: "a.txt", old_string: "two", new_string: "2" }));
    ok(await tools.execute("write", { file_path: "a.txt", content: "3\n" }));
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "3\n");
  });
});

// --- C5 Read-before-write ---------------------------------------------------------------------

Deno.test("C5.1 overwriting needs a read at the current version; creating needs none", async () => {
  await withSandbox({ "old.txt": "old\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.equal(
      ok(await tools.execute("write", { file_path: "fresh.txt", content: "new\n" })),
      writeText("fresh.txt", true),
    );
    assert.deepEqual(failed(await tools.execute("write", { file_path: "old.txt", content: "x" })), [
      'Error: cannot write "old.txt": read it first',
      "FS_NOT_OBSERVED",
    ]);
    ok(await tools.execute("read", { file_path: "old.txt" }));
    await Deno.writeTextFile(join(root, "old.txt"), "changed by someone else\n");
    assert.deepEqual(failed(await tools.execute("write", { file_path: "old.txt", content: "x" })), [
      'Error: cannot write "old.txt": it changed since it was last read; read it again',
      "FS_STALE",
    ]);
    assert.equal(await Deno.readTextFile(join(root, "old.txt")), "changed by someone else\n");
    ok(await tools.execute("read", { file_path: "old.txt" }));
    ok(await tools.execute("write", { file_path: "old.txt", content: "x" }));
  });
});

/** The default policy, except that it creates the file right after approving a create. */
class AppearingFilePolicy implements FsPolicy {
  #inner = new ReadBeforeWritePolicy();
  async writeIntent(intent: FsIntent): Promise<FsPrecondition> {
    const precondition = this.#inner.writeIntent(intent);
    if (!intent.exists) await Deno.writeTextFile(intent.realPath, "theirs\n");
    return precondition;
  }
  editIntent(intent: FsIntent): FsPrecondition {
    return this.#inner.editIntent(intent);
  }
  observed(observation: FsObservation): void {
    this.#inner.observed(observation);
  }
}

Deno.test("C5.1 a file that appears between the check and the create fails with FS_EXISTS", async () => {
  await withSandbox({}, async ({ root }) => {
    const tools = toolsAt(root, { policy: new AppearingFilePolicy() });
    assert.deepEqual(
      failed(await tools.execute("write", { file_path: "new.txt", content: "mine\n" })),
      [
        'Error: cannot write "new.txt": it was created meanwhile; read it first',
        "FS_EXISTS",
      ],
    );
    assert.equal(await Deno.readTextFile(join(root, "new.txt")), "theirs\n");
    assert.deepEqual(await tempFiles(root), []);
  });
});

Deno.test("C5.2 edit needs a read observation of any window at the current version", async () => {
  await withSandbox({ "a.txt": "1\n2\n3\n4\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.deepEqual(
      failed(
        await tools.execute("edit", { file_path: "a.txt", old_string: "1", new_string: "one" }),
      ),
      ['Error: cannot edit "a.txt": read it first', "FS_NOT_OBSERVED"],
    );
    ok(await tools.execute("read", { file_path: "a.txt", offset: 4, limit: 1 }));
    ok(await tools.execute("edit", { file_path: "a.txt", old_string: "1", new_string: "one" }));
    await Deno.writeTextFile(join(root, "a.txt"), "one\n2\n3\n4\n5\n");
    assert.deepEqual(
      failed(
        await tools.execute("edit", { file_path: "a.txt", old_string: "2", new_string: "two" }),
      ),
      ['Error: cannot edit "a.txt": it changed since it was last read; read it again', "FS_STALE"],
    );
  });
});

Deno.test("C5.3 the never-read and changed-since-read messages name the operation and path", async () => {
  await withSandbox({ "sub/a.txt": "a\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    assert.equal(
      (await tools.execute("write", { file_path: "sub/a.txt", content: "b" })).content,
      'Error: cannot write "sub/a.txt": read it first',
    );
    assert.equal(
      (await tools.execute("edit", { file_path: "a.txt", old_string: "a", new_string: "b" }, {
        cwd: "sub",
      })).content,
      'Error: cannot edit "a.txt": read it first',
    );
    ok(await tools.execute("read", { file_path: "sub/a.txt" }));
    await Deno.writeTextFile(join(root, "sub/a.txt"), "z\n");
    assert.equal(
      (await tools.execute("edit", { file_path: "a.txt", old_string: "z", new_string: "b" }, {
        cwd: "sub",
      })).content,
      'Error: cannot edit "a.txt": it changed since it was last read; read it again',
    );
  });
});

Deno.test("C5.4 a list never counts as a read; a session's own write and edit do", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    ok(await tools.execute("list", {}));
    assert.equal(
      (await tools.execute("edit", { file_path: "a.txt", old_string: "a", new_string: "b" })).error
        ?.code,
      "FS_NOT_OBSERVED",
    );
    ok(await tools.execute("write", { file_path: "b.txt", content: "b\n" }));
    ok(await tools.execute("edit", { file_path: "b.txt", old_string: "b", new_string: "c" }));
    ok(await tools.execute("write", { file_path: "b.txt", content: "d\n" }));
  });
});

Deno.test("C5.5 20 concurrent edits of one file by one session all land", async () => {
  const text = Array.from({ length: 20 }, (_, i) => `slot ${i}: todo`).join("\n") + "\n";
  await withSandbox({ "slots.txt": text }, async ({ root }) => {
    const tools = toolsAt(root);
    ok(await tools.execute("read", { file_path: "slots.txt" }));
    const results = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) =>
          tools.execute("edit", {
            file_path: "slots.txt",
            old_string: `slot ${i}: todo`,
            new_string: `slot ${i}: done`,
          }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.content),
      Array(20).fill("The file slots.txt has been updated successfully."),
    );
    assert.equal(
      await Deno.readTextFile(join(root, "slots.txt")),
      Array.from({ length: 20 }, (_, i) => `slot ${i}: done`).join("\n") + "\n",
    );
    assert.deepEqual(await tempFiles(root), []);
  });
});

Deno.test("C5.5 two sessions racing on one file never lose an update", async () => {
  await withSandbox({ "a.txt": "alpha beta\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    const alice = {};
    const bob = {};
    ok(await tools.execute("read", { file_path: "a.txt" }, { session: alice }));
    ok(await tools.execute("read", { file_path: "a.txt" }, { session: bob }));
    const [a, b] = await Promise.all([
      tools.execute("edit", { file_path: "a.txt", old_string: "alpha", new_string: "ALPHA" }, {
        session: alice,
      }),
      tools.execute("edit", { file_path: "a.txt", old_string: "beta", new_string: "BETA" }, {
        session: bob,
      }),
    ]);
    assert.deepEqual([a.isError, b.isError].sort(), [false, true]);
    const loser = a.isError ? a : b;
    assert.equal(
      loser.content,
      'Error: cannot edit "a.txt": it changed since it was last read; read it again',
    );
    const text = await Deno.readTextFile(join(root, "a.txt"));
    assert.equal(text, a.isError ? "alpha BETA\n" : "ALPHA beta\n");
  });
});

Deno.test("C5.5 concurrent edits with policy false are serialized and all land", async () => {
  const text = Array.from({ length: 20 }, (_, i) => `[${i}]`).join("");
  await withSandbox({ "a.txt": text }, async ({ root }) => {
    const fs = new LocalFileSystem({ roots: [root] });
    // Two tool sets over one provider: the provider's lock alone must serialize them.
    const one = createFsTools({ fs, policy: false });
    const two = createFsTools({ fs, policy: false });
    const results = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) =>
          (i % 2 ? one : two).execute("edit", {
            file_path: "a.txt",
            old_string: `[${i}]`,
            new_string: `<${i}>`,
          }),
      ),
    );
    assert.ok(results.every((r) => !r.isError), results.map((r) => r.content).join("\n"));
    assert.equal(
      await Deno.readTextFile(join(root, "a.txt")),
      Array.from({ length: 20 }, (_, i) => `<${i}>`).join(""),
    );
  });
});

Deno.test("C5.6 with policy false writes and edits are unconditional", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const tools = toolsAt(root, { policy: false });
    ok(await tools.execute("edit", { file_path: "a.txt", old_string: "a", new_string: "b" }));
    await Deno.writeTextFile(join(root, "a.txt"), "changed\n");
    ok(await tools.execute("write", { file_path: "a.txt", content: "c\n" }));
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "c\n");
  });
});

Deno.test("C5.7 the version changes with content even when size and mtime are put back", async () => {
  await withSandbox({ "a.txt": "aaaa\n" }, async ({ root }) => {
    const path = join(root, "a.txt");
    const tools = toolsAt(root);
    ok(await tools.execute("read", { file_path: "a.txt" }));
    const { mtime, atime } = await Deno.stat(path);
    // Same size, same inode (rewritten in place), mtime restored.
    await Deno.writeTextFile(path, "bbbb\n");
    await Deno.utime(path, atime!, mtime!);
    const now = await Deno.stat(path);
    assert.equal(now.mtime?.getTime(), mtime?.getTime());
    assert.equal(now.size, 5);
    assert.deepEqual(
      failed(await tools.execute("write", { file_path: "a.txt", content: "mine\n" })),
      [
        'Error: cannot write "a.txt": it changed since it was last read; read it again',
        "FS_STALE",
      ],
    );
    assert.equal(await Deno.readTextFile(path), "bbbb\n");
  });
});

Deno.test("C5.7 the version changes with identity, size or mtime alone", async () => {
  await withSandbox({ "a.txt": "same\n", "b.txt": "same\n" }, async ({ root }) => {
    const path = join(root, "a.txt");
    const tools = toolsAt(root);
    const stale = async () =>
      (await tools.execute("edit", { file_path: "a.txt", old_string: "same", new_string: "mine" }))
        .error?.code;
    // Identity: another file with the same bytes and mtime moved into place.
    ok(await tools.execute("read", { file_path: "a.txt" }));
    const info = await Deno.stat(path);
    await Deno.utime(join(root, "b.txt"), info.atime!, info.mtime!);
    await Deno.rename(join(root, "b.txt"), path);
    assert.equal(await stale(), "FS_STALE");
    // mtime alone.
    ok(await tools.execute("read", { file_path: "a.txt" }));
    await Deno.utime(path, new Date(2001, 1, 1), new Date(2001, 1, 1));
    assert.equal(await stale(), "FS_STALE");
    // Nothing changed: the edit goes through.
    ok(await tools.execute("read", { file_path: "a.txt" }));
    ok(await tools.execute("read", { file_path: "a.txt" }));
    assert.equal(await stale(), undefined);
  });
});

// --- C6 Structured values ---------------------------------------------------------------------

Deno.test("C6 values carry absolute lexical paths and text without a BOM", async () => {
  await withSandbox({ "real.txt": concat(BOM, "x\n") }, async ({ root }) => {
    await Deno.symlink("real.txt", join(root, "link.txt"));
    const tools = toolsAt(root);
    const read = await tools.execute("read", { file_path: "link.txt" });
    assert.deepEqual(read.value, {
      path: join(root, "link.txt"),
      offset: 1,
      lines: [{ number: 1, text: "x" }],
      totalLines: 1,
    });
    const write = await tools.execute("write", { file_path: "link.txt", content: "\uFEFFy\n" });
    assert.deepEqual(write.value, {
      path: join(root, "link.txt"),
      operation: "update",
      before: "x\n",
      after: "y\n",
    });
    const edit = await tools.execute("edit", {
      file_path: "link.txt",
      old_string: "y",
      new_string: "z",
    });
    assert.deepEqual(edit.value, { path: join(root, "link.txt"), before: "y\n", after: "z\n" });
    assert.deepEqual(await Deno.readFile(join(root, "real.txt")), concat(BOM, "z\n"));
  });
});

// --- C7 Errors --------------------------------------------------------------------------------

Deno.test("C7.1 a failure is exactly 'Error: <message>' with { name: 'FsError', code }", async () => {
  await withSandbox({}, async ({ root }) => {
    const result = await toolsAt(root).execute("read", { file_path: "x.txt" });
    assert.deepEqual(result, {
      content: 'Error: cannot read "x.txt": not found',
      isError: true,
      error: { name: "FsError", code: "FS_NOT_FOUND" },
    });
  });
});

Deno.test("C7.1 a parent that is a file makes read, list and edit report not found", async () => {
  await withSandbox({ "f.txt": "x" }, async ({ root }) => {
    const tools = toolsAt(root, { policy: false });
    assert.deepEqual(failed(await tools.execute("read", { file_path: "f.txt/a" })), [
      'Error: cannot read "f.txt/a": not found',
      "FS_NOT_FOUND",
    ]);
    assert.deepEqual(failed(await tools.execute("list", { path: "f.txt/a" })), [
      'Error: cannot list "f.txt/a": not found',
      "FS_NOT_FOUND",
    ]);
    assert.deepEqual(
      failed(
        await tools.execute("edit", { file_path: "f.txt/a", old_string: "a", new_string: "b" }),
      ),
      [
        'Error: cannot edit "f.txt/a": not found',
        "FS_NOT_FOUND",
      ],
    );
  });
});

Deno.test({
  name: "C7.1 other OS failures are FS_IO_ERROR with the OS's message (link loop, name too long)",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await withSandbox({}, async ({ root }) => {
      await Deno.symlink("loop_b", join(root, "loop_a"));
      await Deno.symlink("loop_a", join(root, "loop_b"));
      const tools = toolsAt(root, { policy: false });
      for (const op of ["read", "write", "edit"]) {
        const args = { file_path: "loop_a", content: "x", old_string: "a", new_string: "b" };
        assert.deepEqual(failed(await tools.execute(op, args)), [
          `Error: cannot ${op} "loop_a": Too many levels of symbolic links (os error 40)`,
          "FS_IO_ERROR",
        ]);
      }
      const long = "n".repeat(300);
      assert.deepEqual(failed(await tools.execute("read", { file_path: long })), [
        `Error: cannot read "${long}": File name too long (os error 36)`,
        "FS_IO_ERROR",
      ]);
      assert.deepEqual(failed(await tools.execute("write", { file_path: long, content: "x" })), [
        `Error: cannot write "${long}": File name too long (os error 36)`,
        "FS_IO_ERROR",
      ]);
    });
  },
});

Deno.test("C7.1 an OS refusal is FS_PERMISSION_DENIED", async (t) => {
  await withSandbox({ "locked.txt": "secret\n", "ok.txt": "fine\n" }, async ({ root }) => {
    const path = join(root, "locked.txt");
    await Deno.chmod(path, 0o000);
    let enforced = true;
    try {
      await Deno.readFile(path);
      enforced = false;
    } catch { /* refused, as expected */ }
    await t.step({
      name: "read of a mode-000 file",
      ignore: !enforced,
      async fn() {
        const tools = toolsAt(root);
        assert.deepEqual(failed(await tools.execute("read", { file_path: "locked.txt" })), [
          'Error: cannot read "locked.txt": permission denied',
          "FS_PERMISSION_DENIED",
        ]);
      },
    });
    if (!enforced) console.warn("skipped: this process ignores file modes (running as root)");
    await Deno.chmod(path, 0o600);
  });
});

const deniedTest = "C7.1 a path Deno refuses (--deny-read/--deny-write) is FS_PERMISSION_DENIED";
Deno.test({
  name: deniedTest,
  ignore: needsRun(deniedTest),
  async fn() {
    await withSandbox({ "locked.txt": "secret\n", "fine.txt": "fine\n" }, async ({ root }) => {
      const locked = join(root, "locked.txt");
      const calls = [
        ["read", { file_path: "locked.txt" }],
        ["write", { file_path: "locked.txt", content: "x" }],
        ["edit", { file_path: "locked.txt", old_string: "secret", new_string: "x" }],
        ["read", { file_path: "fine.txt" }],
      ];
      const output = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--quiet",
          `--allow-read=${root}`,
          `--allow-write=${root}`,
          `--deny-read=${locked}`,
          `--deny-write=${locked}`,
          new URL("./_tools_child.ts", import.meta.url).pathname,
          root,
          JSON.stringify(calls),
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.deepEqual(JSON.parse(new TextDecoder().decode(output.stdout)), [
        ['Error: cannot read "locked.txt": permission denied', "FS_PERMISSION_DENIED"],
        ['Error: cannot write "locked.txt": permission denied', "FS_PERMISSION_DENIED"],
        ['Error: cannot edit "locked.txt": permission denied', "FS_PERMISSION_DENIED"],
        [readText("fine.txt", ["1: fine"], "(End of file - total 1 lines)"), null],
      ]);
      assert.equal(await Deno.readTextFile(locked), "secret\n");
      assert.deepEqual(await tempFiles(root), []);
    });
  },
});

Deno.test("C7.2 a call aborted before it starts fails with FS_ABORTED and changes nothing", async () => {
  await withSandbox({ "a.txt": "a\n", "d/": "" }, async ({ root }) => {
    const tools = toolsAt(root, { policy: false });
    const signal = AbortSignal.abort();
    const calls: [string, Record<string, unknown>, string][] = [
      ["list", { path: "d" }, 'Error: cannot list "d": aborted'],
      ["read", { file_path: "a.txt" }, 'Error: cannot read "a.txt": aborted'],
      ["write", { file_path: "a.txt", content: "b" }, 'Error: cannot write "a.txt": aborted'],
      [
        "edit",
        { file_path: "a.txt", old_string: "a", new_string: "b" },
        'Error: cannot edit "a.txt": aborted',
      ],
    ];
    for (const [op, args, content] of calls) {
      assert.deepEqual(failed(await tools.execute(op, args, { signal })), [content, "FS_ABORTED"]);
    }
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "a\n");
  });
});

/** A policy that approves everything, aborting the call's controller as it does. */
function abortingPolicy(controller: AbortController): FsPolicy {
  return {
    writeIntent: () => {
      controller.abort();
      return { kind: "none" };
    },
    editIntent: () => {
      controller.abort();
      return { kind: "none" };
    },
    observed: () => {},
  };
}

Deno.test("C7.2 an abort seen before the commit gives FS_ABORTED and leaves the old file", async () => {
  await withSandbox({ "a.txt": "old\n" }, async ({ root }) => {
    for (const op of ["write", "edit"]) {
      const controller = new AbortController();
      const tools = toolsAt(root, { policy: abortingPolicy(controller) });
      const args = { file_path: "a.txt", content: "new\n", old_string: "old", new_string: "new" };
      assert.deepEqual(failed(await tools.execute(op, args, { signal: controller.signal })), [
        `Error: cannot ${op} "a.txt": aborted`,
        "FS_ABORTED",
      ]);
      assert.equal(await Deno.readTextFile(join(root, "a.txt")), "old\n");
      assert.deepEqual(await tempFiles(root), []);
    }
  });
});

Deno.test("C7.2 an abort seen after the commit reports success", async () => {
  await withSandbox({ "a.txt": "old\n" }, async ({ root }) => {
    const controller = new AbortController();
    class AbortAfterCommit extends LocalFileSystem {
      override async writeText(...args: Parameters<LocalFileSystem["writeText"]>) {
        const outcome = await super.writeText(...args);
        controller.abort();
        return outcome;
      }
    }
    const tools = createFsTools({ fs: new AbortAfterCommit({ roots: [root] }), policy: false });
    const result = await tools.execute("write", { file_path: "a.txt", content: "new\n" }, {
      signal: controller.signal,
    });
    assert.equal(result.content, writeText("a.txt", false));
    assert.ok(controller.signal.aborted);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "new\n");
  });
});

Deno.test("C7.2 an aborted streamed read stops promptly", async () => {
  await withSandbox({}, async ({ root }) => {
    const line = "0123456789".repeat(10) + "\n";
    await Deno.writeTextFile(join(root, "big.txt"), line.repeat(40_000)); // 4 MiB
    const controller = new AbortController();
    let chunks = 0;
    // Aborts after the tenth 64-byte chunk of the 65,000 a full scan would take.
    class AbortMidway extends LocalFileSystem {
      override async streamText(...args: Parameters<LocalFileSystem["streamText"]>) {
        const handle = await super.streamText(...args);
        return {
          ...handle,
          close: () => handle.close(),
          async *chunks(position: number) {
            for await (const chunk of handle.chunks(position)) {
              if (++chunks === 10) controller.abort();
              yield chunk;
            }
          },
        };
      }
    }
    const fs = new AbortMidway({ roots: [root], chunkSize: 64 });
    const tools = createFsTools({ fs, config: { readStreamMinSize: 0 } });
    const result = await tools.execute("read", { file_path: "big.txt", offset: 39_999 }, {
      signal: controller.signal,
    });
    assert.deepEqual(failed(result), ['Error: cannot read "big.txt": aborted', "FS_ABORTED"]);
    assert.ok(chunks <= 11, `read ${chunks} chunks after the abort`);
  });
});

// --- Host policy and events (C1.2, issue 3) ---------------------------------------------------

Deno.test("C1.2 a host policy object can ask a person before every write", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const asked: string[] = [];
    let answer = false;
    const askPerson: FsPolicy = {
      async writeIntent(intent) {
        asked.push(`${intent.op} ${intent.displayPath}: ${intent.content}`);
        await new Promise((resolve) => setTimeout(resolve, 1)); // a person thinking
        if (!answer) {
          throw new FsError("FS_PERMISSION_DENIED", {
            message: `the user declined to ${intent.op} "${intent.displayPath}"`,
          });
        }
        return { kind: "none" };
      },
      editIntent(intent) {
        return this.writeIntent(intent);
      },
      observed() {},
    };
    const tools = toolsAt(root, { policy: askPerson });
    assert.deepEqual(
      failed(await tools.execute("write", { file_path: "new.txt", content: "hello" })),
      [
        'Error: the user declined to write "new.txt"',
        "FS_PERMISSION_DENIED",
      ],
    );
    assert.deepEqual(
      failed(await tools.execute("edit", { file_path: "a.txt", old_string: "a", new_string: "b" })),
      [
        'Error: the user declined to edit "a.txt"',
        "FS_PERMISSION_DENIED",
      ],
    );
    assert.deepEqual(await tempFiles(root), []);
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["a.txt"]);
    answer = true;
    assert.equal(
      ok(await tools.execute("write", { file_path: "new.txt", content: "hello" })),
      writeText("new.txt", true),
    );
    ok(await tools.execute("edit", { file_path: "a.txt", old_string: "a", new_string: "b" }));
    assert.deepEqual(asked, [
      "write new.txt: hello",
      "edit a.txt: b",
      "write new.txt: hello",
      "edit a.txt: b",
    ]);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "b\n");
  });
});

Deno.test("events: read, write and edit dispatch CustomEvents with path, version and session", async () => {
  await withSandbox({ "a.txt": "a\n" }, async ({ root }) => {
    const tools = toolsAt(root);
    const seen: FsToolEventDetail[] = [];
    for (const type of ["read", "write", "edit", "list"]) {
      tools.events.addEventListener(type, (event) => {
        assert.ok(event instanceof CustomEvent);
        assert.equal(event.type, (event.detail as FsToolEventDetail).op);
        seen.push(event.detail);
      });
    }
    const session = { id: "s1" };
    ok(await tools.execute("list", {}, { session }));
    ok(await tools.execute("read", { file_path: "a.txt" }, { session }));
    ok(
      await tools.execute("edit", { file_path: "a.txt", old_string: "a", new_string: "b" }, {
        session,
      }),
    );
    ok(await tools.execute("write", { file_path: "a.txt", content: "c\n" }, { session }));
    await tools.execute("read", { file_path: "missing.txt" }, { session });
    assert.deepEqual(seen.map((d) => d.op), ["read", "edit", "write"]);
    for (const detail of seen) {
      assert.equal(detail.session, session);
      assert.equal(detail.path, join(root, "a.txt"));
      assert.equal(detail.realPath, join(root, "a.txt"));
      assert.equal(typeof detail.version, "string");
    }
    assert.equal(new Set(seen.map((d) => d.version)).size, 3);
  });
});

// --- C8 Presentation --------------------------------------------------------------------------

Deno.test("C8 presentCall titles, kinds, rawInput and absolute locations", async () => {
  await withSandbox({}, ({ root }) => {
    const tools = toolsAt(root);
    assert.deepEqual(tools.presentCall("list", {}), {
      title: "List .",
      kind: "search",
      locations: [{ path: root }],
    });
    assert.deepEqual(tools.presentCall("list", { path: "src" }, { cwd: "pkg" }), {
      title: "List src",
      kind: "search",
      locations: [{ path: join(root, "pkg/src") }],
    });
    assert.deepEqual(tools.presentCall("read", { file_path: "a/../b.ts" }), {
      title: "Read a/../b.ts",
      kind: "read",
      rawInput: {},
      locations: [{ path: join(root, "b.ts"), line: 1 }],
    });
    assert.deepEqual(tools.presentCall("read", { file_path: "b.ts", offset: 40, limit: 10 }), {
      title: "Read b.ts",
      kind: "read",
      rawInput: { offset: 40, limit: 10 },
      locations: [{ path: join(root, "b.ts"), line: 40 }],
    });
    assert.deepEqual(tools.presentCall("read", { file_path: "b.ts", limit: 10, offset: null }), {
      title: "Read b.ts",
      kind: "read",
      rawInput: { limit: 10 },
      locations: [{ path: join(root, "b.ts"), line: 1 }],
    });
    assert.deepEqual(
      tools.presentCall("write", { file_path: "/abs/c.ts", content: "x".repeat(500) }),
      {
        title: "Write /abs/c.ts",
        kind: "edit",
        locations: [{ path: "/abs/c.ts" }],
      },
    );
    assert.deepEqual(
      tools.presentCall("edit", { file_path: "c.ts", old_string: "a", new_string: "b" }),
      {
        title: "Edit c.ts",
        kind: "edit",
        rawInput: { old_string: "a", new_string: "b" },
        locations: [{ path: join(root, "c.ts") }],
      },
    );
    assert.deepEqual(tools.presentCall("rm", { file_path: "c.ts" }), {
      title: "rm",
      kind: "other",
    });
    return Promise.resolve();
  });
});

Deno.test("C8 edit rawInput clips each string to 80 code points ending in '…'", async () => {
  await withSandbox({}, ({ root }) => {
    const tools = toolsAt(root);
    const clipOf = (text: string) =>
      (tools.presentCall("edit", { file_path: "x", old_string: text, new_string: "" }).rawInput as {
        old_string: string;
      }).old_string;
    assert.equal(clipOf("a".repeat(80)), "a".repeat(80));
    assert.equal(clipOf("a".repeat(81)), "a".repeat(79) + "…");
    assert.equal(clipOf("😀".repeat(80)), "😀".repeat(80));
    assert.equal(clipOf("😀".repeat(81)), "😀".repeat(79) + "…");
    assert.equal(Array.from(clipOf("😀".repeat(500))).length, 80);
    return Promise.resolve();
  });
});
