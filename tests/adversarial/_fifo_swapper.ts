// Exchanges `<a>` and `<b>` (renameat2 RENAME_EXCHANGE, atomic) in a loop until `<stop>` exists;
// prints `{ swaps }`. For fifo_pin_test.ts: a file or directory and a FIFO.
//
//   deno run --allow-read --allow-write --allow-ffi _fifo_swapper.ts <stop> <a> <b>

const [stop, a, b] = Deno.args;
const libc = Deno.dlopen("libc.so.6", {
  renameat2: { parameters: ["i32", "buffer", "i32", "buffer", "u32"], result: "i32" },
});
const AT_FDCWD = -100;
const RENAME_EXCHANGE = 2;
const from = new TextEncoder().encode(`${a}\0`);
const to = new TextEncoder().encode(`${b}\0`);
let swaps = 0;
Deno.writeTextFileSync(`${stop}.ready`, "");
for (;;) {
  for (let i = 0; i < 1000; i++) {
    if (libc.symbols.renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE) === 0) swaps++;
  }
  try {
    Deno.lstatSync(stop);
    break;
  } catch {
    // not yet
  }
}
libc.close();
console.log(JSON.stringify({ swaps }));
