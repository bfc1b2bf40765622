// inotify through libc (Linux), for the timing attack of oracle_inotify_test.ts: `Deno.watchFs`
// reports no open or access events, and the attacker must react within microseconds. Needs
// --allow-ffi. Self-contained (no imports): it is copied next to the attacker for `nobody`.

/** IN_ACCESS, IN_OPEN, IN_CREATE. */
export const IN_ACCESS = 0x1;
export const IN_OPEN = 0x20;
export const IN_CREATE = 0x100;

/** One inotify event: the watch, its mask and the name below the watched directory. */
export interface InotifyEvent {
  wd: number;
  mask: number;
  name: string;
}

/** An inotify instance: add watches, then read events (blocking, or whatever is queued). */
export class Inotify {
  #lib = Deno.dlopen("libc.so.6", {
    inotify_init1: { parameters: ["i32"], result: "i32" },
    inotify_add_watch: { parameters: ["i32", "buffer", "u32"], result: "i32" },
    read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
    close: { parameters: ["i32"], result: "i32" },
  });
  #fd: number;
  #buffer = new Uint8Array(64 * 1024);
  #decoder = new TextDecoder();

  /** `nonBlocking`: `read` returns what is queued (possibly nothing) instead of waiting. */
  constructor(nonBlocking = false) {
    this.#fd = this.#lib.symbols.inotify_init1(nonBlocking ? 0o4000 : 0); // IN_NONBLOCK
    if (this.#fd < 0) throw new Error("inotify_init1 failed");
  }

  /** Watches `path` for the events of `mask`; the watch descriptor. */
  watch(path: string, mask: number): number {
    const wd = this.#lib.symbols.inotify_add_watch(
      this.#fd,
      new TextEncoder().encode(`${path}\0`),
      mask,
    );
    if (wd < 0) throw new Error(`inotify_add_watch ${path} failed`);
    return wd;
  }

  /** The events queued (waits for one unless non-blocking; none then when nothing is queued). */
  read(): InotifyEvent[] {
    const n = Number(this.#lib.symbols.read(this.#fd, this.#buffer, BigInt(this.#buffer.length)));
    const events: InotifyEvent[] = [];
    if (n <= 0) return events;
    const view = new DataView(this.#buffer.buffer);
    for (let at = 0; at < n;) {
      const len = view.getUint32(at + 12, true);
      const raw = this.#buffer.subarray(at + 16, at + 16 + len);
      const end = raw.indexOf(0);
      events.push({
        wd: view.getInt32(at, true),
        mask: view.getUint32(at + 4, true),
        name: this.#decoder.decode(end < 0 ? raw : raw.subarray(0, end)),
      });
      at += 16 + len;
    }
    return events;
  }

  close(): void {
    this.#lib.symbols.close(this.#fd);
    this.#lib.close();
  }
}
