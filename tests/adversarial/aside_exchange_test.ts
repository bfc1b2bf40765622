// C15.3 under attack (the red team's second pass on issue 30): a recursive delete renames its
// tree aside (`.toolfs-<8 hex>.del`), checks it, lists and locks its files (each at the version
// the session read, C5; each writable, C4.3b), then removes it. A process running as nobody that
// can write the tree's directory watches it with inotify and, once toolfs's write probe of the
// tree's last file has passed, exchanges the aside name (renameat2 RENAME_EXCHANGE) with a
// directory beside it that belongs to root, whose files the session never read and nobody could
// never remove itself (a nested read-only root is such a directory too). Before, the removal
// took whatever stood at the aside name by then: 72 of root's 80 files removed in 20 rounds
// (64 of 120 in 30 with a C attacker), with the read-before-write policy on. Now the tree is held by a descriptor from its identity
// check on, and listed, checked and emptied only through it; its emptied directory goes only
// while the aside name still holds it. Linux, as root with --allow-ffi; slow.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools, LocalFileSystem } from "../../mod.ts";
import { SECRET, skipUnless, slowCase, snapshot } from "./_harness.ts";
import { sandbox } from "../_sandbox.ts";
import { inotifyAttackSkip, NOBODY, nobodyDeno } from "./_nobody.ts";

const ROUNDS = 20;
const FILES = 4;

async function appears(path: string): Promise<void> {
  for (let i = 0; i < 2500; i++) {
    if (await Deno.lstat(path).then(() => true, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`the attacker never created ${path}`);
}

const name =
  "C15.3: a tree's aside name exchanged (inotify) after its checks with root's unread directory beside it: that directory is never emptied";
Deno.test({
  name,
  ...slowCase(),
  ignore: skipUnless(name, inotifyAttackSkip("inotify and renameat2")) || slowCase().ignore,
  async fn() {
    await using box = await sandbox("local", {});
    const base = await Deno.realPath(box.base);
    const root = join(base, "root");
    const ctl = join(base, "ctl");
    const attackDir = join(base, "attack");
    await Deno.chmod(base, 0o755);
    await Deno.chown(root, NOBODY, NOBODY);
    await Deno.mkdir(ctl);
    await Deno.chown(ctl, NOBODY, NOBODY);
    await Deno.mkdir(attackDir, { mode: 0o755 });
    for (const script of ["_aside_exchanger.ts", "_inotify.ts"]) {
      await Deno.copyFile(new URL(script, import.meta.url), join(attackDir, script));
      await Deno.chmod(join(attackDir, script), 0o644);
    }
    for (let i = 0; i < ROUNDS; i++) {
      // The tree nobody may delete itself, and root's directory nobody can only rename.
      await Deno.mkdir(join(root, `t${i}`, "sub"), { recursive: true });
      await Deno.mkdir(join(root, `v${i}`, "inner"), { recursive: true, mode: 0o755 });
      for (let k = 0; k < FILES; k++) {
        await Deno.writeTextFile(join(root, `t${i}`, "sub", `f${k}.txt`), "tree\n");
        await Deno.writeTextFile(join(root, `v${i}`, "inner", `p${k}.txt`), `${SECRET}\n`);
      }
      for (
        const p of [
          `t${i}`,
          `t${i}/sub`,
          ...[...Array(FILES).keys()].map((k) => `t${i}/sub/f${k}.txt`),
        ]
      ) {
        await Deno.chown(join(root, p), NOBODY, NOBODY);
      }
    }
    const tools = createFsTools({
      fs: new LocalFileSystem({ roots: [root] }),
      tools: ["list", "read", "delete"],
      cwd: root,
    });
    const session = {};
    const counts: Record<string, number> = {};
    let swaps = 0;
    for (let i = 0; i < ROUNDS; i++) {
      for (let k = 0; k < FILES; k++) {
        await tools.execute("read", { file_path: `t${i}/sub/f${k}.txt` }, { session });
      }
      const roundCtl = join(ctl, String(i));
      await Deno.mkdir(roundCtl);
      await Deno.chown(roundCtl, NOBODY, NOBODY);
      const attacker = (await nobodyDeno(
        base,
        ["--allow-read", "--allow-write", "--allow-ffi"],
        join(attackDir, "_aside_exchanger.ts"),
        [roundCtl, root, join(root, `t${i}`, "sub"), String(FILES), `v${i}`],
      )).spawn();
      try {
        await appears(join(roundCtl, "ready"));
        const result = await tools.execute("delete", { path: `t${i}`, recursive: true }, {
          session,
        });
        const key = result.error?.code ?? "ok";
        counts[key] = (counts[key] ?? 0) + 1;
        assert.ok(!result.isError || result.content.startsWith("Error: "), result.content);
      } finally {
        await Deno.writeTextFile(join(roundCtl, "stop"), "");
        const { stdout } = await attacker.output();
        const last = new TextDecoder().decode(stdout).trim().split("\n").at(-1);
        swaps += JSON.parse(last || "{}").swaps ?? 0;
      }
    }
    let kept = 0;
    for (const [, entry] of await snapshot(root)) {
      if (entry.type === "file" && entry.data === (await digest(`${SECRET}\n`))) kept++;
    }
    const lost = ROUNDS * FILES - kept;
    console.log(
      `${lost} of root's ${ROUNDS * FILES} files removed in ${ROUNDS} rounds ` +
        `(${swaps} exchanges; outcomes ${JSON.stringify(counts)})`,
    );
    assert.ok(swaps > 0, "the attacker never exchanged an aside name");
    assert.equal(lost, 0);
  },
});

/** The hex SHA-256 of `text`, as snapshot() records file contents. */
async function digest(text: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
