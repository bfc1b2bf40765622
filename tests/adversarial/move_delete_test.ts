// C15 under attack (C3.2): while a child process swaps a directory inside the root for a
// symlink to an outside directory thousands of times a second, `move` and `delete` go through
// it (files, trees, and destinations inside it). Nothing outside is created, changed or
// removed. Descriptor checks (Linux, /proc/self/fd); slow: `deno task test:slow`.

import assert from "node:assert/strict";
import { join } from "node:path";
import { createFsTools } from "../../mod.ts";
import {
  adversarialSandbox,
  cannotRun,
  figure,
  notSlowRun,
  outsideSnapshot,
  SECRET,
  skipUnless,
  startChild,
} from "./_harness.ts";

const ROUNDS = 300;

const name =
  `move/delete: a directory swapped for a link out during ${ROUNDS} rounds of move and delete`;
Deno.test({
  name,
  ignore: skipUnless(
    name,
    notSlowRun() ?? cannotRun() ?? (Deno.build.os !== "linux" ? "needs Linux" : null),
  ),
  async fn() {
    await using box = await adversarialSandbox();
    const { root, outside, fs } = box;
    const d = join(root, "d");
    await Deno.mkdir(d);
    for (let i = 0; i < ROUNDS; i++) {
      for (const dir of [d, outside]) {
        const text = dir === d ? "inside\n" : `${SECRET}\n`;
        await Deno.writeTextFile(join(dir, `f${i}.txt`), text);
        await Deno.writeTextFile(join(dir, `m${i}.txt`), text);
        await Deno.mkdir(join(dir, `t${i}`, "sub"), { recursive: true });
        await Deno.writeTextFile(join(dir, `t${i}`, "sub", "x.txt"), text);
      }
      await Deno.writeTextFile(join(root, `n${i}.txt`), "inside\n");
    }
    const before = await outsideSnapshot(box);
    const stop = join(root, "stop");
    const swapper = startChild("./_swapper.ts", stop, [stop, d, outside], {
      permissions: ["--allow-read", "--allow-write"],
    });
    for (let i = 0; i < 500; i++) {
      if (await Deno.lstat(`${d}.link`).then(() => true, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const tools = createFsTools({ fs, policy: false, tools: ["move", "delete"] });
    const counts: Record<string, number> = {};
    const samples = new Set<string>();
    let swaps = 0;
    try {
      for (let i = 0; i < ROUNDS; i++) {
        const calls: [string, Record<string, unknown>][] = [
          ["delete", { path: `d/f${i}.txt` }],
          ["delete", { path: `d/t${i}`, recursive: true }],
          ["move", { source_path: `d/m${i}.txt`, destination_path: `m${i}.txt` }],
          ["move", { source_path: `n${i}.txt`, destination_path: `d/n${i}.txt` }],
        ];
        for (const [tool, args] of calls) {
          const result = await tools.execute(tool, args);
          const key = `${tool}:${result.error?.code ?? "ok"}`;
          counts[key] = (counts[key] ?? 0) + 1;
          assert.ok(!result.content.includes(SECRET), result.content);
          if (result.error?.code === "FS_IO_ERROR") samples.add(result.content);
        }
      }
    } finally {
      ({ swaps } = await swapper.stop<{ swaps: number }>());
    }
    const after = await outsideSnapshot(box);
    const created = [...after.keys()].filter((k) => !before.has(k));
    const changed = [...before.keys()].filter((k) => {
      const [was, now] = [before.get(k)!, after.get(k)];
      return !now || was.type !== now.type || was.data !== now.data || was.ino !== now.ino;
    });
    assert.deepEqual(created, [], "entries created outside");
    assert.deepEqual(changed, [], "outside entries changed or removed");
    assert.ok(swaps > ROUNDS, `only ${swaps} swaps: the race did not run`);
    figure(
      "move/delete",
      `${ROUNDS * 4} calls against ${swaps} swaps: ${JSON.stringify(counts)}; I/O errors: ${
        [...samples].join(" | ")
      }`,
    );
  },
});
