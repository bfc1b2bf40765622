// Micro-benchmarks of the read window scanner (src/text/read_window.ts) on bytes in memory:
// the default first window (the byte cap ends it), ASCII lines against lines with accents.

import { type ChunkSource, scanWindow } from "../src/text/read_window.ts";
import { lineCost, truncateLine } from "../src/render/read_render.ts";

const encoder = new TextEncoder();

function lines(template: string, count: number): Uint8Array {
  let text = "";
  for (let n = 1; n <= count; n++) text += `${n} ${template}`.padEnd(99, ".") + "\n";
  return encoder.encode(text);
}

const ascii = lines("2026-01-01T00:00:00Z INFO request served", 20_000);
const accented = lines("2026-01-01T00:00:00Z INFO requête servie à l'hôte", 20_000);
const window = {
  offset: 1,
  limit: 2000,
  maxBytes: 51200,
  maxLineLength: 2000,
  truncate: truncateLine,
  cost: lineCost,
};

function source(bytes: Uint8Array): ChunkSource {
  return async function* (position) {
    yield bytes.subarray(position);
  };
}

Deno.bench({
  name: "first window, ASCII lines",
  group: "scanWindow, default caps (the byte cap ends the window)",
  baseline: true,
  fn: async () => void await scanWindow(source(ascii), window),
});
Deno.bench({
  name: "first window, lines with accents",
  group: "scanWindow, default caps (the byte cap ends the window)",
  fn: async () => void await scanWindow(source(accented), window),
});
Deno.bench({
  name: "window at line 10000, ASCII lines",
  group: "scanWindow, default caps (the byte cap ends the window)",
  fn: async () => void await scanWindow(source(ascii), { ...window, offset: 10_000 }),
});
