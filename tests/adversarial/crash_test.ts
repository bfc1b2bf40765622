// C4.3 atomic replacement under SIGKILL: a child process rewrites a large file in a loop (by
// `write`, or by a streamed `edit` of one line: issue 20 item 7) and is killed at random
// moments; after every kill the file holds exactly the old or the new content.
// Needs --allow-run (CI runs it with `deno test -A`).

import assert from "node:assert/strict";
import { join } from "node:path";
import { crashContents, crashEditContents } from "./_crash_child.ts";
import { needsRun } from "../_helpers.ts";
import { sandbox } from "../_sandbox.ts";
import { killWhenReady, rootPermissions, slowCase } from "./_harness.ts";

const KILLS = 50;

async function digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

for (
  const [how, contents, kills] of [
    ["write", crashContents, KILLS],
    ["streamed edit of one line", crashEditContents, 30],
  ] as const
) {
  const name =
    `C4.3 a ${how} killed with SIGKILL at any moment leaves exactly the old or the new content`;
  Deno.test({
    name,
    ignore: slowCase().ignore || needsRun(name),
    async fn() {
      await using box = await sandbox("local");
      const [a, b] = contents();
      const encoder = new TextEncoder();
      const wanted = new Map([
        [await digest(encoder.encode(a)), "a"],
        [await digest(encoder.encode(b)), "b"],
      ]);
      const path = join(box.root, "big.txt");
      await Deno.writeTextFile(path, a);
      const seen = { a: 0, b: 0, interruptedWrites: 0 };
      const mode = how === "write" ? [] : ["edit"];
      for (let kill = 0; kill < kills; kill++) {
        await killWhenReady("./_crash_child.ts", [box.root, "big.txt", ...mode], {
          permissions: rootPermissions(box.root),
          stderr: "inherit",
        }, 250);
        const bytes = await Deno.readFile(path);
        const which = wanted.get(await digest(bytes));
        assert.ok(which, `kill ${kill}: the file holds ${bytes.length} bytes of neither content`);
        seen[which as "a" | "b"]++;
        // A kill mid-write can only leave its temporary file behind; clear it for the next round.
        for await (const entry of Deno.readDir(box.root)) {
          if (entry.name.includes(".toolfs-")) {
            seen.interruptedWrites++;
            await Deno.remove(join(box.root, entry.name));
          }
        }
      }
      console.log(
        `${how}: ${kills} kills: ${seen.a} left content A, ${seen.b} content B; ` +
          `${seen.interruptedWrites} interrupted a write`,
      );
      assert.ok(seen.interruptedWrites > 0, "no kill landed during a write");
    },
  });
}
