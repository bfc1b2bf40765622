// CONTRACT C1 (public API) at the tools level, against real files; host policies and events.

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import {
  createFsTools,
  DEFAULT_CONFIG,
  FsError,
  type FsPolicy,
  type FsToolEventDetail,
  LocalFileSystem,
} from "../../mod.ts";
import { failed, listText, needsRun, ok, readText, tempFiles, writeText } from "../_helpers.ts";
import { sandbox } from "../_sandbox.ts";
import { RecordingFs } from "../_recording_fs.ts";

Deno.test("C1.1 a string root can be read and written", async () => {
  await using box = await sandbox("local", { "a.txt": "one\n" });
  const { root, tools } = box;
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

Deno.test("C1.1 a root with write: false can be read but not written", async () => {
  await using box = await sandbox("local", { "a.txt": "one\n" });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [{ path: root, write: false }] });
  const tools = createFsTools({ fs });
  ok(await tools.execute("read", { file_path: "a.txt" }));
  assert.deepEqual(failed(await tools.execute("write", { file_path: "a.txt", content: "x" })), [
    'Error: cannot write "a.txt": the root is read-only',
    "FS_READ_ONLY",
  ]);
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "one\n");
});

Deno.test("C1.1 roots are resolved to real paths once, at construction", async () => {
  await using box = await sandbox("local", { "a.txt": "in root\n" });
  const { base: dir, root } = box;
  await box.write("../other/a.txt", "in other\n");
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

Deno.test("C1.1 a missing root is a constructor error that names it", async () => {
  await using box = await sandbox("local", { "file.txt": "x" });
  const { root } = box;
  const missing = join(root, "nope");
  assert.throws(
    () => new LocalFileSystem({ roots: [missing] }),
    { message: `root "${missing}" does not exist: create it or pass another directory` },
  );
  return Promise.resolve();
});

Deno.test("C1.1 a root that is a file is a constructor error that names it", async () => {
  await using box = await sandbox("local", { "file.txt": "x" });
  const { root } = box;
  const file = join(root, "file.txt");
  assert.throws(() => new LocalFileSystem({ roots: [file] }), (error: Error) => {
    assert.match(error.message, /not a directory/);
    assert.ok(error.message.includes(`"${file}"`), error.message);
    return true;
  });
  assert.throws(() => new LocalFileSystem({ roots: [] }), TypeError);
  return Promise.resolve();
});

const permissionTest =
  "C1.1 a root without a permission grant is a constructor error naming the flag";
Deno.test({
  name: permissionTest,
  ignore: needsRun(permissionTest),
  async fn() {
    await using box = await sandbox("local");
    const { root } = box;
    const child = (flags: string[], mode: string) =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--quiet",
          ...flags,
          new URL("../_permission_child.ts", import.meta.url).pathname,
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
  },
});

Deno.test("C1.2 cwd defaults to the first root; a relative cwd resolves against it", async () => {
  await using box = await sandbox("local", { "sub/a.txt": "a\n", "top.txt": "t\n" });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [root] });
  assert.equal(createFsTools({ fs }).cwd, root);
  const tools = createFsTools({ fs, cwd: "sub" });
  assert.equal(tools.cwd, join(root, "sub"));
  assert.equal(
    ok(await tools.execute("list", {})),
    listText(".", ["a.txt"], "(1 entry: 0 directories, 1 file)"),
  );
});

Deno.test("C1.2 a cwd outside every root is a constructor error", async () => {
  await using box = await sandbox("local");
  const { base: dir, root } = box;
  const fs = new LocalFileSystem({ roots: [root] });
  assert.throws(() => createFsTools({ fs, cwd: dir }), (error: Error) => {
    assert.ok(error.message.includes(`cwd "${dir}"`), error.message);
    return true;
  });
  assert.throws(() => createFsTools({ fs, cwd: "../root_evil" }), Error);
  return Promise.resolve();
});

Deno.test("C1.2 a ctx.cwd outside every root fails the call with FS_OUTSIDE_ROOT", async () => {
  await using box = await sandbox("local", { "a.txt": "a" });
  const { base: dir } = box;
  await box.write("../a.txt", "outside");
  const { tools } = box;
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

Deno.test("C1.2 config overrides some keys and keeps the defaults of the others", async () => {
  await using box = await sandbox("local");
  const tools = box.toolsWith({ config: { readLimit: 10, listMaxEntries: 3 } });
  assert.deepEqual(tools.config, { ...DEFAULT_CONFIG, readLimit: 10, listMaxEntries: 3 });
  return Promise.resolve();
});

Deno.test("C1.2 an invalid config value is a constructor error naming the key", async () => {
  await using box = await sandbox("local");
  const cases: [Record<string, unknown>, string][] = [
    [
      { readLimt: 5 },
      'unknown config key "readLimt": expected one of listMaxEntries, readLimit, readMaxLineLength, readMaxBytes, readStreamMinSize, globMaxFiles, grepMaxMatches, grepFileTimeMs, editSnippet, readImages, readMaxImageBytes, readMaxDocumentBytes, readDocumentTimeMs, detailedFooters',
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
    [{ readImages: 1 }, 'config "readImages" must be a boolean: got 1'],
    [
      { readMaxImageBytes: 0 },
      'config "readMaxImageBytes" must be a whole number of at least 1: got 0',
    ],
    [
      { grepMaxMatches: 0 },
      'config "grepMaxMatches" must be a whole number of at least 1: got 0',
    ],
  ];
  for (const [config, message] of cases) {
    assert.throws(() => box.toolsWith({ config: config as never }), {
      name: "TypeError",
      message,
    });
  }
  assert.equal(box.toolsWith({ config: { readStreamMinSize: 0 } }).config.readStreamMinSize, 0);
  return Promise.resolve();
});

Deno.test("C1.3/C9.1 definitions are list, read, write, edit, glob, grep with strict snake_case schemas", async () => {
  await using box = await sandbox("local");
  const tools = box.toolsWith({ config: { readLimit: 300 } });
  assert.deepEqual(tools.definitions.map((d) => d.name), [
    "list",
    "read",
    "write",
    "edit",
    "glob",
    "grep",
  ]);
  const required: Record<string, string[]> = {
    list: [],
    read: ["file_path"],
    write: ["file_path", "content"],
    edit: ["file_path", "old_string", "new_string"],
    glob: ["pattern"],
    grep: ["pattern"],
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

Deno.test("C1.4 execute resolves to an error result for any bad input, never throws", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { tools } = box;
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

Deno.test("C1.4 an unknown tool name is an error result", async () => {
  await using box = await sandbox("local");
  const { tools } = box;
  assert.deepEqual(await tools.execute("delete", { file_path: "a" }), {
    content: 'Error: unknown tool "delete"; the tools are list, read, write, edit, glob, grep',
    isError: true,
    error: { name: "FsError", code: "FS_UNKNOWN_TOOL" },
  });
});

Deno.test("C1.4 null counts as absent for every optional argument", async () => {
  await using box = await sandbox("local", { "a.txt": "a\nb\na\n" });
  const { tools } = box;
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

Deno.test("C1.4 read observations are scoped to ctx.session, one default session per instance", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { root } = box;
  const fs = new LocalFileSystem({ roots: [root] });
  const one = createFsTools({ fs });
  const two = createFsTools({ fs });
  ok(await one.execute("read", { file_path: "a.txt" }));
  assert.deepEqual(failed(await two.execute("write", { file_path: "a.txt", content: "b" })), [
    'Error: cannot write "a.txt": the file already exists; read it first',
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

Deno.test("C1.4 a session that is not an object is refused before anything is written", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { root, tools } = box;
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

Deno.test("C1.5 presentCall is synchronous and touches no file", async () => {
  await using box = await sandbox("local");
  const { root } = box;
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

Deno.test("C1.6 the tools reach files only through the provider, passing the signal", async () => {
  await using box = await sandbox("local", { "a.txt": "hello\n", "d/": "" });
  const { root } = box;
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

Deno.test("C1.2 a host policy object can ask a person before every write", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { root } = box;
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
  const tools = box.toolsWith({ policy: askPerson });
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

Deno.test("events: read, write and edit dispatch CustomEvents with path, version and session", async () => {
  await using box = await sandbox("local", { "a.txt": "a\n" });
  const { root, tools } = box;
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
