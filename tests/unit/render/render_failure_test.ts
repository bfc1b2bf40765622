// Unit tests of `renderFailure` (src/render/errors.ts): the one place a failure becomes the
// model-facing `content` of an error result (CONTRACT C7.1).

import assert from "node:assert/strict";
import { FsError } from "../../../src/fs_error.ts";
import { IO_DETAILS, renderFailure } from "../../../src/render/errors.ts";

const path = { given: "../secret/key.pem", shown: "/elsewhere/secret/key.pem" };

Deno.test("C7.3: renderFailure shows FS_OUTSIDE_ROOT with the path as the caller gave it", () => {
  assert.equal(
    renderFailure(new FsError("FS_OUTSIDE_ROOT"), "read", path),
    'Error: cannot read "../secret/key.pem": outside the permitted roots',
  );
});

Deno.test("C7.1: renderFailure shows other codes with the display path and their reason", () => {
  assert.equal(
    renderFailure(new FsError("FS_READ_ONLY"), "edit", path),
    'Error: cannot edit "/elsewhere/secret/key.pem": the root is read-only',
  );
  assert.equal(
    renderFailure(new FsError("FS_NOT_DIRECTORY"), "list", path),
    'Error: cannot list "/elsewhere/secret/key.pem": not a directory',
  );
  assert.equal(
    renderFailure(new FsError("FS_NOT_DIRECTORY"), "read", path),
    'Error: cannot read "/elsewhere/secret/key.pem": a parent is not a directory',
  );
});

Deno.test("C7.1: renderFailure shows an FS_IO_ERROR's detail after the path", () => {
  const error = new FsError("FS_IO_ERROR", { detail: IO_DETAILS.symlinkLoop });
  assert.equal(
    renderFailure(error, "read", { given: "a", shown: "a" }),
    'Error: cannot read "a": too many levels of symbolic links',
  );
});

Deno.test("C7.1: renderFailure shows a complete message (a host policy's) as given", () => {
  const error = new FsError("FS_PERMISSION_DENIED", { message: "the user declined the write" });
  assert.equal(
    renderFailure(error, "write", path, ["ignored.txt"]),
    "Error: the user declined the write",
  );
});

Deno.test("C12.5: renderFailure adds did-you-mean to a missing target, never to a write", () => {
  const missing = { given: "src/mian.ts", shown: "src/mian.ts" };
  const close = ["src/main.ts", "src/min.ts"];
  assert.equal(
    renderFailure(new FsError("FS_NOT_FOUND"), "edit", missing, close),
    'Error: cannot edit "src/mian.ts": not found; did you mean "src/main.ts" or "src/min.ts"?',
  );
  assert.equal(
    renderFailure(new FsError("FS_NOT_FOUND"), "read", missing),
    'Error: cannot read "src/mian.ts": not found',
  );
  assert.equal(
    renderFailure(new FsError("FS_NOT_FOUND"), "write", missing, close),
    'Error: cannot write "src/mian.ts": not found',
  );
});
