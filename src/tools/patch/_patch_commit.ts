// The commit of a checked `patch` (CONTRACT C16.2): each file replaced atomically through the
// provider, in patch order with deletions last; when one fails, the files already changed are
// put back, byte for byte, before the error is returned. Private to src/tools.

import type { FsProvider, FsTarget } from "../../provider/fs_provider.ts";
import type { PatchFile, PlannedOperation } from "./_patch_plan.ts";
import { asPatchFailure, PatchFailureError, withUnrestored } from "./_patch_failure.ts";
import type { ToolEnv } from "../_context.ts";

/** What a committed operation left, for its observation. */
export interface Committed {
  /** The file now holding the new content (the destination of a move), or the deleted one. */
  target: FsTarget;
  /** Its version; `""` for a deletion. */
  version: string;
  op: "write" | "edit" | "delete";
  /** A move's source. */
  from?: FsTarget;
}

/** How to undo one committed step. */
type Undo = { file: PatchFile; run: () => Promise<unknown> };

/**
 * Commits every planned operation, in order except that deletions come last. When one fails,
 * undoes the steps already taken, newest first, and throws the failure with a tail saying so.
 */
export async function commitAll(
  env: ToolEnv,
  planned: readonly PlannedOperation[],
): Promise<Committed[]> {
  const fs = env.fs;
  const undos: Undo[] = [];
  const committed: Committed[] = new Array(planned.length);
  const order = [...planned.keys()].sort((a, b) => rank(planned[a]) - rank(planned[b]));
  for (const i of order) {
    const op = planned[i];
    try {
      committed[i] = await commitOne(fs, op, undos);
    } catch (error) {
      const failure = asPatchFailure(error, op.file, op.file.shown);
      const unrestored = await undoAll(undos);
      if (undos.length === 0 || !(failure instanceof PatchFailureError)) throw failure;
      throw withUnrestored(failure, unrestored);
    }
  }
  return committed;
}

/**
 * Commit order: writes, then deletions of files, then of links, which cannot be put back (the
 * provider creates no links), so that only a later link's failure finds one gone.
 */
function rank(op: PlannedOperation): number {
  if (op.kind !== "delete") return 0;
  return op.before ? 1 : 2;
}

/** One operation's provider calls (no signal: past the commit point a call runs to its end). */
async function commitOne(
  fs: FsProvider,
  op: PlannedOperation,
  undos: Undo[],
): Promise<Committed> {
  const { target } = op.file;
  switch (op.kind) {
    case "add": {
      const outcome = await fs.writeText(target, op.text, { precondition: op.precondition });
      undos.push({ file: op.file, run: () => removeFile(fs, target) });
      return { target, version: outcome.version, op: "write" };
    }
    case "update": {
      const outcome = await fs.editText(target, { content: op.after.pieces }, {
        precondition: op.precondition,
      });
      const before = op.before;
      undos.push({
        file: op.file,
        run: () =>
          fs.editText(target, { content: before }, {
            precondition: { kind: "version", version: outcome.version },
          }),
      });
      if (!op.to) return { target, version: outcome.version, op: "edit" };
      const to = op.to.file.target;
      const moved = await fs.moveEntry(target, to);
      undos.push({ file: op.to.file, run: () => fs.moveEntry(to, target) });
      return { target: to, version: moved.version ?? outcome.version, op: "edit", from: target };
    }
    case "delete": {
      const before = op.before;
      if (!before) {
        // A link: removed only while no regular file stands there.
        await fs.removeEntry(target, { expect: new Map() });
        undos.push({ file: op.file, run: () => Promise.reject(new Error("not recreated")) });
        return { target, version: "", op: "delete" };
      }
      await removeFile(fs, target, op.precondition);
      undos.push({ file: op.file, run: () => recreate(fs, target, before) });
      return { target, version: "", op: "delete" };
    }
  }
}

/** Runs the undos newest first; returns the display paths that could not be put back. */
async function undoAll(undos: readonly Undo[]): Promise<string[]> {
  const failed: string[] = [];
  for (const undo of [...undos].reverse()) {
    try {
      await undo.run();
    } catch {
      failed.push(undo.file.shown);
    }
  }
  return failed;
}

async function removeFile(
  fs: FsProvider,
  target: FsTarget,
  precondition?: PlannedOperation["precondition"],
): Promise<void> {
  const expect = precondition?.kind === "version"
    ? new Map([[target.realPath, precondition.version]])
    : undefined;
  await fs.removeEntry(target, { expect });
}

/** Puts a deleted file back, byte for byte: created empty, then given its old bytes. */
async function recreate(fs: FsProvider, target: FsTarget, bytes: Uint8Array): Promise<void> {
  const created = await fs.writeText(target, "", { precondition: { kind: "absent" } });
  await fs.editText(target, { content: bytes }, {
    precondition: { kind: "version", version: created.version },
  });
}
