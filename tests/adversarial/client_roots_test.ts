// Hardening round 3 (issue 19, finding 1): an MCP client root must never become a root outside
// the command-line roots. The server checked a client root's real path, then handed the path
// string to `new LocalFileSystem`, which resolved it again: a process inside the command-line
// root that swapped a directory on the way for a link in between got a root anywhere (9 of 50
// stdio sessions in the review). Now the provider is kept only when the roots it resolved are
// the checked real paths holding the checked directories (device and inode), tools are cached
// by that identity, and the log names the roots the provider holds.
//
// The attacker runs as nobody and swaps `<root>/p` for a link to an outside directory holding
// the same names; each session declares a new client root `<root>/p/c<i>`, so each one builds a
// provider (no cache hit) and races the swap. On 0.2.0 a session whose provider resolved
// `<root>/p` while it was the link listed the outside directory (its marker file): this test
// failed there. Both transports, both permission sets (-A, and the repository's
// `--allow-read --allow-write`). TOOLFS_SLOW=1 runs 1,000 sessions instead of 200.

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { adversarialSandbox, figure, granted, skipUnless } from "./_harness.ts";
import { NOBODY, nobodySwapper } from "./_nobody.ts";

const PROJECT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const SESSIONS = Deno.env.get("TOOLFS_SLOW") === "1" ? 1000 : 200;
const MARKER = "outside_marker_9b3f.txt";
const PERMISSION_SETS = [
  { name: "-A", flags: ["--allow-all"] },
  { name: "--allow-read --allow-write", flags: ["--allow-read", "--allow-write", "--allow-env"] },
];

function cannotRunHere(): string | null {
  for (const name of ["run", "env", "net", "sys"] as const) {
    if (!granted({ name })) return `needs --allow-${name} (deno test -A)`;
  }
  if (Deno.uid() !== 0) return "needs root (runs the swapper as nobody)";
  return null;
}

type Client = import("@modelcontextprotocol/sdk/client").Client;

/** A client declaring `roots` (changed with `setRoots`, which notifies the server). */
async function newClient(roots: string[]) {
  const { Client } = await import("@modelcontextprotocol/sdk/client");
  const { ListRootsRequestSchema } = await import(
    // @ts-types="@modelcontextprotocol/sdk/types"
    "@modelcontextprotocol/sdk/types.js"
  );
  const client = new Client({ name: "attacker", version: "0.0.0" }, {
    capabilities: { roots: { listChanged: true } },
  });
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: roots.map((path) => ({ uri: pathToFileURL(path).href, name: path })),
  }));
  return {
    client,
    async setRoots(paths: string[]) {
      roots = paths;
      await client.sendRootsListChanged();
    },
  };
}

/** The text of `list` on the session cwd (the first root in force). */
async function listCwd(client: Client): Promise<string> {
  const result = await client.callTool({ name: "list", arguments: {} }, undefined, {
    timeout: 30_000,
  }) as { content: { text: string }[] };
  return result.content.map((c) => c.text).join("\n");
}

/** A tree: `<root>/p/c<i>` inside, `<outside>/c<i>/<MARKER>` outside; `<root>` is nobody's. */
async function setUp(box: { base: string; root: string; outside: string }) {
  await Deno.chmod(box.base, 0o755);
  await Deno.chmod(box.outside, 0o700); // nobody cannot read it, only link to it
  await Deno.chown(box.root, NOBODY, NOBODY);
  for (let i = 0; i < SESSIONS; i++) {
    await Deno.mkdir(join(box.root, "p", `c${i}`), { recursive: true });
    await Deno.mkdir(join(box.outside, `c${i}`));
    await Deno.writeTextFile(join(box.outside, `c${i}`, MARKER), "outside\n");
  }
}

interface Tally {
  outside: number;
  served: number;
  refused: number;
}

function tally(t: Tally, listing: string): void {
  if (listing.includes(MARKER)) t.outside++;
  else if (listing.startsWith("Error:")) t.refused++;
  else t.served++;
}

for (const permissions of PERMISSION_SETS) {
  const stdioName =
    `issue 19: a client root swapped for a link never becomes a root (stdio, ${permissions.name})`;
  Deno.test({
    name: stdioName,
    ignore: skipUnless(stdioName, cannotRunHere()),
    async fn() {
      await using box = await adversarialSandbox();
      await setUp(box);
      const swapper = await nobodySwapper(
        box.base,
        join(box.root, "stop"),
        join(box.root, "p"),
        box.outside,
      );
      const t: Tally = { outside: 0, served: 0, refused: 0 };
      const { StdioClientTransport } = await import(
        // @ts-types="@modelcontextprotocol/sdk/client/stdio"
        "@modelcontextprotocol/sdk/client/stdio.js"
      );
      let swaps = 0;
      let stderr = "";
      try {
        const transport = new StdioClientTransport({
          command: Deno.execPath(),
          args: ["run", "--no-prompt", ...permissions.flags, join(PROJECT, "mcp.ts"), box.root],
          cwd: PROJECT,
          env: Deno.env.toObject(),
          stderr: "pipe",
        });
        transport.stderr?.on(
          "data",
          (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk),
        );
        const { client, setRoots } = await newClient([join(box.root, "p", "c0")]);
        await client.connect(transport);
        try {
          // Each new client root is a new provider built while the swap runs.
          for (let i = 0; i < SESSIONS; i++) {
            if (i > 0) await setRoots([join(box.root, "p", `c${i}`)]);
            tally(t, await listCwd(client));
          }
        } finally {
          await client.close();
        }
      } finally {
        swaps = await swapper.stop();
      }
      figure("client roots", `stdio ${permissions.name}: ${JSON.stringify(t)}, ${swaps} swaps`);
      assert.ok(swaps > 10, "the swapper never ran");
      assert.equal(t.outside, 0, stderr);
      // The log names only roots inside the command-line root.
      for (
        const line of stderr.split("\n").filter((l) => l.startsWith("toolfs mcp: roots in force"))
      ) {
        assert.ok(!line.includes(box.outside), line);
      }
    },
  });

  const httpName =
    `issue 19: a client root swapped for a link never becomes a root (HTTP, ${permissions.name})`;
  Deno.test({
    name: httpName,
    ignore: skipUnless(httpName, cannotRunHere()),
    async fn() {
      await using box = await adversarialSandbox();
      await setUp(box);
      const { StreamableHTTPClientTransport } = await import(
        // @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
        "@modelcontextprotocol/sdk/client/streamableHttp.js"
      );
      const server = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--no-prompt",
          ...permissions.flags,
          ...(permissions.flags.includes("--allow-all") ? [] : ["--allow-net=127.0.0.1"]),
          join(PROJECT, "mcp.ts"),
          "--http",
          "127.0.0.1:0",
          box.root,
        ],
        env: { TOOLFS_MCP_TOKEN: "t0ken-issue19" },
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      let stderr = "";
      const pump = (async () => {
        for await (const text of server.stderr.pipeThrough(new TextDecoderStream())) stderr += text;
      })();
      const swapper = await nobodySwapper(
        box.base,
        join(box.root, "stop"),
        join(box.root, "p"),
        box.outside,
      );
      const t: Tally = { outside: 0, served: 0, refused: 0 };
      let swaps = 0;
      try {
        let url: string | undefined;
        for (let i = 0; i < 600 && !url; i++) {
          url = /serving (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
          if (!url) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.ok(url, stderr);
        for (let i = 0; i < SESSIONS; i++) {
          // A new session per client root; a later session declaring the same root would reuse
          // the cached tools, so each declares its own.
          const transport = new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { authorization: "Bearer t0ken-issue19" } },
          });
          const { client } = await newClient([join(box.root, "p", `c${i}`)]);
          try {
            await client.connect(transport);
            tally(t, await listCwd(client));
          } catch (error) {
            throw new Error(`session ${i}: ${error}\n${stderr.slice(-4000)}`);
          } finally {
            await client.close();
          }
        }
      } finally {
        swaps = await swapper.stop();
        try {
          server.kill("SIGTERM");
        } catch {
          // already gone: the error above says why, and its stderr is in the message
        }
        await server.status;
        await pump;
      }
      figure("client roots", `HTTP ${permissions.name}: ${JSON.stringify(t)}, ${swaps} swaps`);
      assert.ok(swaps > 10, "the swapper never ran");
      assert.equal(t.outside, 0, stderr.slice(-4000));
      for (
        const line of stderr.split("\n").filter((l) => l.startsWith("toolfs mcp: roots in force"))
      ) {
        assert.ok(!line.includes(box.outside), line);
      }
    },
  });
}
