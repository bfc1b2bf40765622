// A child process that swaps each `<path>` between what it is (a directory or a file) and a
// symlink to its `<target>`, as fast as it can, until `<stop>` exists. Used by races_test.ts
// for real concurrency.
//
//   deno run --allow-read --allow-write _swapper.ts <stop> <path> <target> [<path> <target>...]
//
// (Deno.symlink needs unscoped read and write grants.) While `<path>` is briefly missing, a
// write through it may create a fresh directory or file there; the swapper moves it aside
// (`<path>.junk<n>`, still inside the root) and goes on. Prints `{ swaps }` at the end.

const [stop, ...pairs] = Deno.args;
const swapped: { path: string; hold: string; staged: string }[] = [];
for (let i = 0; i < pairs.length; i += 2) {
  const path = pairs[i];
  const staged = `${path}.link`;
  Deno.symlinkSync(pairs[i + 1], staged);
  swapped.push({ path, hold: `${path}.hold`, staged });
}
let swaps = 0;
let junk = 0;

/** Renames `from` to `to`; when `to` was recreated meanwhile, moves it aside and retries. */
function put(from: string, to: string): void {
  for (;;) {
    try {
      Deno.renameSync(from, to);
      return;
    } catch (error) {
      const taken = error instanceof Deno.errors.AlreadyExists ||
        error instanceof Deno.errors.IsADirectory ||
        (error instanceof Error && /not empty|os error 39|os error 20/i.test(error.message));
      if (!taken) throw error;
      Deno.renameSync(to, `${to}.junk${junk++}-${crypto.randomUUID().slice(0, 8)}`);
    }
  }
}

for (;;) {
  if (swaps % 64 === 0) {
    try {
      Deno.statSync(stop);
      break;
    } catch {
      // keep swapping
    }
  }
  for (const { path, hold, staged } of swapped) {
    put(path, hold); // the original steps aside
    put(staged, path); // the link takes its name
    Deno.renameSync(path, staged); // the link steps aside
    put(hold, path); // the original is back
  }
  swaps++;
}
for (const { staged } of swapped) Deno.removeSync(staged);
console.log(JSON.stringify({ swaps }));
