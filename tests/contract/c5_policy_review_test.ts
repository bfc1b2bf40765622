// Issue 34.6 (CONTRACT C1.2 policy objects, C5, C15.4): the intents a policy sees carry what a
// person reviewing them needs — edit's old and new text, and for write, edit, patch and delete
// a `change()` with the text before and after and a unified diff against the version it was
// read at — and nothing is read for it unless the policy asks. Both providers.

import assert from "node:assert/strict";
import {
  createFsTools,
  type FsChange,
  type FsDeleteCondition,
  type FsEntryIntent,
  FsError,
  type FsIntent,
  type FsObservation,
  type FsPolicy,
  ReadBeforeWritePolicy,
} from "../../mod.ts";
import type { FsPrecondition } from "../../provider.ts";
import { forEachProvider, type Sandbox } from "../_sandbox.ts";

/** The default gate, then a reviewer that looks at every change and approves it. */
class Reviewer implements FsPolicy {
  #gate = new ReadBeforeWritePolicy();
  seen: { op: string; tool?: string; edit?: FsIntent["edit"]; change?: FsChange }[] = [];
  moves: FsEntryIntent[] = [];

  async #review(intent: FsIntent | FsEntryIntent): Promise<FsChange | undefined> {
    const change = await intent.change?.();
    this.seen.push({
      op: intent.op,
      tool: "tool" in intent ? intent.tool : undefined,
      edit: "edit" in intent ? intent.edit : undefined,
      change,
    });
    return change;
  }
  writeIntent(intent: FsIntent): Promise<FsPrecondition> {
    return this.#approve(intent, this.#gate.writeIntent(intent));
  }
  editIntent(intent: FsIntent): Promise<FsPrecondition> {
    return this.#approve(intent, this.#gate.editIntent(intent));
  }
  /** As README's console approval: the diff must be against the version the session read. */
  async #approve(intent: FsIntent, allowed: FsPrecondition): Promise<FsPrecondition> {
    const change = await this.#review(intent);
    if (allowed.kind === "version" && change?.version !== allowed.version) {
      throw new FsError("FS_STALE");
    }
    return allowed;
  }
  moveIntent(intent: FsEntryIntent): void {
    this.moves.push(intent);
  }
  async deleteIntent(intent: FsEntryIntent): Promise<FsDeleteCondition> {
    const condition = this.#gate.deleteIntent(intent);
    await this.#review(intent);
    return condition;
  }
  observed(observation: FsObservation): void {
    this.#gate.observed(observation);
  }
}

function reviewed(box: Sandbox, policy: FsPolicy) {
  return createFsTools({
    fs: box.fs,
    policy,
    tools: ["read", "write", "edit", "move", "delete", "patch"],
  });
}

forEachProvider(
  "issue 34.6 write, edit, patch and delete intents carry the change as a unified diff",
  { "a.txt": "one\ntwo\nthree\n", "b.txt": "keep\ngone\n", "c.txt": "bye\n" },
  async (box) => {
    const policy = new Reviewer();
    const tools = reviewed(box, policy);
    for (const f of ["a.txt", "b.txt", "c.txt"]) await tools.execute("read", { file_path: f });
    const run = async (name: string, args: Record<string, unknown>) => {
      const result = await tools.execute(name, args);
      assert.equal(result.isError, false, result.content);
    };
    await run("edit", { file_path: "a.txt", old_string: "two", new_string: "2" });
    await run("write", { file_path: "new.txt", content: "fresh\n" });
    await run("write", { file_path: "a.txt", content: "one\n2\nthree\nfour\n" });
    await run("patch", {
      patch: "*** Begin Patch\n*** Update File: b.txt\n@@\n keep\n-gone\n+here\n*** End Patch",
    });
    await run("delete", { path: "c.txt" });
    assert.deepEqual(policy.seen.map(({ op, tool, edit, change }) => [op, tool, edit, change]), [
      ["edit", "edit", { oldString: "two", newString: "2", replaceAll: false }, {
        version: policy.seen[0].change!.version,
        before: "one\ntwo\nthree\n",
        after: "one\n2\nthree\n",
        diff: "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n",
      }],
      ["write", "write", undefined, {
        version: null,
        before: null,
        after: "fresh\n",
        diff: "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+fresh\n",
      }],
      ["write", "write", undefined, {
        version: policy.seen[2].change!.version,
        before: "one\n2\nthree\n",
        after: "one\n2\nthree\nfour\n",
        diff: "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,4 @@\n one\n 2\n three\n+four\n",
      }],
      ["edit", "patch", undefined, {
        version: policy.seen[3].change!.version,
        before: "keep\ngone\n",
        after: "keep\nhere\n",
        diff: "--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n keep\n-gone\n+here\n",
      }],
      ["delete", undefined, undefined, {
        version: policy.seen[4].change!.version,
        before: "bye\n",
        after: null,
        diff: "--- a/c.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n",
      }],
    ]);
    assert.equal(typeof policy.seen[0].change!.version, "string");
    assert.equal(await box.read("a.txt"), "one\n2\nthree\nfour\n");
    assert.equal(await box.read("b.txt"), "keep\nhere\n");
    assert.equal(await box.read("c.txt"), null);
  },
  { entries: true },
);

forEachProvider(
  "issue 34.6 a move intent names both paths; a failed edit's change is empty",
  { "a.txt": "one\n" },
  async (box) => {
    const policy = new Reviewer();
    const tools = reviewed(box, policy);
    await tools.execute("read", { file_path: "a.txt" });
    const missed = await tools.execute("edit", {
      file_path: "a.txt",
      old_string: "absent",
      new_string: "x",
    });
    assert.equal(missed.error?.code, "FS_NO_MATCH");
    assert.equal(policy.seen[0].change!.diff, "");
    assert.equal(
      (await tools.execute("move", {
        source_path: "a.txt",
        destination_path: "d/b.txt",
      })).isError,
      false,
    );
    assert.deepEqual(
      policy.moves.map((m) => [m.op, m.displayPath, m.destination?.displayPath, m.type]),
      [["move", "a.txt", "d/b.txt", "file"]],
    );
  },
  { entries: true },
);

forEachProvider(
  "issue 34.6 nothing is read for a change the policy does not ask for",
  { "secret.txt": "do not read\n" },
  async (box) => {
    let reads = 0;
    const fs = new Proxy(box.fs, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key === "readText") {
          return (...args: unknown[]) => {
            reads++;
            return value.apply(target, args);
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    // A policy that refuses every write and edit without looking.
    const refuse: FsPolicy = {
      writeIntent: () => {
        throw new Error("no");
      },
      editIntent: () => {
        throw new Error("no");
      },
      observed: () => {},
    };
    const tools = createFsTools({ fs, policy: refuse, tools: ["write", "edit"] });
    await tools.execute("write", { file_path: "secret.txt", content: "x" });
    await tools.execute("edit", { file_path: "secret.txt", old_string: "do", new_string: "x" });
    assert.equal(reads, 0);
  },
);

forEachProvider(
  "issue 34.6 a change since the session's read shows in change().version; the review refuses it",
  { "a.txt": "one\n" },
  async (box) => {
    const policy = new Reviewer();
    const tools = reviewed(box, policy);
    await tools.execute("read", { file_path: "a.txt" });
    await box.write("a.txt", "changed by someone else\n");
    const result = await tools.execute("edit", {
      file_path: "a.txt",
      old_string: "changed",
      new_string: "x",
    });
    assert.deepEqual([result.content, result.error?.code], [
      'Error: cannot edit "a.txt": it changed since it was last read; read it again',
      "FS_STALE",
    ]);
    assert.equal(policy.seen[0].change!.before, "changed by someone else\n");
    assert.equal(await box.read("a.txt"), "changed by someone else\n");
  },
);
