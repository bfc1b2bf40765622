// CONTRACT C4.3b: a file whose permission bits deny this process writing it (mode 0444 for anyone
// but the superuser) is never replaced or removed by `write`, `edit`, `patch` (update, delete,
// move) or `delete`, though the rename or unlink they use would succeed in a directory the
// process may write. Run as `nobody` (the owner of the root and of the file, which 0444 still
// protects) in both check modes, and as the superuser, whose in-place open would succeed.
// Needs --allow-run and setpriv (and the superuser to become nobody): `deno task test:core`.

import assert from "node:assert/strict";
import { join } from "node:path";
import { readableCopy } from "../_readable_copy.ts";
import { cannotRun, granted, runChild, skipUnless } from "../adversarial/_harness.ts";
import { NOBODY, nobodyDeno } from "../adversarial/_nobody.ts";

const READ_ONLY = "permission denied (the file is read-only)";

/** The calls, each on a 0444 file of its own (`tree/` holds one): what C4.3b refuses. */
const CALLS: [string, Record<string, unknown>][] = [
  ["write", { file_path: "w.txt", content: "replaced\n" }],
  ["edit", { file_path: "e.txt", old_string: "keep", new_string: "lose" }],
  ["patch", {
    patch: "*** Begin Patch\n*** Update File: pu.txt\n@@\n-keep me\n+lost\n*** End Patch",
  }],
  ["patch", { patch: "*** Begin Patch\n*** Delete File: pd.txt\n*** End Patch" }],
  [
    "patch",
    {
      patch:
        "*** Begin Patch\n*** Update File: pm.txt\n*** Move to: moved.txt\n@@\n-keep me\n+lost\n*** End Patch",
    },
  ],
  ["delete", { path: "d.txt" }],
  ["delete", { path: "tree", recursive: true }],
  // Controls: a writable file is replaced; `move` changes no content and is not refused.
  ["write", { file_path: "rw.txt", content: "replaced\n" }],
  ["move", { source_path: "mv.txt", destination_path: "mv2.txt" }],
  // C16.2: checked before any file changes: the writable rw2.txt is not even replaced and put back.
  ["patch", {
    patch:
      "*** Begin Patch\n*** Update File: rw2.txt\n@@\n-keep me\n+lost\n*** Update File: pu2.txt\n@@\n-keep me\n+lost\n*** End Patch",
  }],
];

const PROTECTED = [
  "w.txt",
  "e.txt",
  "pu.txt",
  "pd.txt",
  "pm.txt",
  "d.txt",
  "tree/ro.txt",
  "pu2.txt",
  "rw2.txt",
];

/** A root (in a base directory anyone may enter) holding the files of {@linkcode CALLS}. */
async function makeRoot(owner: number | null): Promise<{ base: string; root: string }> {
  const base = await Deno.makeTempDir({ prefix: "toolfs_c4_3b_" });
  await Deno.chmod(base, 0o755);
  const root = join(base, "root");
  await Deno.mkdir(join(root, "tree"), { recursive: true });
  for (const name of [...PROTECTED, "rw.txt", "mv.txt"]) {
    await Deno.writeTextFile(join(root, name), "keep me\n");
    await Deno.chmod(join(root, name), name.startsWith("rw") ? 0o644 : 0o444);
  }
  if (owner !== null) {
    for (const name of ["", "tree", ...PROTECTED, "rw.txt", "mv.txt"]) {
      await Deno.chown(join(root, name), owner, owner);
    }
  }
  return { base, root };
}

interface CallResult {
  content: string;
  code: string | null;
}

// Under path checks `delete` and patch's Delete File and Move to are refused by C15.5 before
// C4.3b is asked: there the calls are write, edit, patch's Update File and the controls.
const MODES = [
  {
    name: "path checks",
    permissions: (base: string) => [`--allow-read=${base}`, `--allow-write=${base}`],
    entries: false,
  },
  ...(Deno.build.os === "linux"
    ? [{ name: "descriptor checks", permissions: (_: string) => ["--allow-all"], entries: true }]
    : []),
];

/** The calls of {@linkcode CALLS} a mode runs: moves and deletes only where C15.5 allows them. */
function callsOf(entries: boolean): [string, Record<string, unknown>][] {
  return CALLS.filter((_, i) => entries || [0, 1, 2, 7, 9].includes(i));
}

const uid = granted({ name: "sys", kind: "uid" }) ? Deno.uid() : null;

for (const mode of MODES) {
  const name =
    `C4.3b as nobody (${mode.name}): write, edit, patch and delete refuse a 0444 file and change nothing`;
  Deno.test({
    name,
    ignore: skipUnless(
      name,
      cannotRun("setpriv") ?? (uid === 0 ? null : "needs the superuser (to run a child as nobody)"),
    ),
    async fn() {
      const { base, root } = await makeRoot(NOBODY);
      try {
        const before = await stateOf(root);
        const script = new URL("tests/adversarial/_calls_child.ts", readableCopy()).pathname;
        const calls = callsOf(mode.entries);
        const child = await nobodyDeno(base, mode.permissions(base), script, [
          root,
          JSON.stringify(calls),
        ]);
        const { success, stdout, stderr } = await child.output();
        assert.ok(success, new TextDecoder().decode(stderr));
        const { results } = JSON.parse(
          new TextDecoder().decode(stdout).trim().split("\n").at(-1)!,
        ) as { results: CallResult[] };
        // `patch` names the operation too (C16.2).
        const denied = (op: string, path: string, operation = "") => ({
          content: `Error: cannot ${op} "${path}"${operation}: ${READ_ONLY}`,
          code: "FS_PERMISSION_DENIED",
        });
        const expected = [
          denied("write", "w.txt"),
          denied("edit", "e.txt"),
          denied("patch", "pu.txt", " (Update File, patch line 2)"),
          denied("patch", "pd.txt", " (Delete File, patch line 2)"),
          denied("patch", "pm.txt", " (Update File, patch line 2)"),
          denied("delete", "d.txt"),
          {
            content:
              'Error: cannot delete "tree": permission denied (it holds a read-only file, "ro.txt")',
            code: "FS_PERMISSION_DENIED",
          },
          null, // rw.txt is written
          { content: "Moved mv.txt to mv2.txt", code: null },
          denied("patch", "pu2.txt", " (Update File, patch line 6)"),
        ].filter((_, i) => mode.entries || [0, 1, 2, 7, 9].includes(i));
        for (const [i, want] of expected.entries()) {
          if (want === null) assert.equal(results[i].code, null, results[i].content);
          else assert.deepEqual(results[i], want, JSON.stringify(calls[i]));
        }
        const after = await stateOf(root);
        for (const name of PROTECTED) {
          assert.deepEqual(after.get(name), before.get(name), `${name} changed`);
        }
        assert.equal(after.has("moved.txt"), false);
        assert.equal(await Deno.readTextFile(join(root, "rw.txt")), "replaced\n");
      } finally {
        await Deno.remove(base, { recursive: true });
      }
    },
  });
}

for (const mode of MODES) {
  const name =
    `C4.3b as the superuser (${mode.name}): an in-place open would succeed, so a 0444 file is replaced and keeps its mode`;
  Deno.test({
    name,
    ignore: skipUnless(
      name,
      cannotRun() ?? (uid === 0 ? null : "needs the superuser"),
    ),
    async fn() {
      const { base, root } = await makeRoot(null);
      try {
        const calls = callsOf(mode.entries);
        const { report } = await runChild<{ results: CallResult[] }>(
          "./_calls_child.ts",
          [root, JSON.stringify(calls)],
          { permissions: mode.permissions(base) },
        );
        for (const [i, result] of report.results.entries()) {
          assert.equal(result.code, null, `${JSON.stringify(calls[i])}: ${result.content}`);
        }
        assert.equal(await Deno.readTextFile(join(root, "w.txt")), "replaced\n");
        assert.equal((await Deno.stat(join(root, "w.txt"))).mode! & 0o777, 0o444);
        assert.equal(await Deno.readTextFile(join(root, "e.txt")), "lose me\n");
        assert.equal(await Deno.readTextFile(join(root, "pu.txt")), "lost\n");
        assert.equal(await Deno.readTextFile(join(root, "pu2.txt")), "lost\n");
        assert.equal(await Deno.readTextFile(join(root, "rw2.txt")), "lost\n");
        if (!mode.entries) return;
        for (const gone of ["pd.txt", "d.txt", "tree", "pm.txt"]) {
          assert.equal(await Deno.lstat(join(root, gone)).catch(() => null), null, gone);
        }
        assert.equal(await Deno.readTextFile(join(root, "moved.txt")), "lost\n");
      } finally {
        await Deno.remove(base, { recursive: true });
      }
    },
  });
}

/** Content, mode and inode of every entry below `root`. */
async function stateOf(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(dir: string, rel: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      const info = await Deno.lstat(join(dir, entry.name));
      const content = info.isFile ? await Deno.readTextFile(join(dir, entry.name)) : "";
      out.set(name, `${info.mode?.toString(8)} ${info.ino} ${JSON.stringify(content)}`);
      if (info.isDirectory) await walk(join(dir, entry.name), name);
    }
  }
  await walk(root, "");
  return out;
}
