// One call's pacing of synchronous search work (the walk, grep's scans): yield to timers and the
// abort signal about every 10 ms. Shared by grep and glob (through the walk).

import { setImmediate } from "node:timers";
import { FsError } from "../fs_error.ts";

/**
 * One call's yield clock: `pause()` lets timers and the abort signal run about every 10 ms of
 * synchronous work (through `setImmediate`: `setTimeout(0)` costs milliseconds a yield in Deno).
 * One per call, so one call's work never counts against another's.
 */
export class YieldClock {
  #last = performance.now();

  /** @param signal The call's signal, checked at each yield. */
  constructor(readonly signal?: AbortSignal) {}

  /** Yields when 10 ms have passed since the last yield; then throws `FS_ABORTED` if aborted. */
  async pause(): Promise<void> {
    if (performance.now() - this.#last < 10) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.#last = performance.now();
    if (this.signal?.aborted) throw new FsError("FS_ABORTED");
  }
}
