// Adversarial paths (issue 7, C3.1, C3.2, C3.6): `..` at several depths, `/./`, doubled and
// trailing separators, absolute paths outside, `~`, the empty path, NUL bytes and sibling
// directories whose names share the root's prefix. Every case runs through the public
// `execute` against a real tree with secrets outside the root.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../../mod.ts";
import {
  adversarialSandbox,
  argsFor,
  assertError,
  assertNoSecret,
  assertSameTree,
  figure,
  granted,
  OPS,
  outsideSnapshot,
  SIBLINGS,
} from "./_harness.ts";

/** Paths (relative to the root, the session cwd) that all lie outside the root. */
function outsidePaths(base: string, root: string): string[] {
  const up = "../".repeat(12); // more `..` than the tree is deep: clamps at `/`
  return [
    "..",
    "../",
    "../secret.txt",
    "../outside/secret.txt",
    "../../",
    `${up}${base.slice(1)}/secret.txt`,
    "sub/../../secret.txt",
    "sub/deep/../../../secret.txt",
    "sub/deep/../../../outside/secret.txt",
    "sub/deep/../../../../",
    "./../secret.txt",
    "sub/./../.././secret.txt",
    "sub//..//..//secret.txt",
    ".//..//outside//secret.txt//",
    "../outside/secret.txt/",
    "../outside/./secret.txt",
    "../root/../secret.txt",
    "../outside/new/deeper/file.txt",
    "../newdir/file.txt",
    `${base}/secret.txt`,
    `${base}/outside/secret.txt`,
    `${base}/outside/`,
    base,
    "/",
    "/etc/passwd",
    "/etc",
    "/tmp/toolfs_adversarial_new.txt",
    `${root}/../secret.txt`,
    `${root}/sub/../../secret.txt`,
    `${root}//..//secret.txt`,
    `${root}/./../outside/secret.txt`,
    ...SIBLINGS.flatMap((name) => [
      `../${name}`,
      `../${name}/`,
      `../${name}/secret.txt`,
      `../${name}/new.txt`,
      `${base}/${name}/secret.txt`,
      `${root}/../${name}/secret.txt`,
      `sub/../../${name}/secret.txt`,
    ]),
  ];
}

async function populate(root: string): Promise<void> {
  await Deno.mkdir(join(root, "sub", "deep"), { recursive: true });
  await Deno.writeTextFile(join(root, "a.txt"), "alpha\n");
  await Deno.writeTextFile(join(root, "sub", "deep", "b.txt"), "beta\n");
}

Deno.test("paths: every '..', absolute and sibling-prefix escape is FS_OUTSIDE_ROOT for all four tools", async () => {
  await using box = await adversarialSandbox();
  await populate(box.root);
  const before = await outsideSnapshot(box);
  let cases = 0;
  for (const path of outsidePaths(box.base, box.root)) {
    for (const op of OPS) {
      const result = await box.tools.execute(op, argsFor(op, path));
      assertError(
        result,
        "FS_OUTSIDE_ROOT",
        `cannot ${op} "${path}": outside the permitted roots`,
      );
      assertNoSecret(result);
      cases++;
    }
  }
  assertSameTree(before, await outsideSnapshot(box), "the outside tree");
  figure("paths", `${cases} out-of-root path cases (4 tools), 0 escapes`);
});

Deno.test("paths: a root given with a trailing slash still refuses its sibling prefixes", async () => {
  await using box = await adversarialSandbox();
  for (const spec of [`${box.root}/`, `${box.root}//`, `${box.root}/.`, `${box.root}/../root`]) {
    const tools = createFsTools({ fs: new LocalFileSystem({ roots: [spec] }) });
    for (const name of SIBLINGS) {
      for (const path of [`../${name}/secret.txt`, `${box.base}/${name}/secret.txt`]) {
        const result = await tools.execute("read", { file_path: path });
        assertError(
          result,
          "FS_OUTSIDE_ROOT",
          `cannot read "${path}": outside the permitted roots`,
        );
      }
    }
    assert.equal((await tools.execute("list", {})).isError, false);
  }
});

Deno.test("paths: '..', '/./', doubled separators that stay inside the root resolve inside", async () => {
  await using box = await adversarialSandbox();
  await populate(box.root);
  const inside: [string, string][] = [
    ["a.txt", "alpha"],
    ["./a.txt", "alpha"],
    ["sub/../a.txt", "alpha"],
    ["sub/deep/../../a.txt", "alpha"],
    ["sub//deep///b.txt", "beta"],
    ["sub/./deep/./b.txt", "beta"],
    ["../root/a.txt", "alpha"],
    ["../root/sub/../sub/deep/b.txt", "beta"],
    [`${box.root}/a.txt`, "alpha"],
    [`${box.root}//sub/./deep/b.txt`, "beta"],
    [`${box.root}/sub/deep/../../a.txt`, "alpha"],
  ];
  for (const [path, text] of inside) {
    const result = await box.tools.execute("read", { file_path: path });
    assert.equal(result.isError, false, `${path}: ${result.content}`);
    assert.match(result.content, new RegExp(`\n1: ${text}\n`), path);
  }
  for (const path of [".", "./", "sub/..", "sub/deep/../..", box.root, `${box.root}/`, "../root"]) {
    const result = await box.tools.execute("list", { path });
    assert.equal(result.isError, false, `${path}: ${result.content}`);
    assert.match(result.content, /\na\.txt\n/, path);
  }
});

Deno.test("paths: '~' is not expanded: it names an entry inside the root", async () => {
  await using box = await adversarialSandbox();
  const home = granted({ name: "env", variable: "HOME" }) ? Deno.env.get("HOME") : undefined;
  for (const path of ["~", "~/secret.txt", "~root/.bashrc", "~/.ssh/id_rsa"]) {
    const result = await box.tools.execute("read", { file_path: path });
    assertError(result, "FS_NOT_FOUND", `cannot read "${path}": not found`);
  }
  const write = await box.tools.execute("write", { file_path: "~/note.txt", content: "tilde\n" });
  assert.equal(write.isError, false, write.content);
  assert.equal(await Deno.readTextFile(join(box.root, "~", "note.txt")), "tilde\n");
  if (home) {
    assert.equal(
      await Deno.stat(join(home, "note.txt")).then(() => true, () => false),
      false,
      "wrote into $HOME",
    );
  }
});

Deno.test("paths: the empty path and NUL bytes are rejected before any file system call", async () => {
  await using box = await adversarialSandbox();
  const before = await outsideSnapshot(box);
  let cases = 0;
  for (const op of ["read", "write", "edit"] as const) {
    const empty = await box.tools.execute(op, argsFor(op, ""));
    assertError(empty, "FS_INVALID_ARGUMENT", "file_path must be a non-empty string");
    cases++;
  }
  assertError(
    await box.tools.execute("list", { path: "" }),
    "FS_INVALID_ARGUMENT",
    "path must be a non-empty string when given",
  );
  const nulPaths = [
    "\0",
    "a.txt\0",
    "\0a.txt",
    "a\0.txt",
    "../secret.txt\0",
    "\0../secret.txt",
    `${box.base}/secret.txt\0.txt`,
    "sub\0/../../secret.txt",
    "a.txt\0\0\0",
  ];
  for (const path of nulPaths) {
    for (const op of OPS) {
      const result = await box.tools.execute(op, argsFor(op, path));
      const message = op === "list"
        ? "path must not contain a NUL byte"
        : "file_path must not contain a NUL byte";
      assertError(result, "FS_INVALID_ARGUMENT", message);
      cases++;
    }
  }
  assertSameTree(before, await outsideSnapshot(box), "the outside tree");
  assert.deepEqual([...Deno.readDirSync(box.root)], [], "the root changed");
  figure("paths", `${cases + 1} empty/NUL path cases, all FS_INVALID_ARGUMENT`);
});

Deno.test("paths: a session cwd outside the root fails every call with FS_OUTSIDE_ROOT", async () => {
  await using box = await adversarialSandbox();
  const before = await outsideSnapshot(box);
  for (const cwd of ["..", "../outside", box.outside, "/", ...SIBLINGS.map((s) => `../${s}`)]) {
    for (const op of OPS) {
      const result = await box.tools.execute(op, argsFor(op, "secret.txt"), { cwd });
      assertError(result, "FS_OUTSIDE_ROOT");
      assertNoSecret(result);
    }
  }
  assertSameTree(before, await outsideSnapshot(box), "the outside tree");
});
