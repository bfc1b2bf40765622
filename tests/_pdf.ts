// A minimal PDF writer for tests and benchmarks: pages of plain ASCII lines in Helvetica, no
// compression, a correct cross-reference table. Enough for pdf.js to extract each line.

const encoder = new TextEncoder();

/**
 * A PDF whose page `i` shows the lines `pages[i]`, one text line each.
 *
 * @param pages The lines of each page (ASCII).
 * @returns The file's bytes.
 */
export function makePdf(pages: readonly (readonly string[])[]): Uint8Array {
  const objects: string[] = [];
  const n = pages.length;
  const font = 3 + 2 * n;
  const kids = pages.map((_, i) => `${3 + 2 * i} 0 R`).join(" ");
  objects.push("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${n} >>`);
  pages.forEach((lines, i) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 ${Math.max(100, 14 * lines.length + 40)}] ` +
        `/Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${4 + 2 * i} 0 R >>`,
    );
    const shown = lines.map((line) => `(${escape(line)}) Tj T*`).join(" ");
    const ops = `BT /F1 10 Tf 14 TL 20 ${14 * lines.length + 20} Td ${shown} ET`;
    objects.push(`<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`);
  });
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return encoder.encode(out);
}

function escape(line: string): string {
  return line.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** `count` pages of `lines` numbered lines each: `page <p> line <l> …`. */
export function numberedPages(count: number, lines: number): string[][] {
  return Array.from(
    { length: count },
    (_, p) =>
      Array.from(
        { length: lines },
        (_, l) => `page ${p + 1} line ${l + 1} of a generated document`,
      ),
  );
}

// Crafted PDFs for the document bounds (CONTRACT C17.2a, issue 30 item 3): each is small on disk
// and costs the parser far more than the bounds allow.

/**
 * A one-page PDF from its page's content stream, given as the stream's dictionary entries
 * (e.g. `/Filter /FlateDecode`) and its raw bytes, and the page's `/Kids` entry repeated
 * `kids` times in the page tree (a crafted tree when more than 1).
 */
function onePagePdf(filter: string, stream: Uint8Array, kids = 1): Uint8Array {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (part: string | Uint8Array) => {
    const bytes = typeof part === "string" ? encoder.encode(part) : part;
    parts.push(bytes);
    length += bytes.length;
  };
  push("%PDF-1.4\n");
  const object = (n: number, body: string | Uint8Array[]) => {
    offsets[n - 1] = length;
    push(`${n} 0 obj\n`);
    if (typeof body === "string") push(body);
    else body.forEach(push);
    push("\nendobj\n");
  };
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, `<< /Type /Pages /Kids [${"3 0 R ".repeat(kids)}] /Count ${kids} >>`);
  object(
    3,
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] " +
      "/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
  );
  object(4, [
    encoder.encode(`<< /Length ${stream.length} ${filter} >>\nstream\n`),
    stream,
    encoder.encode("\nendstream"),
  ]);
  object(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  const xref = length;
  push(`xref\n0 6\n0000000000 65535 f \n`);
  for (const offset of offsets) push(`${String(offset).padStart(10, "0")} 00000 n \n`);
  push(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** zlib-compresses chunks (a stream: the input is never held whole). */
async function deflate(chunks: Iterable<Uint8Array>): Promise<Uint8Array> {
  const stream = new CompressionStream("deflate");
  const writing = (async () => {
    const writer = stream.writable.getWriter();
    for (const chunk of chunks) await writer.write(chunk as Uint8Array<ArrayBuffer>);
    await writer.close();
  })();
  const out = new Uint8Array(await new Response(stream.readable).arrayBuffer());
  await writing;
  return out;
}

/**
 * The zlib stream of `count` zero bytes, written by hand: one literal 0, then back-references of
 * 258 bytes at distance 1 in one fixed-Huffman block (13 bits each, so ~1/160 of the output).
 */
function zlibZeros(count: number): Uint8Array {
  const matches = Math.floor((count - 1) / 258);
  const tail = count - 1 - matches * 258; // literal zeros after the matches
  const bits = 16 + 3 + 8 + matches * 13 + tail * 8 + 7 + 32;
  const out = new Uint8Array(Math.ceil(bits / 8) + 8);
  out[0] = 0x78;
  out[1] = 0x01;
  let byte = 2;
  let bit = 0;
  const put = (value: number, n: number) => { // LSB first
    for (let i = 0; i < n; i++) {
      if ((value >> i) & 1) out[byte] |= 1 << bit;
      if (++bit === 8) bit = 0, byte++;
    }
  };
  const code = (value: number, n: number) => { // a Huffman code: MSB first
    for (let i = n - 1; i >= 0; i--) put((value >> i) & 1, 1);
  };
  put(1, 1); // BFINAL
  put(1, 2); // fixed Huffman
  code(0x30, 8); // literal 0
  for (let i = 0; i < matches; i++) {
    code(0xc5, 8); // length 258 (code 285)
    code(0, 5); // distance 1
  }
  for (let i = 0; i < tail; i++) code(0x30, 8);
  code(0, 7); // end of block
  if (bit) bit = 0, byte++;
  const adler = ((count % 65521) * 65536 + 1) >>> 0; // a = 1, b = count (all bytes are 0)
  for (const shift of [24, 16, 8, 0]) out[byte++] = (adler >>> shift) & 0xff;
  return out.subarray(0, byte);
}

/**
 * A PDF whose one content stream inflates to `gib` GiB of zeros through two FlateDecode filters
 * (tens of kilobytes on disk).
 */
export async function inflatingPdf(gib = 4): Promise<Uint8Array> {
  const inner = zlibZeros(gib * 1024 ** 3);
  const outer = await deflate([inner]);
  return onePagePdf("/Filter [/FlateDecode /FlateDecode]", outer);
}

/** A PDF whose page tree names one page `count` times (about 6 bytes per reference). */
export function repeatedPagesPdf(count = 20_000): Uint8Array {
  return onePagePdf(
    "",
    encoder.encode("BT /F1 10 Tf 20 700 Td (one page, many times) Tj ET"),
    count,
  );
}

/** A PDF whose content is one string of `mib` MiB of `A`, compressed (small on disk). */
export async function hugeStringPdf(mib = 40): Promise<Uint8Array> {
  const chunk = new Uint8Array(1 << 20).fill(0x41);
  const stream = await deflate([
    encoder.encode("BT /F1 10 Tf 20 700 Td ("),
    ...Array.from({ length: mib }, () => chunk),
    encoder.encode(") Tj ET"),
  ]);
  return onePagePdf("/Filter /FlateDecode", stream);
}

/**
 * A PDF of `count` pages that all show one content stream of `lines` lines of `w`: small on
 * disk, slow to extract (pdf.js parses the stream again for every page).
 */
export function heavyPagesPdf(count = 10_000, lines = 2000): Uint8Array {
  const ops = `BT /F1 10 Tf 12 TL 20 780 Td ${"(w) Tj T* ".repeat(lines)}ET`;
  const kids = Array.from({ length: count }, (_, i) => `${4 + i} 0 R`).join(" ");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
    ...Array.from(
      { length: count },
      () =>
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${
          4 + count
        } 0 R >> >> /Contents 3 0 R >>`,
    ),
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return encoder.encode(out);
}

/** A PDF whose one content stream inflates to `mib` MiB of zeros through one FlateDecode. */
export function zerosPdf(mib = 256): Uint8Array {
  return onePagePdf("/Filter /FlateDecode", zlibZeros(mib * 1024 * 1024));
}
