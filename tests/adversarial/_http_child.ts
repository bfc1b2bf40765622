// A child for http_bounds_test.ts: the MCP HTTP server on 127.0.0.1, started under a low
// `ulimit -n` by the test. Prints `{"port":<n>}` once listening; runs until killed.

import { serveHttp } from "../../mcp.ts";

const [root, maxConnections] = Deno.args;
const serving = await serveHttp([root], {
  token: "tok",
  maxConnections: Number(maxConnections),
  headerTimeoutMs: 1000,
  log: (line) => console.error(line),
});
console.log(JSON.stringify({ port: Number(new URL(serving.url).port) }));
await serving.finished;
console.log(JSON.stringify({ finished: true }));
