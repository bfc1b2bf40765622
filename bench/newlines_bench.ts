// Micro-benchmarks of the newline counter behind `read` (src/text/newlines.ts): the SWAR
// count against the obvious loops, on 64 MiB of 100-byte and of 10-byte lines.

import { countNewlines } from "../src/text/newlines.ts";

const SIZE = 64 * 1024 * 1024;

function lines(lineBytes: number): Uint8Array {
  const bytes = new Uint8Array(SIZE).fill(0x61);
  for (let i = lineBytes - 1; i < SIZE; i += lineBytes) bytes[i] = 0x0a;
  return bytes;
}

const log = lines(100);
const short = lines(10);

function countByIndexOf(bytes: Uint8Array): number {
  let count = 0;
  for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) count++;
  return count;
}

function countByLoop(bytes: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) count++;
  return count;
}

for (const [name, bytes] of [["100-byte lines", log], ["10-byte lines", short]] as const) {
  const group = `count newlines in 64 MiB of ${name}`;
  Deno.bench({
    name: `countNewlines (SWAR), ${name}`,
    group,
    baseline: true,
    fn: () => void countNewlines(bytes),
  });
  Deno.bench({
    name: `indexOf per line, ${name}`,
    group,
    fn: () => void countByIndexOf(bytes),
  });
  Deno.bench({ name: `byte loop, ${name}`, group, fn: () => void countByLoop(bytes) });
}
