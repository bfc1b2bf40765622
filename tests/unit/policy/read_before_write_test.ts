// Unit tests of the read-before-write policy (src/policy/read_before_write.ts), CONTRACT C5.

import assert from "node:assert/strict";
import { FsError, type FsIntent, NO_POLICY, ReadBeforeWritePolicy } from "../../../mod.ts";

function intent(session: object, realPath: string, extra: Partial<FsIntent> = {}): FsIntent {
  return {
    op: "write",
    tool: "write",
    session,
    path: realPath,
    realPath,
    displayPath: realPath.slice(1),
    exists: true,
    content: "",
    change: () => Promise.reject(new Error("not read")),
    ...extra,
  };
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof FsError);
    return error.code;
  }
  throw new Error("expected an FsError");
}

Deno.test("read_before_write: creating a new file needs no read and must find it absent (C5.1)", () => {
  const policy = new ReadBeforeWritePolicy();
  assert.deepEqual(policy.writeIntent(intent({}, "/w/new", { exists: false })), { kind: "absent" });
});

Deno.test("read_before_write: a never-read file is refused with FS_NOT_OBSERVED (C5.3)", () => {
  const policy = new ReadBeforeWritePolicy();
  const session = {};
  assert.equal(code(() => policy.writeIntent(intent(session, "/w/a"))), "FS_NOT_OBSERVED");
  assert.equal(
    code(() => policy.editIntent(intent(session, "/w/a", { op: "edit" }))),
    "FS_NOT_OBSERVED",
  );
});

Deno.test("read_before_write: after a read, the precondition is the version read (C5.1, C5.2)", () => {
  const policy = new ReadBeforeWritePolicy();
  const session = {};
  policy.observed({ op: "read", session, path: "/w/a", realPath: "/w/a", version: "v1" });
  assert.deepEqual(policy.writeIntent(intent(session, "/w/a")), { kind: "version", version: "v1" });
  assert.deepEqual(policy.editIntent(intent(session, "/w/a", { op: "edit" })), {
    kind: "version",
    version: "v1",
  });
  // A session's own write counts as a read of the version it produced (C5.4).
  policy.observed({ op: "write", session, path: "/w/a", realPath: "/w/a", version: "v2" });
  assert.deepEqual(policy.editIntent(intent(session, "/w/a", { op: "edit" })), {
    kind: "version",
    version: "v2",
  });
});

Deno.test("read_before_write: observations are per session and per real path", () => {
  const policy = new ReadBeforeWritePolicy();
  const alice = {};
  const bob = {};
  policy.observed({ op: "read", session: alice, path: "/w/link", realPath: "/w/a", version: "v1" });
  assert.equal(code(() => policy.writeIntent(intent(bob, "/w/a"))), "FS_NOT_OBSERVED");
  assert.equal(code(() => policy.writeIntent(intent(alice, "/w/b"))), "FS_NOT_OBSERVED");
  // Keyed by the real path: another lexical path to the same file counts.
  assert.deepEqual(policy.writeIntent(intent(alice, "/w/a", { path: "/w/other" })), {
    kind: "version",
    version: "v1",
  });
  assert.equal(policy.versionOf(alice, "/w/a"), "v1");
  assert.equal(policy.versionOf(bob, "/w/a"), undefined);
});

Deno.test("read_before_write: observations() is a copy; forget() drops a session", () => {
  const policy = new ReadBeforeWritePolicy();
  const session = {};
  policy.observed({ op: "read", session, path: "/w/a", realPath: "/w/a", version: "v1" });
  const copy = policy.observations(session);
  copy.set("/w/b", "x");
  assert.deepEqual([...policy.observations(session)], [["/w/a", "v1"]]);
  policy.forget(session);
  assert.deepEqual([...policy.observations(session)], []);
  assert.equal(code(() => policy.writeIntent(intent(session, "/w/a"))), "FS_NOT_OBSERVED");
});

Deno.test("read_before_write: NO_POLICY approves everything unconditionally (C5.6)", () => {
  assert.deepEqual(NO_POLICY.writeIntent(intent({}, "/w/a")), { kind: "none" });
  assert.deepEqual(NO_POLICY.writeIntent(intent({}, "/w/a", { exists: false })), { kind: "none" });
  assert.deepEqual(NO_POLICY.editIntent(intent({}, "/w/a", { op: "edit" })), { kind: "none" });
  NO_POLICY.observed({ op: "read", session: {}, path: "/w/a", realPath: "/w/a", version: "v" });
  assert.ok(Object.isFrozen(NO_POLICY));
});
