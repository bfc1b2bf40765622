import { equal, rejects } from "node:assert/strict";
import { SourceWorker, sourceWorker } from "../../../../src/provider/local/_worker.ts";
import { IO_DETAILS } from "../../../../src/render/errors.ts";

Deno.test("worker: a reply comes back by id; a thrown Deno error comes back as its class", async () => {
  const source = `
function handle({ n }) {
  if (n < 0) throw new Deno.errors.NotFound("no such " + n);
  const out = new Uint8Array([n, n + 1]);
  return [out, [out.buffer]];
}`;
  const worker = sourceWorker(source)!;
  equal(sourceWorker(source), worker, "one worker per source");
  const [a, b] = await Promise.all([
    worker.call<Uint8Array>({ n: 1 }),
    worker.call<Uint8Array>({ n: 7 }),
  ]);
  equal([...a].join(), "1,2");
  equal([...b].join(), "7,8");
  await rejects(worker.call({ n: -1 }), (e: unknown) => e instanceof Deno.errors.NotFound);
});

Deno.test("worker: a worker that stops fails its calls with IO_DETAILS.workerStopped", async () => {
  equal(IO_DETAILS.workerStopped, "a worker thread stopped");
  let gone = false;
  const worker = new SourceWorker(`function handle() { process.exit(3); }`, () => (gone = true));
  await rejects(worker.call({}), (e: unknown) => (e as Error).message === IO_DETAILS.workerStopped);
  equal(gone, true);
});
