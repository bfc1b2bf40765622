// Adversarial links (issue 7, C3.2, C3.5, C3.7): file and directory links out, a directory
// link out used as the parent of a new file, dangling links out (a write must not create the
// target), chained and relative links, link loops, a symlinked root and a hard link to a file
// outside. Every case runs through the public `execute`.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../../mod.ts";
import {
  adversarialSandbox,
  argsFor,
  assertError,
  assertNoSecret,
  assertSameTree,
  assertWellFormedError,
  figure,
  OPS,
  outsideSnapshot,
  SECRET,
  tempFiles,
} from "./_harness.ts";

Deno.test("symlinks: links that lead outside, directly, relatively or through a chain, are FS_OUTSIDE_ROOT", async () => {
  await using box = await adversarialSandbox();
  const { root, outside, base } = box;
  await Deno.writeTextFile(join(root, "a.txt"), "alpha\n");
  await Deno.mkdir(join(root, "sub"));
  const links: [string, string][] = [
    ["leak.txt", box.secret], // file link out, absolute
    ["rel.txt", "../outside/secret.txt"], // relative
    ["sub/up.txt", "../../outside/secret.txt"], // relative from a subdirectory
    ["out", outside], // directory link out
    ["relout", "../outside"],
    ["chain1", "chain2"], // chained: chain1 -> chain2 -> chain3 -> outside
    ["chain2", "sub/chain3"],
    ["sub/chain3", "../../outside/secret.txt"],
    ["up", ".."], // the root's parent
    ["slash", "/"],
    ["evil", "../root_evil"], // a sibling prefix
    ["evil2", `${base}/root2/secret.txt`],
    ["space", "../root /secret.txt"],
    ["bak", "../root.bak"],
  ];
  for (const [name, to] of links) await Deno.symlink(to, join(root, name));
  const paths = [
    "leak.txt",
    "rel.txt",
    "sub/up.txt",
    "out",
    "out/secret.txt",
    "out/new.txt", // a directory link out used as the parent of a new file
    "out/new/deeper/file.txt", // ... and of missing directories
    "relout/secret.txt",
    "relout/new.txt",
    "chain1",
    "chain2",
    "up",
    "up/secret.txt",
    "up/outside/new.txt",
    "slash/etc/passwd",
    "slash/tmp/toolfs_adversarial.txt",
    "evil",
    "evil/secret.txt",
    "evil/new.txt",
    "evil2",
    "space",
    "bak/secret.txt",
    "sub/../out/secret.txt",
    "./out/../out/secret.txt",
  ];
  const before = await outsideSnapshot(box);
  let cases = 0;
  for (const path of paths) {
    for (const op of OPS) {
      const result = await box.tools.execute(op, argsFor(op, path));
      assertError(result, "FS_OUTSIDE_ROOT", `cannot ${op} "${path}": outside the permitted roots`);
      assertNoSecret(result);
      cases++;
    }
  }
  assertSameTree(before, await outsideSnapshot(box), "the outside tree");
  // list shows the links as links and never follows them
  const listing = await box.tools.execute("list", {});
  assert.match(listing.content, /\nleak\.txt@\n/);
  assert.match(listing.content, /\nout@\n/);
  assertNoSecret(listing);
  figure("symlinks", `${cases} link-out cases (${paths.length} paths x 4 tools), 0 escapes`);
});

Deno.test("symlinks: a write through a dangling link out never creates the link's target", async () => {
  await using box = await adversarialSandbox();
  const { root, outside } = box;
  const links: [string, string][] = [
    ["dangle.txt", join(outside, "not_yet.txt")],
    ["dangle_rel.txt", "../outside/rel_not_yet.txt"],
    ["dangle_dir.txt", join(outside, "nodir", "deeper", "x.txt")], // missing parents too
    ["dangle_chain.txt", "dangle_chain2.txt"],
    ["dangle_chain2.txt", "../outside/chain_not_yet.txt"],
    ["dangle_sibling.txt", "../root2/not_yet.txt"],
  ];
  for (const [name, to] of links) await Deno.symlink(to, join(root, name));
  const before = await outsideSnapshot(box);
  for (const [name] of links) {
    for (const policy of [true, false]) {
      const tools = createFsTools({ fs: box.fs, policy });
      for (const op of OPS) {
        const result = await tools.execute(op, argsFor(op, name));
        assertError(
          result,
          "FS_OUTSIDE_ROOT",
          `cannot ${op} "${name}": outside the permitted roots`,
        );
      }
    }
  }
  assertSameTree(before, await outsideSnapshot(box), "the outside tree");
  for (const [name, to] of links) assert.equal(await Deno.readLink(join(root, name)), to);
});

Deno.test("symlinks: links that stay inside are followed, and a write leaves the link a link (C3.5)", async () => {
  await using box = await adversarialSandbox();
  const { root } = box;
  await Deno.mkdir(join(root, "sub"));
  await Deno.writeTextFile(join(root, "a.txt"), "alpha\n");
  await Deno.symlink("in2", join(root, "in1"));
  await Deno.symlink("sub/in3", join(root, "in2"));
  await Deno.symlink("../a.txt", join(root, "sub/in3"));
  await Deno.symlink("sub", join(root, "subdir"));
  await Deno.symlink("../missing_inside.txt", join(root, "sub/dangling_in"));
  const read = await box.tools.execute("read", { file_path: "in1" });
  assert.match(read.content, /\n1: alpha\n/);
  const write = await box.tools.execute("write", { file_path: "in1", content: "beta\n" });
  assert.equal(write.isError, false, write.content);
  assert.equal(await Deno.readTextFile(join(root, "a.txt")), "beta\n");
  assert.equal((await Deno.lstat(join(root, "in1"))).isSymlink, true);
  assert.equal((await Deno.lstat(join(root, "sub/in3"))).isSymlink, true);
  const created = await box.tools.execute("write", { file_path: "subdir/new.txt", content: "n" });
  assert.equal(created.isError, false, created.content);
  assert.equal(await Deno.readTextFile(join(root, "sub/new.txt")), "n");
  const dangling = await box.tools.execute("write", { file_path: "sub/dangling_in", content: "d" });
  assert.equal(dangling.isError, false, dangling.content);
  assert.equal(await Deno.readTextFile(join(root, "missing_inside.txt")), "d");
  assert.equal((await Deno.lstat(join(root, "sub/dangling_in"))).isSymlink, true);
  assert.deepEqual(await tempFiles(root), []);
});

Deno.test("symlinks: link loops fail with FS_IO_ERROR and create nothing", async () => {
  await using box = await adversarialSandbox();
  const { root } = box;
  await Deno.symlink("loop2", join(root, "loop1"));
  await Deno.symlink("loop1", join(root, "loop2"));
  await Deno.symlink("self", join(root, "self"));
  await Deno.symlink("../outside/lo_back", join(root, "lo")); // a loop through the outside
  await Deno.symlink("../root/lo", join(box.outside, "lo_back"));
  const before = await outsideSnapshot(box);
  for (const path of ["loop1", "loop2", "self", "loop1/new.txt", "self/a/b.txt", "lo"]) {
    for (const op of OPS) {
      const result = await box.tools.execute(op, argsFor(op, path));
      assertWellFormedError(result);
      assert.ok(
        ["FS_IO_ERROR", "FS_OUTSIDE_ROOT"].includes(result.error!.code),
        `${op} ${path}: ${result.content}`,
      );
      if (result.error!.code === "FS_IO_ERROR") {
        assert.ok(result.content.startsWith(`Error: cannot ${op} "${path}": `), result.content);
      }
    }
  }
  assertSameTree(before, await outsideSnapshot(box), "the outside tree");
  const names = [...Deno.readDirSync(root)].map((e) => e.name).sort();
  assert.deepEqual(names, ["lo", "loop1", "loop2", "self"]);
});

Deno.test("symlinks: a symlinked root is resolved once, at construction", async () => {
  await using box = await adversarialSandbox();
  const { root, base } = box;
  await Deno.writeTextFile(join(root, "a.txt"), "alpha\n");
  const link = join(base, "rootlink");
  await Deno.symlink(root, link);
  const fs = new LocalFileSystem({ roots: [link] });
  assert.equal(fs.roots[0].path, root);
  const tools = createFsTools({ fs });
  assert.match((await tools.execute("read", { file_path: "a.txt" })).content, /1: alpha/);
  assert.match(
    (await tools.execute("read", { file_path: `${link}/a.txt` })).content,
    /1: alpha/,
  );
  const written = await tools.execute("write", { file_path: `${link}/b.txt`, content: "b" });
  assert.equal(written.isError, false, written.content);
  assert.equal(await Deno.readTextFile(join(root, "b.txt")), "b");
  for (const path of [`${link}/../secret.txt`, `${link}/../outside/secret.txt`]) {
    assertError(await tools.execute("read", { file_path: path }), "FS_OUTSIDE_ROOT");
  }
  // Re-pointing the link later does not move the root.
  await Deno.remove(link);
  await Deno.symlink(box.outside, link);
  const before = await outsideSnapshot(box);
  for (const op of OPS) {
    const result = await tools.execute(op, argsFor(op, `${link}/secret.txt`));
    assertError(result, "FS_OUTSIDE_ROOT");
    assertNoSecret(result);
  }
  assertSameTree(before, await outsideSnapshot(box), "the outside tree");
  assert.match((await tools.execute("read", { file_path: "a.txt" })).content, /1: alpha/);
});

Deno.test("symlinks: a hard link to an outside file is read, but write and edit replace only the link", async () => {
  await using box = await adversarialSandbox();
  const outsideFile = join(box.outside, "hard_secret.txt");
  await Deno.writeTextFile(outsideFile, `${SECRET} hard\n`);
  const inside = join(box.root, "hard.txt");
  await Deno.link(outsideFile, inside);
  // Documented behaviour: a hard link is the same file under a name inside the root; nothing
  // about it can be told apart from a file created there, so it is read like one.
  const read = await box.tools.execute("read", { file_path: "hard.txt" });
  assert.equal(read.isError, false, read.content);
  assert.match(read.content, /1: TOPSECRET-4f1c9a hard/);
  // A write replaces the directory entry with a new file: the outside file keeps its content.
  const write = await box.tools.execute("write", { file_path: "hard.txt", content: "mine\n" });
  assert.equal(write.isError, false, write.content);
  assert.equal(await Deno.readTextFile(inside), "mine\n");
  assert.equal(await Deno.readTextFile(outsideFile), `${SECRET} hard\n`);
  assert.equal((await Deno.stat(outsideFile)).nlink, 1);
  // The same for edit, through a fresh hard link.
  await Deno.remove(inside);
  await Deno.link(outsideFile, inside);
  await box.tools.execute("read", { file_path: "hard.txt" });
  const edit = await box.tools.execute("edit", {
    file_path: "hard.txt",
    old_string: "hard",
    new_string: "soft",
  });
  assert.equal(edit.isError, false, edit.content);
  assert.equal(await Deno.readTextFile(inside), `${SECRET} soft\n`);
  assert.equal(await Deno.readTextFile(outsideFile), `${SECRET} hard\n`);
  assert.deepEqual(await tempFiles(box.root), []);
});

Deno.test("symlinks: a link from a writable root into a read-only root is FS_READ_ONLY for write and edit", async () => {
  await using box = await adversarialSandbox();
  const ro = join(box.base, "ro");
  await Deno.mkdir(ro);
  await Deno.writeTextFile(join(ro, "doc.txt"), "read only\n");
  await Deno.symlink(join(ro, "doc.txt"), join(box.root, "doc.txt"));
  await Deno.symlink(ro, join(box.root, "rodir"));
  const fs = new LocalFileSystem({ roots: [box.root, { path: ro, write: false }] });
  const tools = createFsTools({ fs });
  assert.match((await tools.execute("read", { file_path: "doc.txt" })).content, /1: read only/);
  for (const path of ["doc.txt", "rodir/doc.txt", "rodir/new.txt", "rodir/new/deeper.txt"]) {
    for (const op of ["write", "edit"] as const) {
      const args = op === "write"
        ? { file_path: path, content: "x" }
        : { file_path: path, old_string: "read", new_string: "write" };
      const result = await tools.execute(op, args);
      if (result.error?.code === "FS_NOT_FOUND") continue; // edit of a missing file
      assertError(result, "FS_READ_ONLY", `cannot ${op} "${path}": the root is read-only`);
    }
  }
  assert.equal(await Deno.readTextFile(join(ro, "doc.txt")), "read only\n");
  assert.deepEqual([...Deno.readDirSync(ro)].map((e) => e.name), ["doc.txt"]);
});
