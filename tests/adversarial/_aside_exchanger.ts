// The attacker of aside_exchange_test.ts, run as nobody. It watches `<dir>` with inotify for
// the `.toolfs-<hex>.del` name a recursive delete moves its tree to, and `<sub>` (a directory of
// that tree) for IN_CLOSE_WRITE: toolfs's write probe of each file (C4.3b), the last of its
// checks. After `<n>` of those, when every file has passed, it exchanges the aside name with
// `<dir>/<victim>` (renameat2 RENAME_EXCHANGE: atomic; nobody may rename a directory within its
// directory, not empty it). `<ctl>/stop` ends it, printing `{ swaps }`; it creates
// `<ctl>/ready` once it watches.
//
//   deno run --allow-read --allow-write --allow-ffi _aside_exchanger.ts \
//     <ctl> <dir> <sub> <n> <victim>

import { Inotify } from "./_inotify.ts";

const IN_CLOSE_WRITE = 0x8;
const IN_MOVED_TO = 0x80;
const IN_CREATE = 0x100;
const AT_FDCWD = -100;
const RENAME_EXCHANGE = 2;

const [ctl, dir, sub, n, victim] = Deno.args;
const libc = Deno.dlopen("libc.so.6", {
  renameat2: { parameters: ["i32", "buffer", "i32", "buffer", "u32"], result: "i32" },
});
const cString = (path: string) => new TextEncoder().encode(`${path}\0`);
const inotify = new Inotify();
const ctlWatch = inotify.watch(ctl, IN_CREATE);
const dirWatch = inotify.watch(dir, IN_MOVED_TO);
const subWatch = inotify.watch(sub, IN_CLOSE_WRITE);
Deno.writeTextFileSync(`${ctl}/ready`, "");
let aside = "";
let probes = 0;
let swaps = 0;
for (let stop = false; !stop;) {
  for (const event of inotify.read()) {
    if (event.wd === ctlWatch && event.name === "stop") stop = true;
    if (event.wd === dirWatch && /^\.toolfs-[0-9a-f]{8}\.del$/.test(event.name)) aside = event.name;
    if (event.wd !== subWatch || ++probes !== Number(n) || aside === "") continue;
    const done = libc.symbols.renameat2(
      AT_FDCWD,
      cString(`${dir}/${aside}`),
      AT_FDCWD,
      cString(`${dir}/${victim}`),
      RENAME_EXCHANGE,
    );
    if (done === 0) swaps++;
  }
}
inotify.close();
libc.close();
console.log(JSON.stringify({ swaps }));
