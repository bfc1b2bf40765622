// A LocalFileSystem that records which provider methods the tools call (and whether each call
// carried a signal). Everything still runs against the real file system.

import { LocalFileSystem } from "../mod.ts";
import type {
  FsCallOptions,
  FsContentRequest,
  FsDirEntry,
  FsEditOutcome,
  FsFileContent,
  FsMutationOptions,
  FsReadHandle,
  FsReplaceOutcome,
  FsReplaceRequest,
  FsResolveOptions,
  FsStat,
  FsTarget,
  FsWriteOutcome,
} from "../provider.ts";

/** One recorded provider call. */
export interface RecordedCall {
  method: string;
  withSignal: boolean;
}

export class RecordingFs extends LocalFileSystem {
  readonly calls: RecordedCall[] = [];

  #note(method: string, options?: FsCallOptions): void {
    this.calls.push({ method, withSignal: options?.signal instanceof AbortSignal });
  }

  get methods(): string[] {
    return this.calls.map((call) => call.method);
  }

  override resolve(path: string, options: FsResolveOptions): Promise<FsTarget> {
    this.#note("resolve", options);
    return super.resolve(path, options);
  }

  override stat(target: FsTarget, options?: FsCallOptions): Promise<FsStat | null> {
    this.#note("stat", options);
    return super.stat(target, options);
  }

  override listDir(target: FsTarget, options?: FsCallOptions): Promise<FsDirEntry[]> {
    this.#note("listDir", options);
    return super.listDir(target, options);
  }

  override readText(target: FsTarget, options?: FsCallOptions): Promise<FsFileContent> {
    this.#note("readText", options);
    return super.readText(target, options);
  }

  override streamText(target: FsTarget, options?: FsCallOptions): Promise<FsReadHandle> {
    this.#note("streamText", options);
    return super.streamText(target, options);
  }

  override writeText(
    target: FsTarget,
    content: string,
    options?: FsMutationOptions,
  ): Promise<FsWriteOutcome> {
    this.#note("writeText", options);
    return super.writeText(target, content, options);
  }

  override editText(
    target: FsTarget,
    request: FsContentRequest,
    options?: FsMutationOptions,
  ): Promise<FsEditOutcome>;
  override editText(
    target: FsTarget,
    request: FsReplaceRequest,
    options?: FsMutationOptions,
  ): Promise<FsReplaceOutcome>;
  override editText(
    target: FsTarget,
    request: FsContentRequest | FsReplaceRequest,
    options?: FsMutationOptions,
  ): Promise<FsEditOutcome | FsReplaceOutcome> {
    this.#note("editText", options);
    return super.editText(target, request as FsContentRequest, options);
  }
}

/**
 * A read handle that gives what `handle` gives, calling `count` with each chunk's length: how a
 * test measures the bytes a streamed read really consumed.
 */
export function countingHandle(handle: FsReadHandle, count: (bytes: number) => void): FsReadHandle {
  return {
    version: handle.version,
    cacheKey: handle.cacheKey,
    size: handle.size,
    close: () => handle.close(),
    async *chunks(position: number) {
      for await (const chunk of handle.chunks(position)) {
        count(chunk.length);
        yield chunk;
      }
    },
  };
}
