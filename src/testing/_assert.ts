// Small assertion helpers of the conformance checks. Private to src/testing.

import assert from "node:assert/strict";
import { FsError, type FsErrorCode } from "../fs_error.ts";
import { concatBytes } from "../text/bytes.ts";
import type { FsOp, FsTarget } from "../provider/fs_provider.ts";
import type { FixtureLayout, ProviderFactory, ProviderFixture } from "./fixture.ts";

const decoder = new TextDecoder();

/** Bytes as UTF-8 text. */
export function text(bytes: Uint8Array | null): string | null {
  return bytes === null ? null : decoder.decode(bytes);
}

/** Runs `fn` on a fresh fixture and removes it afterwards, whatever happens. */
export async function withFixture(
  factory: ProviderFactory,
  layout: FixtureLayout,
  fn: (box: ProviderFixture) => Promise<void>,
): Promise<void> {
  const box = await factory(layout);
  try {
    await fn(box);
  } finally {
    await box.cleanup();
  }
}

/** Resolves a path relative to the base, from the first root, for `op`. */
export function target(box: ProviderFixture, path: string, op: FsOp = "read"): Promise<FsTarget> {
  return box.fs.resolve(`${box.base}/${path}`, { cwd: box.fs.roots[0].path, op });
}

/** Asserts that `promise` rejects with an `FsError` of `code`. */
export async function rejectsWith(promise: Promise<unknown>, code: FsErrorCode): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof FsError, `expected an FsError ${code}, got ${String(error)}`);
    assert.equal(error.code, code);
    return true;
  });
}

/** All chunks from `position` on, joined. */
export async function drain(
  chunks: (position: number) => AsyncIterable<Uint8Array>,
  position: number,
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks(position)) parts.push(chunk.slice()); // chunks may be reused
  return concatBytes(parts);
}
