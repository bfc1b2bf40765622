// Micro-benchmarks of the pure renderers (src/render/): a full `read` window and its pieces.

import { formatLine, renderRead, truncateLine } from "../src/render/read_render.ts";
import type { ReadLine } from "../src/types.ts";
import { utf8Length } from "../src/text/utf8.ts";

const window: ReadLine[] = [];
for (let n = 1; n <= 2000; n++) {
  window.push({ number: n, text: `line ${n}: `.padEnd(90, "é·a") });
}
const long = "x".repeat(5000);
const ascii = "a".repeat(100);
const wide = "é😀".repeat(30);

Deno.bench({
  name: "renderRead, 2000 lines of 90 characters",
  fn: () => void renderRead("logs/app.log", window, { start: 1, end: 2000, capped: false }),
});
Deno.bench({ name: "formatLine", fn: () => void formatLine(window[999]) });
Deno.bench({ name: "truncateLine, 5000 → 2000", fn: () => void truncateLine(long, 2000) });
Deno.bench({ name: "truncateLine, short line", fn: () => void truncateLine(ascii, 2000) });
Deno.bench({ name: "utf8Length, ASCII", fn: () => void utf8Length(ascii) });
Deno.bench({ name: "utf8Length, 2- and 4-byte", fn: () => void utf8Length(wide) });
