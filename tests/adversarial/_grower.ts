// An attacker process of hardening_test.ts: until `<stop>` exists, cuts `<file>` back to
// `<base>` bytes and appends lines to it, 4 MiB at a time, up to `<cap>` bytes, over and over,
// so a read of it sees a file that grows while it is read.
//
//   deno run --allow-read --allow-write _grower.ts <file> <stop> <base> <cap>
//
// Prints one JSON line: { cycles, appended } (appended in MiB).

const [path, stop, base, cap] = Deno.args;
const chunk = new TextEncoder().encode("grown line\n".repeat(Math.floor((4 << 20) / 11)));
let cycles = 0;
let appended = 0;
const file = Deno.openSync(path, { write: true });
outer: for (;;) {
  file.truncateSync(Number(base));
  file.seekSync(0, Deno.SeekMode.End);
  for (let size = Number(base); size < Number(cap); size += chunk.length) {
    try {
      Deno.statSync(stop);
      break outer;
    } catch {
      // keep growing
    }
    file.writeSync(chunk);
    appended += 4;
  }
  cycles++;
}
file.close();
console.log(JSON.stringify({ cycles, appended }));
