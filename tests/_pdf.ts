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
