// The attacker of oracle_inotify_test.ts (issue 19, finding 2), run as nobody: it swaps the
// directory `<dir>` for a link to `<target>` (outside the root, which nobody cannot read) the
// moment a process opens `<inDir>/<inName>`, and swaps it back the moment one opens
// `<outDir>/<outName>` — the reviewer's inotify timing, which puts the link in place exactly
// while grep's prefilter (or search) reads the files below `<dir>`.
//
//   deno run --allow-read --allow-write --allow-ffi _inotify_swapper.ts \
//     <ctl> <dir> <target> <inDir> <inName> <outDir> <outName>
//
// Driven through files created in `<ctl>`: `go<i>` puts `<dir>` back if it is swapped and
// answers `ok<i>` holding `{ in, out }`, the swaps in and back since the previous `go`; `stop`
// ends it, printing `{ swaps }`. It creates `<ctl>/ready` once it watches.

import { IN_CREATE, IN_OPEN, Inotify } from "./_inotify.ts";

const [ctl, dir, target, inDir, inName, outDir, outName] = Deno.args;
const link = `${dir}.link`;
const hold = `${dir}.hold`;
Deno.symlinkSync(target, link);
const inotify = new Inotify();
const ctlWatch = inotify.watch(ctl, IN_CREATE);
const inWatch = inotify.watch(inDir, IN_OPEN);
const outWatch = inotify.watch(outDir, IN_OPEN);
Deno.writeTextFileSync(`${ctl}/ready`, "");

let swapped = false;
let swapsIn = 0;
let swapsOut = 0;
let total = 0;

function swapIn(): void {
  Deno.renameSync(dir, hold);
  Deno.renameSync(link, dir);
  swapped = true;
  swapsIn++;
  total++;
}

function swapBack(): void {
  Deno.renameSync(dir, link);
  Deno.renameSync(hold, dir);
  swapped = false;
  swapsOut++;
}

loop: for (;;) {
  for (const { wd, mask, name } of inotify.read()) {
    if (wd === inWatch && mask & IN_OPEN && name === inName) {
      if (!swapped) swapIn();
    } else if (wd === outWatch && mask & IN_OPEN && name === outName) {
      if (swapped) swapBack();
    } else if (wd === ctlWatch && mask & IN_CREATE) {
      if (name === "stop") break loop;
      if (!name.startsWith("go")) continue;
      if (swapped) swapBack();
      Deno.writeTextFileSync(`${ctl}/.answer`, JSON.stringify({ in: swapsIn, out: swapsOut }));
      Deno.renameSync(`${ctl}/.answer`, `${ctl}/ok${name.slice(2)}`);
      swapsIn = swapsOut = 0;
    }
  }
}
if (swapped) swapBack();
Deno.removeSync(link);
inotify.close();
console.log(JSON.stringify({ swaps: total }));
