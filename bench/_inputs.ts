// Generates the comparison's inputs fast: a block of lines is built once and written over and
// over, with only the high digits of each line's number patched per block. Private to bench/.

const encoder = new TextEncoder();
const LEVELS = ["INFO ", "WARN ", "DEBUG", "ERROR"];
const NAMES = ["src", "Test", "data", "README", "img", "Zeta", "lib", "node"];

/** A generated text file: every line starts with its own zero-padded 1-based number. */
export interface GeneratedFile {
  path: string;
  bytes: number;
  lines: number;
  lineBytes: number;
}

/** Nine-digit zero-padded decimal. */
function digits9(n: number): string {
  return String(n).padStart(9, "0");
}

/**
 * One block of `count` lines of `lineBytes` bytes each (newline included), numbered 1..count.
 * A line of 100 bytes looks like a log line; a line of 10 bytes is just the number.
 */
function makeBlock(lineBytes: number, count: number): Uint8Array {
  let text = "";
  for (let i = 0; i < count; i++) {
    let line = digits9(i + 1);
    if (lineBytes > 10) {
      const mm = String(i % 60).padStart(2, "0");
      const ss = String((i >> 6) % 60).padStart(2, "0");
      const ms = String(i % 1000).padStart(3, "0");
      const id = (Math.imul(i, 2654435761) >>> 0).toString(16).padStart(8, "0");
      line += ` 2026-01-01T00:${mm}:${ss}.${ms}Z ${LEVELS[i % 4]} [worker-${i % 16}] ` +
        `request id=${id} status=200 took=${i % 97}ms`;
    }
    text += line.padEnd(lineBytes - 1, " ").slice(0, lineBytes - 1) + "\n";
  }
  return encoder.encode(text);
}

/**
 * Preallocates a file with `fallocate` when the machine has it (ext4 allocates lazily and a
 * fresh 1 GiB write costs seconds of system time otherwise).
 */
async function preallocate(path: string, bytes: number): Promise<void> {
  try {
    await new Deno.Command("fallocate", { args: ["-l", String(bytes), path] }).output();
  } catch {
    // no fallocate: plain writes
  }
}

/**
 * Writes a file of about `bytes` bytes of `lineBytes`-byte lines; line `n` starts with `n`,
 * nine digits, zero-padded. Blocks hold a power of ten of lines so only the upper digits of
 * each line change from one block to the next.
 */
export async function generateLines(
  path: string,
  bytes: number,
  lineBytes: number,
): Promise<GeneratedFile> {
  const perBlock = lineBytes >= 100 ? 10_000 : 100_000;
  const block = makeBlock(lineBytes, perBlock);
  const blocks = Math.max(1, Math.round(bytes / block.length));
  const total = blocks * block.length;
  await Deno.writeFile(path, new Uint8Array());
  await preallocate(path, total);
  const file = await Deno.open(path, { write: true });
  try {
    const lowDigits = String(perBlock).length - 1; // digits that repeat in every block
    const highDigits = 9 - lowDigits;
    const high = (n: number) => String(n).padStart(highDigits, "0");
    for (let b = 0; b < blocks; b++) {
      // Line i of block b is number b * perBlock + i + 1; the last line carries into b + 1.
      // Only the digits that differ from the previous block are rewritten.
      const [was, now] = [high(Math.max(b - 1, 0)), high(b)];
      for (let d = 0; d < highDigits; d++) {
        if (was[d] === now[d]) continue;
        for (let i = 0; i < perBlock - 1; i++) block[i * lineBytes + d] = now.charCodeAt(d);
      }
      const carry = high(b + 1);
      for (let d = 0; d < highDigits; d++) {
        block[(perBlock - 1) * lineBytes + d] = carry.charCodeAt(d);
      }
      let written = 0;
      while (written < block.length) written += await file.write(block.subarray(written));
    }
  } finally {
    file.close();
  }
  return { path, bytes: total, lines: blocks * perBlock, lineBytes };
}

/**
 * A directory of `count` entries, one in ten a directory, names of mixed case so the sort has
 * work to do.
 */
export function generateDirectory(path: string, count: number): void {
  Deno.mkdirSync(path, { recursive: true });
  for (let i = 0; i < count; i++) {
    const hash = (Math.imul(i + 1, 2654435761) >>> 0).toString(36);
    const name = `${path}/${NAMES[i % NAMES.length]}_${hash}_${i}`;
    if (i % 10 === 0) Deno.mkdirSync(name);
    else Deno.openSync(`${name}.txt`, { create: true, write: true }).close();
  }
}

/** A small file of `bytes` bytes of short numbered lines. */
export async function generateSmall(path: string, bytes: number): Promise<GeneratedFile> {
  const lines = Math.max(1, Math.floor(bytes / 10));
  await Deno.writeFile(path, makeBlock(10, lines));
  return { path, bytes: lines * 10, lines, lineBytes: 10 };
}
