// An attacker process of hardening_test.ts: watches `<dir>` for toolfs's temporary files and,
// until `<stop>` exists, either records the mode each one has (`observe`) or renames a symlink
// to `<target>` over it (`swap`), as fast as it can.
//
//   deno run --allow-read --allow-write _temp_watcher.ts <dir> <stop> observe|swap [<target>]
//
// Prints one JSON line: { seen, modes, swaps }.

const [dir, stop, mode, target] = Deno.args;
const TEMP = /^\.(?:.*\.)?toolfs-[0-9a-f]{8}\.tmp$/;
const modes = new Set<number>();
const done = new Set<string>();
let seen = 0;
let swaps = 0;
let links = 0;

for (let round = 0;; round++) {
  if (round % 64 === 0) {
    try {
      Deno.statSync(stop);
      break;
    } catch {
      // keep watching
    }
  }
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].map((entry) => entry.name);
  } catch {
    continue;
  }
  for (const name of names) {
    if (!TEMP.test(name) || done.has(name)) continue;
    const path = `${dir}/${name}`;
    try {
      const info = Deno.lstatSync(path);
      if (!info.isFile) continue;
      seen++;
      if (mode === "observe") {
        modes.add(info.mode! & 0o7777);
        continue;
      }
      const link = `${dir}/.attack-${links++}`;
      Deno.symlinkSync(target, link);
      Deno.renameSync(link, path);
      swaps++;
      done.add(name);
    } catch {
      // gone meanwhile
    }
  }
}
console.log(JSON.stringify({ seen, modes: [...modes], swaps }));
