// Unit tests of src/text/media_sniff.ts: signatures and header dimensions of the four image
// formats (C17.1), on committed fixtures and on hand-made headers for the variants they lack.

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { imageDimensions, sniffMedia } from "../../../src/text/media_sniff.ts";

const fixture = (name: string) =>
  Deno.readFileSync(new URL(`../../fixtures/media/${name}`, import.meta.url));

Deno.test("sniffMedia tells the formats by signature and nothing else", () => {
  assertEquals(sniffMedia(fixture("red.png")), "image/png");
  assertEquals(sniffMedia(fixture("blue.jpg")), "image/jpeg");
  assertEquals(sniffMedia(fixture("green.gif")), "image/gif");
  assertEquals(sniffMedia(fixture("yellow.webp")), "image/webp");
  assertEquals(sniffMedia(fixture("two_pages.pdf")), "application/pdf");
  assertEquals(sniffMedia(new TextEncoder().encode("RIFF....WAVEfmt ")), null);
  assertEquals(sniffMedia(new TextEncoder().encode("plain text")), null);
  assertEquals(sniffMedia(new Uint8Array()), null);
});

Deno.test("imageDimensions reads each fixture's header", () => {
  assertEquals(imageDimensions(fixture("red.png"), "image/png"), { width: 3, height: 2 });
  assertEquals(imageDimensions(fixture("blue.jpg"), "image/jpeg"), { width: 4, height: 3 });
  assertEquals(imageDimensions(fixture("green.gif"), "image/gif"), { width: 5, height: 4 });
  assertEquals(imageDimensions(fixture("yellow.webp"), "image/webp"), { width: 6, height: 5 });
});

function webp(chunk: string, body: number[]): Uint8Array {
  const bytes = new Uint8Array(40);
  bytes.set(new TextEncoder().encode(`RIFF\0\0\0\0WEBP${chunk}`));
  bytes.set(body, 16);
  return bytes;
}

Deno.test("imageDimensions reads lossy (VP8) and extended (VP8X) WebP headers", () => {
  // VP8: chunk size, frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
  const lossy = webp("VP8 ", [0, 0, 0, 0, 0, 0, 0, 0x9d, 0x01, 0x2a, 0x40, 0x01, 0xf0, 0x00]);
  assertEquals(imageDimensions(lossy, "image/webp"), { width: 320, height: 240 });
  // VP8X: chunk size, flags and reserved (4 bytes), then width - 1 and height - 1 in 24 bits.
  const extended = webp("VP8X", [0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0x07, 0, 0x37, 0x04, 0]);
  assertEquals(imageDimensions(extended, "image/webp"), { width: 1920, height: 1080 });
});

Deno.test("imageDimensions finds a JPEG frame after other segments, and refuses damage", () => {
  const app1 = [0xff, 0xe1, 0x00, 0x06, 1, 2, 3, 4]; // a metadata segment first
  const sof2 = [0xff, 0xc2, 0x00, 0x0b, 8, 0x02, 0x58, 0x03, 0x20, 3, 0, 0, 0];
  const jpeg = Uint8Array.from([0xff, 0xd8, ...app1, ...sof2]);
  assertEquals(imageDimensions(jpeg, "image/jpeg"), { width: 800, height: 600 });
  assertEquals(
    imageDimensions(Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0, 2]), "image/jpeg"),
    null,
  );
  assertEquals(imageDimensions(fixture("damaged.png"), "image/png"), null);
  assertEquals(imageDimensions(fixture("red.png").subarray(0, 20), "image/png"), null);
  assertEquals(imageDimensions(fixture("green.gif").subarray(0, 8), "image/gif"), null);
});

const canRun = Deno.permissions.querySync({ name: "run" }).state === "granted";

Deno.test({
  name: "unpdf is only a dynamic import of mod.ts's graph (loaded when a PDF is read)",
  ignore: !canRun,
  async fn() {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", new URL("../../../mod.ts", import.meta.url).pathname],
      stdout: "piped",
      stderr: "null",
    }).output();
    const info = JSON.parse(new TextDecoder().decode(out.stdout));
    const uses = info.modules.flatMap((m: { dependencies?: { specifier: string }[] }) =>
      (m.dependencies ?? []).filter((d) => d.specifier.includes("unpdf"))
    );
    assertEquals(uses.length > 0, true);
    for (const use of uses) assertEquals((use as { isDynamic?: boolean }).isDynamic, true);
  },
});
