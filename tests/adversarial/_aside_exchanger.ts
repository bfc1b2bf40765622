// The attacker of aside_exchange_test.ts, run as nobody: it watches `<dir>` with inotify and,
// the moment a `.toolfs-<hex>.del` name appears there (a recursive delete moving its tree
// aside), exchanges that name with `<dir>/v<k>` (renameat2 RENAME_EXCHANGE, atomic), k counting
// up from 0, once per aside name, after a delay that sweeps the delete's window (0 to 2.5 ms:
// after its identity check of the aside name, while it lists and locks). `<ctl>/stop` ends it, printing `{ swaps }`; it creates
// `<ctl>/ready` once it watches.
//
//   deno run --allow-read --allow-write --allow-ffi _aside_exchanger.ts <ctl> <dir>

import { Inotify } from "./_inotify.ts";

const IN_MOVED_TO = 0x80;
const IN_CREATE = 0x100;
const AT_FDCWD = -100;
const RENAME_EXCHANGE = 2;

const [ctl, dir] = Deno.args;
const libc = Deno.dlopen("libc.so.6", {
  renameat2: { parameters: ["i32", "buffer", "i32", "buffer", "u32"], result: "i32" },
});
const cString = (path: string) => new TextEncoder().encode(`${path}\0`);
const inotify = new Inotify();
inotify.watch(ctl, IN_CREATE);
inotify.watch(dir, IN_MOVED_TO);
Deno.writeTextFileSync(`${ctl}/ready`, "");
const DELAYS_MS = [0, 0.1, 0.2, 0.4, 0.7, 1, 1.5, 2.5];
const seen = new Set<string>();
let swaps = 0;
for (let stop = false; !stop;) {
  for (const event of inotify.read()) {
    if (event.name === "stop") stop = true;
    if (!/^\.toolfs-[0-9a-f]{8}\.del$/.test(event.name) || seen.has(event.name)) continue;
    seen.add(event.name);
    const until = performance.now() + DELAYS_MS[(seen.size - 1) % DELAYS_MS.length];
    while (performance.now() < until) {
      // busy: a timer is far coarser than the window
    }
    const done = libc.symbols.renameat2(
      AT_FDCWD,
      cString(`${dir}/${event.name}`),
      AT_FDCWD,
      cString(`${dir}/v${seen.size - 1}`),
      RENAME_EXCHANGE,
    );
    if (done === 0) swaps++;
  }
}
inotify.close();
libc.close();
console.log(JSON.stringify({ swaps }));
